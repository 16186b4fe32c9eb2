#ifndef FOLIO_CGEONAMES_SHIM_H
#define FOLIO_CGEONAMES_SHIM_H

/* libgeonames (Debian's libgeonames-dev): the GeoNames towns of 15,000 people or more, compiled
   into the library. Its header pulls in all of GLib and GIO, whose pkg-config flags SwiftPM refuses
   (-pthread); Folio uses eight functions of plain C types, declared here exactly as geonames.h
   declares them (gint = int, guint = unsigned int, gdouble = double, gchar = char, and a city is an
   opaque GVariant). See Places/Gazetteer.swift. */

typedef struct _GVariant FolioGeonamesCity;

int geonames_get_n_cities(void);
FolioGeonamesCity *geonames_get_city(int index);
void geonames_city_free(FolioGeonamesCity *city);
const char *geonames_city_get_name(FolioGeonamesCity *city);
const char *geonames_city_get_state(FolioGeonamesCity *city);
const char *geonames_city_get_country(FolioGeonamesCity *city);
double geonames_city_get_latitude(FolioGeonamesCity *city);
double geonames_city_get_longitude(FolioGeonamesCity *city);
unsigned int geonames_city_get_population(FolioGeonamesCity *city);

#endif

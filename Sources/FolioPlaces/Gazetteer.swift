import CGeonames

/// The only code that talks to libgeonames (Debian's `libgeonames-dev`): about 24,000 towns of
/// 15,000 people or more, from GeoNames, compiled into the library, so a lookup never needs the
/// network. Folio reads them all once into its own index (`GazetteerIndex`), which answers
/// "what is near here" without scanning; libgeonames itself only searches by name.
enum Gazetteer {
    /// How many towns the installed library has; a cached index made from another count is stale.
    static var count: Int { Int(geonames_get_n_cities()) }

    static func cities() -> [GazetteerCity] {
        let total = geonames_get_n_cities()
        guard total > 0 else { return [] }
        var cities: [GazetteerCity] = []
        cities.reserveCapacity(Int(total))
        for index in 0..<total {
            guard let city = geonames_get_city(index) else { continue }
            defer { geonames_city_free(city) }
            cities.append(GazetteerCity(
                name: text(geonames_city_get_name(city)),
                state: text(geonames_city_get_state(city)),
                country: text(geonames_city_get_country(city)),
                latitude: geonames_city_get_latitude(city),
                longitude: geonames_city_get_longitude(city),
                population: Int(geonames_city_get_population(city))))
        }
        return cities
    }

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }
}

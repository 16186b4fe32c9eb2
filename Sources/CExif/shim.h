#ifndef FOLIO_CEXIF_SHIM_H
#define FOLIO_CEXIF_SHIM_H

#include <libexif/exif-data.h>
#include <libexif/exif-content.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-tag.h>
#include <libexif/exif-utils.h>

/* ExifData.ifd is a fixed C array, which Swift imports as a tuple. */
static inline ExifContent *folio_exif_content(ExifData *data, ExifIfd ifd) {
    return data->ifd[ifd];
}

#endif

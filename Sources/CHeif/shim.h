#ifndef FOLIO_CHEIF_SHIM_H
#define FOLIO_CHEIF_SHIM_H

/* libheif decodes HEIC for Folio directly: libgd 2.3.3's reader copies libheif's planes
   without their stride, which shears every photo whose row is not a multiple of libheif's
   alignment. Only HEIFDecoder.swift imports this module. */
#include <libheif/heif.h>

#endif

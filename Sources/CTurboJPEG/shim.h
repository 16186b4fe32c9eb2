#ifndef FOLIO_CTURBOJPEG_SHIM_H
#define FOLIO_CTURBOJPEG_SHIM_H

#include <turbojpeg.h>

/* TJSCALED is a macro; this is the exact size libjpeg-turbo produces for a factor. */
static inline int folio_tj_scaled(int dimension, tjscalingfactor factor) {
    return TJSCALED(dimension, factor);
}

#endif

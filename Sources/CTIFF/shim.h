#ifndef FOLIO_CTIFF_SHIM_H
#define FOLIO_CTIFF_SHIM_H

#include <tiffio.h>

/* libgd reads TIFF through libtiff without installing handlers, so libtiff prints every warning
   and error (a cut-off strip, an unknown tag) to stderr, from any thread. Folio reports a TIFF
   that fails to decode as an ImagingError instead; the handlers are process-wide. */
static inline void folio_tiff_silence_messages(void) {
    TIFFSetErrorHandler(NULL);
    TIFFSetWarningHandler(NULL);
}

#endif

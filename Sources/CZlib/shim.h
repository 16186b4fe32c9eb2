#ifndef FOLIO_CZLIB_SHIM_H
#define FOLIO_CZLIB_SHIM_H

#include <zlib.h>

/* inflateInit is a macro that passes the library's version and the stream's size. */
static inline int folio_inflate_init(z_stream *stream) {
    return inflateInit(stream);
}

#endif

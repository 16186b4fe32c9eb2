#ifndef FOLIO_CCMARK_SHIM_H
#define FOLIO_CCMARK_SHIM_H

#include <cmark.h>

/* cmark 0.30 drops raw HTML and unsafe link destinations (javascript:, vbscript:, file:, data:
   other than images) unless CMARK_OPT_UNSAFE is given; Folio never gives it. CMARK_OPT_SAFE,
   the older name of that behaviour, is kept for a cmark before 0.29, where it was not the default. */
static inline int folio_cmark_safe_options(void) {
    return CMARK_OPT_DEFAULT | CMARK_OPT_SAFE;
}

#endif

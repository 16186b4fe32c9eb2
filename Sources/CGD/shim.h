#ifndef FOLIO_CGD_SHIM_H
#define FOLIO_CGD_SHIM_H

#include <stdarg.h>
#include <gd.h>

/* libgd reports decode failures on stderr through a process-wide callback. Folio turns
   every failure into an ImagingError instead, so the callback does nothing. */
static void folio_gd_ignore_message(int priority, const char *format, va_list args) {
    (void)priority; (void)format; (void)args;
}

static inline void folio_gd_silence_errors(void) {
    gdSetErrorMethod(folio_gd_ignore_message);
}

/* gd.h exposes these as macros, which Swift cannot import. */
static inline int folio_gd_width(gdImagePtr im) { return gdImageSX(im); }
static inline int folio_gd_height(gdImagePtr im) { return gdImageSY(im); }
static inline int folio_gd_is_true_color(gdImagePtr im) { return gdImageTrueColor(im); }
static inline int folio_gd_true_color(int r, int g, int b) { return gdTrueColor(r, g, b); }
static inline int folio_gd_true_color_alpha(int r, int g, int b, int a) { return gdTrueColorAlpha(r, g, b, a); }

/* One row of a truecolor image: gdTrueColor values, width entries. Rows are separate
   allocations, so callers go row by row. */
static inline int *folio_gd_row(gdImagePtr im, int y) { return im->tpixels[y]; }

#endif

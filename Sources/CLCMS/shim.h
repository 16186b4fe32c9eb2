#ifndef FOLIO_CLCMS_SHIM_H
#define FOLIO_CLCMS_SHIM_H

#include <lcms2.h>

/* lcms2's pixel layouts are macros built from other macros, which Swift does not import. */

/* PixelBuffer's words, 0x??RRGGBB in native order: BGRX in memory on little-endian machines. */
static inline cmsUInt32Number folio_lcms_xrgb_native(void) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return TYPE_BGRA_8;
#else
    return TYPE_ARGB_8;
#endif
}

/* A grey image decoded into PixelBuffer words: the grey value is in each of the three colour
   bytes; lcms reads the first and skips the other three bytes of the word. */
static inline cmsUInt32Number folio_lcms_grey_in_xrgb(void) {
    return COLORSPACE_SH(PT_GRAY) | CHANNELS_SH(1) | BYTES_SH(1) | EXTRA_SH(3);
}

/* CMYK as Photoshop stores it in JPEG, inverted (255 is no ink), as TurboJPEG hands it out. */
static inline cmsUInt32Number folio_lcms_cmyk_inverted(void) {
    return TYPE_CMYK_8_REV;
}

/* Three doubles from 0 to 1: for measuring what a profile does, not for images. */
static inline cmsUInt32Number folio_lcms_rgb_double(void) {
    return TYPE_RGB_DBL;
}

static inline cmsUInt32Number folio_lcms_flag_black_point_compensation(void) {
    return cmsFLAGS_BLACKPOINTCOMPENSATION;
}

#endif

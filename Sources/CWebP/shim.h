#ifndef FOLIO_CWEBP_SHIM_H
#define FOLIO_CWEBP_SHIM_H

/* libwebp's animation decoder: the first frame of an animated WebP, which libgd's reader
   (libwebp's simple decoder) refuses. Only WebPAnimation.swift imports this module. */
#include <webp/demux.h>

/* demux.h's initialisers are inline functions that pass the ABI version this header was
   written for; wrapped so the version is this header's, whatever Swift makes of them. */
static inline int folio_webp_anim_options_init(WebPAnimDecoderOptions *options) {
    return WebPAnimDecoderOptionsInit(options);
}

static inline WebPAnimDecoder *folio_webp_anim_decoder_new(const uint8_t *bytes, size_t size,
                                                           const WebPAnimDecoderOptions *options) {
    WebPData data = { bytes, size };
    return WebPAnimDecoderNew(&data, options);
}

#endif

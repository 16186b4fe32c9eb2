#ifndef FOLIO_CFFMPEG_SHIM_H
#define FOLIO_CFFMPEG_SHIM_H

/* FFmpeg's libraries, which read, decode and write Folio's videos. Only the files of
   Sources/FolioCore/Video import this module. What Swift cannot import (macros that build
   error codes, the display matrix helpers FFmpeg marks deprecated in one release and not the
   next) is wrapped here, so Swift sees plain functions and no warning.

   The libraries are not linked: folio_ffmpeg_load opens them when the first video is met
   (folio_ffmpeg.c), and until it has, none of their functions may be called. */
#include <errno.h>
#include <math.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/opt.h>
#include <libavutil/imgutils.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>

/* Opens FFmpeg's libraries, once for the process. NULL when they are ready; else why not
   (the library that would not open, as the dynamic loader says), every time it is asked. */
const char *folio_ffmpeg_load(void);

static inline int folio_av_eagain(void) { return AVERROR(EAGAIN); }
static inline int folio_av_eof(void) { return AVERROR_EOF; }
static inline int folio_av_invalid(void) { return AVERROR_INVALIDDATA; }
static inline int64_t folio_av_nopts(void) { return AV_NOPTS_VALUE; }
static inline int folio_av_seek_size(void) { return AVSEEK_SIZE; }

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* The stream's rotation in degrees, counter-clockwise as FFmpeg reports it (what the display
   matrix turns the stored picture by); NAN when the stream has no matrix. */
static inline double folio_stream_rotation(const AVStream *stream) {
    const uint8_t *matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, NULL);
    if (!matrix) return NAN;
    return av_display_rotation_get((const int32_t *)matrix);
}

/* Gives an output stream the display matrix that turns its picture `degrees` clockwise (FFmpeg
   sets by clockwise angles and reads back counter-clockwise ones), so players turn the published
   video as the phone meant it. Returns 0, or a negative AVERROR. */
static inline int folio_stream_set_rotation(AVStream *stream, double degrees) {
    uint8_t *matrix = av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, 9 * sizeof(int32_t));
    if (!matrix) return AVERROR(ENOMEM);
    av_display_rotation_set((int32_t *)matrix, degrees);
    return 0;
}

#pragma GCC diagnostic pop

/* Stereo, as the published AAC track is. */
static inline int folio_set_stereo(AVChannelLayout *layout) {
    av_channel_layout_uninit(layout);
    return av_channel_layout_copy(layout, &(AVChannelLayout)AV_CHANNEL_LAYOUT_STEREO);
}

#endif

/* FFmpeg's libraries, opened when the first video is met rather than when folio starts.

   Linked, they bring 78 shared libraries of their own (codecs, protocols, their TLS and
   hardware layers) that the dynamic loader maps and relocates at every start of folio, some
   50 ms of a run whether the site holds a video or not. Here each function Folio calls is
   defined under its own name, hidden inside the executable, and goes on to the library's own,
   found by dlsym once folio_ffmpeg_load has opened the libraries by the sonames of the headers
   Folio was built against. The sonames are also written into the executable as a dlopen note
   (the ELF dlopen metadata of systemd and freedesktop.org), where scripts/package-deb.sh reads
   them to name their packages as dependencies. */

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "CFFmpeg.h"

#define FOLIO_SONAME(name, major) "lib" #name ".so." AV_STRINGIFY(major)

/* The libraries, each before those that need it (the first apart, for lists that separate). */
#define FOLIO_FFMPEG_LIBRARIES(FIRST, NEXT) \
    FIRST(avutil, LIBAVUTIL_VERSION_MAJOR) \
    NEXT(swresample, LIBSWRESAMPLE_VERSION_MAJOR) \
    NEXT(swscale, LIBSWSCALE_VERSION_MAJOR) \
    NEXT(avcodec, LIBAVCODEC_VERSION_MAJOR) \
    NEXT(avformat, LIBAVFORMAT_VERSION_MAJOR)

/* Every function Folio calls, by library: its result, name, parameters and the names passed
   on. A definition that does not match the library's header is a compile error (conflicting
   types); one Folio calls that is missing here is a link error (an undefined reference). */
#define FOLIO_FFMPEG_FUNCTIONS(F, V) \
    F(avutil, AVAudioFifo *, av_audio_fifo_alloc, (enum AVSampleFormat sample_fmt, int channels, int nb_samples), \
      (sample_fmt, channels, nb_samples)) \
    V(avutil, av_audio_fifo_free, (AVAudioFifo *af), (af)) \
    F(avutil, int, av_audio_fifo_read, (AVAudioFifo *af, void **data, int nb_samples), (af, data, nb_samples)) \
    F(avutil, int, av_audio_fifo_size, (AVAudioFifo *af), (af)) \
    F(avutil, int, av_audio_fifo_write, (AVAudioFifo *af, void **data, int nb_samples), (af, data, nb_samples)) \
    F(avutil, int, av_channel_layout_check, (const AVChannelLayout *layout), (layout)) \
    F(avutil, int, av_channel_layout_copy, (AVChannelLayout *dst, const AVChannelLayout *src), (dst, src)) \
    V(avutil, av_channel_layout_default, (AVChannelLayout *layout, int nb_channels), (layout, nb_channels)) \
    V(avutil, av_channel_layout_uninit, (AVChannelLayout *layout), (layout)) \
    V(avutil, av_dict_free, (AVDictionary **m), (m)) \
    F(avutil, AVDictionaryEntry *, av_dict_get, (const AVDictionary *m, const char *key, const AVDictionaryEntry *prev, int flags), \
      (m, key, prev, flags)) \
    F(avutil, int, av_dict_set, (AVDictionary **pm, const char *key, const char *value, int flags), (pm, key, value, flags)) \
    F(avutil, double, av_display_rotation_get, (const int32_t matrix[9]), (matrix)) \
    V(avutil, av_display_rotation_set, (int32_t matrix[9], double angle), (matrix, angle)) \
    F(avutil, AVFrame *, av_frame_alloc, (void), ()) \
    V(avutil, av_frame_free, (AVFrame **frame), (frame)) \
    F(avutil, int, av_frame_get_buffer, (AVFrame *frame, int align), (frame, align)) \
    F(avutil, int, av_frame_make_writable, (AVFrame *frame), (frame)) \
    V(avutil, av_frame_unref, (AVFrame *frame), (frame)) \
    V(avutil, av_free, (void *ptr), (ptr)) \
    V(avutil, av_freep, (void *ptr), (ptr)) \
    V(avutil, av_log_set_level, (int level), (level)) \
    F(avutil, void *, av_malloc, (size_t size), (size)) \
    F(avutil, int, av_strerror, (int errnum, char *errbuf, size_t errbuf_size), (errnum, errbuf, errbuf_size)) \
    F(avcodec, AVPacket *, av_packet_alloc, (void), ()) \
    V(avcodec, av_packet_free, (AVPacket **pkt), (pkt)) \
    V(avcodec, av_packet_rescale_ts, (AVPacket *pkt, AVRational tb_src, AVRational tb_dst), (pkt, tb_src, tb_dst)) \
    V(avcodec, av_packet_unref, (AVPacket *pkt), (pkt)) \
    F(avcodec, AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec)) \
    F(avcodec, const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id)) \
    F(avcodec, const AVCodec *, avcodec_find_encoder, (enum AVCodecID id), (id)) \
    F(avcodec, const AVCodec *, avcodec_find_encoder_by_name, (const char *name), (name)) \
    V(avcodec, avcodec_free_context, (AVCodecContext **avctx), (avctx)) \
    F(avcodec, const char *, avcodec_get_name, (enum AVCodecID id), (id)) \
    F(avcodec, int, avcodec_open2, (AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options), (avctx, codec, options)) \
    F(avcodec, int, avcodec_parameters_copy, (AVCodecParameters *dst, const AVCodecParameters *src), (dst, src)) \
    F(avcodec, int, avcodec_parameters_from_context, (AVCodecParameters *par, const AVCodecContext *codec), (par, codec)) \
    F(avcodec, int, avcodec_parameters_to_context, (AVCodecContext *codec, const AVCodecParameters *par), (codec, par)) \
    F(avcodec, int, avcodec_receive_frame, (AVCodecContext *avctx, AVFrame *frame), (avctx, frame)) \
    F(avcodec, int, avcodec_receive_packet, (AVCodecContext *avctx, AVPacket *avpkt), (avctx, avpkt)) \
    F(avcodec, int, avcodec_send_frame, (AVCodecContext *avctx, const AVFrame *frame), (avctx, frame)) \
    F(avcodec, int, avcodec_send_packet, (AVCodecContext *avctx, const AVPacket *avpkt), (avctx, avpkt)) \
    F(avformat, int, av_find_best_stream, \
      (AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, int related_stream, const AVCodec **decoder_ret, int flags), \
      (ic, type, wanted_stream_nb, related_stream, decoder_ret, flags)) \
    F(avformat, AVRational, av_guess_frame_rate, (AVFormatContext *ctx, AVStream *stream, AVFrame *frame), (ctx, stream, frame)) \
    F(avformat, AVRational, av_guess_sample_aspect_ratio, (AVFormatContext *format, AVStream *stream, AVFrame *frame), \
      (format, stream, frame)) \
    F(avformat, int, av_interleaved_write_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt)) \
    F(avformat, int, av_read_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt)) \
    F(avformat, int, av_seek_frame, (AVFormatContext *s, int stream_index, int64_t timestamp, int flags), \
      (s, stream_index, timestamp, flags)) \
    F(avformat, uint8_t *, av_stream_get_side_data, (const AVStream *stream, enum AVPacketSideDataType type, size_t *size), \
      (stream, type, size)) \
    F(avformat, uint8_t *, av_stream_new_side_data, (AVStream *stream, enum AVPacketSideDataType type, size_t size), \
      (stream, type, size)) \
    F(avformat, int, av_write_trailer, (AVFormatContext *s), (s)) \
    F(avformat, AVFormatContext *, avformat_alloc_context, (void), ()) \
    F(avformat, int, avformat_alloc_output_context2, \
      (AVFormatContext **ctx, const AVOutputFormat *oformat, const char *format_name, const char *filename), \
      (ctx, oformat, format_name, filename)) \
    V(avformat, avformat_close_input, (AVFormatContext **s), (s)) \
    F(avformat, int, avformat_find_stream_info, (AVFormatContext *ic, AVDictionary **options), (ic, options)) \
    V(avformat, avformat_free_context, (AVFormatContext *s), (s)) \
    F(avformat, AVStream *, avformat_new_stream, (AVFormatContext *s, const AVCodec *c), (s, c)) \
    F(avformat, int, avformat_open_input, (AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options), \
      (ps, url, fmt, options)) \
    F(avformat, int, avformat_seek_file, (AVFormatContext *s, int stream_index, int64_t min_ts, int64_t ts, int64_t max_ts, int flags), \
      (s, stream_index, min_ts, ts, max_ts, flags)) \
    F(avformat, int, avformat_write_header, (AVFormatContext *s, AVDictionary **options), (s, options)) \
    F(avformat, AVIOContext *, avio_alloc_context, \
      (unsigned char *buffer, int buffer_size, int write_flag, void *opaque, int (*read_packet)(void *opaque, uint8_t *buf, int buf_size), \
       int (*write_packet)(void *opaque, uint8_t *buf, int buf_size), int64_t (*seek)(void *opaque, int64_t offset, int whence)), \
      (buffer, buffer_size, write_flag, opaque, read_packet, write_packet, seek)) \
    F(avformat, int, avio_closep, (AVIOContext **s), (s)) \
    V(avformat, avio_context_free, (AVIOContext **s), (s)) \
    F(avformat, int, avio_open, (AVIOContext **s, const char *url, int flags), (s, url, flags)) \
    V(swscale, sws_freeContext, (struct SwsContext *context), (context)) \
    F(swscale, struct SwsContext *, sws_getCachedContext, \
      (struct SwsContext *context, int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH, enum AVPixelFormat dstFormat, \
       int flags, SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param), \
      (context, srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param)) \
    F(swscale, struct SwsContext *, sws_getContext, \
      (int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH, enum AVPixelFormat dstFormat, int flags, \
       SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param), \
      (srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param)) \
    F(swscale, int, sws_scale, \
      (struct SwsContext *c, const uint8_t *const srcSlice[], const int srcStride[], int srcSliceY, int srcSliceH, \
       uint8_t *const dst[], const int dstStride[]), \
      (c, srcSlice, srcStride, srcSliceY, srcSliceH, dst, dstStride)) \
    F(swscale, int, sws_scale_frame, (struct SwsContext *c, AVFrame *dst, const AVFrame *src), (c, dst, src)) \
    F(swresample, int, swr_alloc_set_opts2, \
      (struct SwrContext **ps, AVChannelLayout *out_ch_layout, enum AVSampleFormat out_sample_fmt, int out_sample_rate, \
       AVChannelLayout *in_ch_layout, enum AVSampleFormat in_sample_fmt, int in_sample_rate, int log_offset, void *log_ctx), \
      (ps, out_ch_layout, out_sample_fmt, out_sample_rate, in_ch_layout, in_sample_fmt, in_sample_rate, log_offset, log_ctx)) \
    F(swresample, int, swr_convert_frame, (SwrContext *swr, AVFrame *output, const AVFrame *input), (swr, output, input)) \
    V(swresample, swr_free, (struct SwrContext **s), (s)) \
    F(swresample, int, swr_init, (struct SwrContext *s), (s))

enum folio_ffmpeg_library {
#define FOLIO_LIBRARY_CASE(name, major) folio_##name,
    FOLIO_FFMPEG_LIBRARIES(FOLIO_LIBRARY_CASE, FOLIO_LIBRARY_CASE)
    folio_ffmpeg_library_count
};

static const char *const sonames[] = {
#define FOLIO_LIBRARY_SONAME(name, major) FOLIO_SONAME(name, major),
    FOLIO_FFMPEG_LIBRARIES(FOLIO_LIBRARY_SONAME, FOLIO_LIBRARY_SONAME)
};

/* The libraries' own functions, as their headers type them. */
static struct {
#define FOLIO_FUNCTION_FIELD(library, result, name, parameters, arguments) __typeof__(name) *name;
#define FOLIO_PROCEDURE_FIELD(library, name, parameters, arguments) __typeof__(name) *name;
    FOLIO_FFMPEG_FUNCTIONS(FOLIO_FUNCTION_FIELD, FOLIO_PROCEDURE_FIELD)
} functions;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];
static const char *failed;

static void load(void) {
    void *libraries[folio_ffmpeg_library_count];
    for (int index = 0; index < folio_ffmpeg_library_count; index++) {
        /* Kept open for the rest of the process: the functions are its from now on. */
        libraries[index] = dlopen(sonames[index], RTLD_NOW | RTLD_LOCAL);
        if (libraries[index] == NULL) {
            snprintf(failure, sizeof failure, "%s", dlerror());
            failed = failure;
            return;
        }
    }
#define FOLIO_FUNCTION_LOOKUP(library, result, name, parameters, arguments) \
    if ((functions.name = (__typeof__(name) *)dlsym(libraries[folio_##library], #name)) == NULL) { \
        snprintf(failure, sizeof failure, "%s has no %s", sonames[folio_##library], #name); \
        failed = failure; \
        return; \
    }
#define FOLIO_PROCEDURE_LOOKUP(library, name, parameters, arguments) FOLIO_FUNCTION_LOOKUP(library, void, name, parameters, arguments)
    FOLIO_FFMPEG_FUNCTIONS(FOLIO_FUNCTION_LOOKUP, FOLIO_PROCEDURE_LOOKUP)
}

const char *folio_ffmpeg_load(void) {
    pthread_once(&once, load);
    return failed;
}

#define FOLIO_FUNCTION_FORWARD(library, result, name, parameters, arguments) \
    __attribute__((visibility("hidden"))) result name parameters { return functions.name arguments; }
#define FOLIO_PROCEDURE_FORWARD(library, name, parameters, arguments) \
    __attribute__((visibility("hidden"))) void name parameters { functions.name arguments; }
FOLIO_FFMPEG_FUNCTIONS(FOLIO_FUNCTION_FORWARD, FOLIO_PROCEDURE_FORWARD)

/* The dlopen note: an ELF note of owner "FDO" and type 0x407c0c0a whose text is a JSON array
   of the libraries a program may open (https://systemd.io/ELF_DLOPEN_METADATA/). */
#define FOLIO_NOTE_FIRST(name, major) "\"" FOLIO_SONAME(name, major) "\""
#define FOLIO_NOTE_NEXT(name, major) ",\"" FOLIO_SONAME(name, major) "\""
#define FOLIO_NOTE_TEXT \
    "[{\"feature\":\"video\",\"description\":\"Videos and Live Photos: their posters and web renditions\"," \
    "\"priority\":\"recommended\",\"soname\":[" FOLIO_FFMPEG_LIBRARIES(FOLIO_NOTE_FIRST, FOLIO_NOTE_NEXT) "]}]"

__attribute__((used, section(".note.dlopen"), aligned(4))) static const struct {
    uint32_t name_size, text_size, type;
    char name[4];
    char text[(sizeof FOLIO_NOTE_TEXT + 3) & ~3u];
} dlopen_note = {4, sizeof FOLIO_NOTE_TEXT, 0x407c0c0a, "FDO", FOLIO_NOTE_TEXT};

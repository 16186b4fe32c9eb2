import CFFmpeg
import FolioCore
import FolioImaging
import Foundation

extension VideoFile {
    /// How the published MP4 was made.
    public enum RenditionWay: String, Sendable {
        /// The original's own H.264 and AAC, put in a fresh MP4 without its metadata.
        case remuxed
        /// Decoded and encoded again: H.264 (libx264) and AAC.
        case transcoded
    }

    /// Whether the published MP4 can carry the original's own streams: H.264 in 4:2:0 (what
    /// every browser plays) with square pixels, AAC or no sound, and no taller than `maxHeight`.
    public func playsOnTheWeb(maxHeight: Int) -> Bool {
        guard let stream = context.pointee.streams[Int(videoIndex)] else { return false }
        let parameters = stream.pointee.codecpar.pointee
        let format = AVPixelFormat(rawValue: parameters.format)
        return parameters.codec_id == AV_CODEC_ID_H264 && (format == AV_PIX_FMT_YUV420P || format == AV_PIX_FMT_YUVJ420P)
            && Int(parameters.width) == squareFrameSize.width
            && min(metadata.width, metadata.height) <= maxHeight
            && (metadata.audioCodec == nil || metadata.audioCodec == "aac")
    }

    /// The size frames are encoded at, as stored (not turned) but with square pixels: the upright
    /// picture's shorter side at most `maxHeight` (a portrait clip is as sharp as a landscape
    /// one), both sides even.
    func encodedSize(maxHeight: Int) -> (width: Int, height: Int) {
        let (width, height) = squareFrameSize
        let scale = min(1, Double(maxHeight) / Double(min(width, height)))
        func even(_ value: Double) -> Int { max(2, Int((value / 2).rounded()) * 2) }
        return (even(Double(width) * scale), even(Double(height) * scale))
    }

    /// Writes the web rendition to `url`: the original's streams remuxed when the web plays them
    /// as they are, else decoded by `threads` threads and encoded to H.264/AAC. No metadata of the
    /// original (place, dates, device) goes with it; only the display matrix does, so it plays
    /// upright. `progress` hears the share done (0...1) now and then.
    @discardableResult
    public func writeRendition(to url: URL, maxHeight: Int, threads: Int, progress: (Double) -> Void = { _ in }) throws -> RenditionWay {
        let way: RenditionWay = playsOnTheWeb(maxHeight: maxHeight) ? .remuxed : .transcoded
        rewind()
        let writer = try RenditionWriter(file: self, url: url, way: way, maxHeight: maxHeight, threads: threads)
        try writer.run(progress: progress)
        return way
    }
}

/// One rendition being written: the input's decoders, the output's encoders and streams.
/// Everything FFmpeg allocates is freed in `deinit`, whatever failed.
private final class RenditionWriter {
    let file: VideoFile
    let way: VideoFile.RenditionWay
    /// Where the MP4 is written.
    let url: URL
    var output: UnsafeMutablePointer<AVFormatContext>?
    var video: Track
    var audio: Track?
    var packet: UnsafeMutablePointer<AVPacket>? = av_packet_alloc()
    var frame: UnsafeMutablePointer<AVFrame>? = av_frame_alloc()

    /// One input stream and what becomes of it.
    final class Track {
        let inputIndex: Int32
        let input: UnsafeMutablePointer<AVStream>
        var outputStream: UnsafeMutablePointer<AVStream>?
        var decoder: UnsafeMutablePointer<AVCodecContext>?
        var encoder: UnsafeMutablePointer<AVCodecContext>?
        var scaler: OpaquePointer?
        var resampler: OpaquePointer?
        var fifo: OpaquePointer?
        var converted: UnsafeMutablePointer<AVFrame>?
        /// Audio samples sent to the encoder: the next frame's timestamp.
        var samples: Int64 = 0

        init(index: Int32, stream: UnsafeMutablePointer<AVStream>) {
            inputIndex = index
            input = stream
        }

        deinit {
            avcodec_free_context(&decoder)
            avcodec_free_context(&encoder)
            if let scaler { sws_freeContext(scaler) }
            swr_free(&resampler)
            if let fifo { av_audio_fifo_free(fifo) }
            av_frame_free(&converted)
        }
    }

    init(file: VideoFile, url: URL, way: VideoFile.RenditionWay, maxHeight: Int, threads: Int) throws {
        self.file = file
        self.way = way
        self.url = url
        guard let videoStream = file.context.pointee.streams[Int(file.videoIndex)] else { throw Self.failure("no video stream") }
        video = Track(index: file.videoIndex, stream: videoStream)
        if let index = file.audioIndex, let stream = file.context.pointee.streams[Int(index)] {
            audio = Track(index: index, stream: stream)
        }
        // Named: moving the index to the front (faststart) opens the file again by its name.
        guard avformat_alloc_output_context2(&output, nil, "mp4", url.path) >= 0, let output, packet != nil, frame != nil else {
            throw Self.failure("out of memory")
        }
        // Nothing of the original's metadata, and no encoder version in the bytes: the same
        // video makes the same file on every machine.
        output.pointee.flags |= AVFMT_FLAG_BITEXACT
        try addVideo(to: output, maxHeight: maxHeight, threads: threads)
        if audio != nil {
            do {
                try addAudio(to: output)
            } catch {
                // Sound that cannot be decoded leaves a silent video, not none.
                audio = nil
            }
        }
        let opened = avio_open(&output.pointee.pb, url.path, AVIO_FLAG_WRITE)
        guard opened >= 0 else { throw writing(opened, "cannot write \(url.lastPathComponent): \(VideoFile.message(opened))") }
        var options: OpaquePointer?
        // The index first, so a browser starts playing before the whole file is in.
        av_dict_set(&options, "movflags", "+faststart", 0)
        let written = avformat_write_header(output, &options)
        av_dict_free(&options)
        guard written >= 0 else { throw writing(written, "cannot start the MP4 (\(VideoFile.message(written)))") }
    }

    /// A write of the MP4 that failed: the disk's failure where FFmpeg passes on one (full,
    /// read-only, an I/O error), which stops the build; else the video's own.
    private func writing(_ code: Int32, _ detail: String) -> any Error {
        let number = -code
        return [ENOSPC, EDQUOT, EIO, EROFS, EMFILE, ENFILE].contains(number) ? DiskFailure(number, url.path) : Self.failure(detail)
    }

    deinit {
        if let output {
            if output.pointee.pb != nil { avio_closep(&output.pointee.pb) }
            avformat_free_context(output)
        }
        av_packet_free(&packet)
        av_frame_free(&frame)
    }

    /// The H.264 encoder's threads, whatever the machine (the decoder's follow `threads`).
    static let encoderThreads = 4

    static func failure(_ detail: String) -> ImagingError {
        ImagingError(reason: "cannot make its web video (\(detail))")
    }

    private func addVideo(to output: UnsafeMutablePointer<AVFormatContext>, maxHeight: Int, threads: Int) throws {
        guard let stream = avformat_new_stream(output, nil) else { throw Self.failure("out of memory") }
        video.outputStream = stream
        let rotation = Double(file.metadata.rotation)
        if way == .remuxed {
            avcodec_parameters_copy(stream.pointee.codecpar, video.input.pointee.codecpar)
            stream.pointee.codecpar.pointee.codec_tag = 0
            stream.pointee.time_base = video.input.pointee.time_base
        } else {
            video.decoder = try Self.openDecoder(video.input, threads: threads)
            guard let codec = avcodec_find_encoder_by_name("libx264") ?? avcodec_find_encoder(AV_CODEC_ID_H264),
                  let encoder = avcodec_alloc_context3(codec) else { throw Self.failure("no H.264 encoder") }
            video.encoder = encoder
            let size = file.encodedSize(maxHeight: maxHeight)
            encoder.pointee.width = Int32(size.width)
            encoder.pointee.height = Int32(size.height)
            encoder.pointee.pix_fmt = AV_PIX_FMT_YUV420P
            encoder.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
            let rate = av_guess_frame_rate(file.context, video.input, nil)
            encoder.pointee.framerate = rate.num > 0 && rate.den > 0 ? rate : AVRational(num: 30, den: 1)
            encoder.pointee.time_base = video.input.pointee.time_base
            // x264's output depends on its thread count: a fixed count makes the same bytes on
            // every machine, so a shard's web video is the one a single build would make.
            encoder.pointee.thread_count = Int32(Self.encoderThreads)
            if output.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
                encoder.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
            }
            var options: OpaquePointer?
            av_dict_set(&options, "preset", "veryfast", 0)
            av_dict_set(&options, "crf", "23", 0)
            av_dict_set(&options, "profile", "high", 0)
            // x264's AVX-512 macroblock-tree pass takes a row eight macroblocks at a time and,
            // where the width is no multiple of eight, counts lanes past the row's end, read from
            // padding it never wrote: what earlier work left in that memory reached the video.
            // CPU-independent, x264 does that pass in C, which stops at the row's end, and makes
            // the same bytes on every processor.
            av_dict_set(&options, "x264-params", "cpu-independent=1", 0)
            let opened = avcodec_open2(encoder, codec, &options)
            av_dict_free(&options)
            guard opened >= 0 else { throw Self.failure("the H.264 encoder refused \(size.width)x\(size.height): \(VideoFile.message(opened))") }
            avcodec_parameters_from_context(stream.pointee.codecpar, encoder)
            stream.pointee.time_base = encoder.pointee.time_base
        }
        if rotation != 0 { _ = folio_stream_set_rotation(stream, rotation) }
    }

    private func addAudio(to output: UnsafeMutablePointer<AVFormatContext>) throws {
        guard let audio, let stream = avformat_new_stream(output, nil) else { throw Self.failure("out of memory") }
        audio.outputStream = stream
        if way == .remuxed {
            avcodec_parameters_copy(stream.pointee.codecpar, audio.input.pointee.codecpar)
            stream.pointee.codecpar.pointee.codec_tag = 0
            stream.pointee.time_base = audio.input.pointee.time_base
            return
        }
        audio.decoder = try Self.openDecoder(audio.input, threads: 1)
        guard let decoder = audio.decoder, let codec = avcodec_find_encoder(AV_CODEC_ID_AAC),
              let encoder = avcodec_alloc_context3(codec) else { throw Self.failure("no AAC encoder") }
        audio.encoder = encoder
        _ = folio_set_stereo(&encoder.pointee.ch_layout)
        let rate = decoder.pointee.sample_rate
        encoder.pointee.sample_rate = [44_100, 48_000].contains(rate) ? rate : 48_000
        encoder.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        encoder.pointee.bit_rate = 160_000
        encoder.pointee.time_base = AVRational(num: 1, den: encoder.pointee.sample_rate)
        if output.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            encoder.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        let opened = avcodec_open2(encoder, codec, nil)
        guard opened >= 0 else { throw Self.failure("the AAC encoder refused the sound: \(VideoFile.message(opened))") }
        avcodec_parameters_from_context(stream.pointee.codecpar, encoder)
        stream.pointee.time_base = encoder.pointee.time_base
        var inputLayout = decoder.pointee.ch_layout
        if inputLayout.nb_channels == 0 || av_channel_layout_check(&inputLayout) == 0 {
            av_channel_layout_default(&inputLayout, max(1, decoder.pointee.ch_layout.nb_channels))
        }
        guard swr_alloc_set_opts2(&audio.resampler, &encoder.pointee.ch_layout, encoder.pointee.sample_fmt, encoder.pointee.sample_rate,
                                  &inputLayout, decoder.pointee.sample_fmt, decoder.pointee.sample_rate, 0, nil) >= 0,
              swr_init(audio.resampler) >= 0,
              let fifo = av_audio_fifo_alloc(encoder.pointee.sample_fmt, encoder.pointee.ch_layout.nb_channels, 1)
        else { throw Self.failure("cannot resample the sound") }
        audio.fifo = fifo
    }

    static func openDecoder(_ stream: UnsafeMutablePointer<AVStream>, threads: Int) throws -> UnsafeMutablePointer<AVCodecContext> {
        guard let codec = avcodec_find_decoder(stream.pointee.codecpar.pointee.codec_id),
              let decoder = avcodec_alloc_context3(codec) else { throw failure("no decoder for its codec") }
        var owned: UnsafeMutablePointer<AVCodecContext>? = decoder
        guard avcodec_parameters_to_context(decoder, stream.pointee.codecpar) >= 0 else {
            avcodec_free_context(&owned)
            throw failure("its codec parameters are damaged")
        }
        decoder.pointee.thread_count = Int32(max(1, threads))
        decoder.pointee.pkt_timebase = stream.pointee.time_base
        let opened = avcodec_open2(decoder, codec, nil)
        guard opened >= 0 else {
            avcodec_free_context(&owned)
            throw failure("cannot decode it: \(VideoFile.message(opened))")
        }
        return decoder
    }

    func run(progress: (Double) -> Void) throws {
        guard let packet, let output else { return }
        let duration = max(file.metadata.duration, 0.001)
        var lastReported = -1.0
        while true {
            let read = av_read_frame(file.context, packet)
            if read == folio_av_eof() { break }
            // A truncated file ends early: what was read is published, as players would play it.
            if read < 0 { break }
            defer { av_packet_unref(packet) }
            let track: Track
            if packet.pointee.stream_index == video.inputIndex {
                track = video
            } else if let audio, packet.pointee.stream_index == audio.inputIndex {
                track = audio
            } else {
                continue
            }
            if packet.pointee.pts != folio_av_nopts() {
                let seconds = Double(packet.pointee.pts) * av_q2d(track.input.pointee.time_base)
                let share = min(1, max(0, seconds / duration))
                if share - lastReported >= 0.01 {
                    lastReported = share
                    progress(share)
                }
            }
            if track.decoder == nil {
                try copy(packet, track)
            } else {
                try decode(packet, track)
            }
        }
        for track in [video] + (audio.map { [$0] } ?? []) where track.decoder != nil {
            try decode(nil, track)
            if track === audio { try flushAudio(track) }
            try encode(nil, track)
        }
        let trailer = av_write_trailer(output)
        guard trailer >= 0 else { throw writing(trailer, "cannot finish the MP4 (\(VideoFile.message(trailer)))") }
        // Closed here, not in deinit: the last of the file is written at its close, and a
        // failure there is a file cut short.
        let closed = avio_closep(&output.pointee.pb)
        guard closed >= 0 else { throw writing(closed, "cannot finish the MP4 (\(VideoFile.message(closed)))") }
        progress(1)
    }

    private func copy(_ packet: UnsafeMutablePointer<AVPacket>, _ track: Track) throws {
        guard let stream = track.outputStream else { return }
        av_packet_rescale_ts(packet, track.input.pointee.time_base, stream.pointee.time_base)
        packet.pointee.stream_index = stream.pointee.index
        packet.pointee.pos = -1
        let written = av_interleaved_write_frame(output, packet)
        guard written >= 0 else { throw writing(written, "cannot write a packet (\(VideoFile.message(written)))") }
    }

    /// Sends `packet` (nil: the end) to the track's decoder and encodes every frame it gives.
    private func decode(_ packet: UnsafeMutablePointer<AVPacket>?, _ track: Track) throws {
        guard let decoder = track.decoder, let frame else { return }
        let sent = avcodec_send_packet(decoder, packet)
        // A damaged packet is skipped, as players skip it.
        if sent < 0 && sent != folio_av_eof() && sent != folio_av_eagain() { return }
        while true {
            let received = avcodec_receive_frame(decoder, frame)
            if received == folio_av_eagain() || received == folio_av_eof() { return }
            guard received >= 0 else { return }
            defer { av_frame_unref(frame) }
            if track === video {
                try encodeVideo(frame)
            } else {
                try resample(frame, track)
            }
        }
    }

    private func encodeVideo(_ decoded: UnsafeMutablePointer<AVFrame>) throws {
        guard let encoder = video.encoder else { return }
        if video.converted == nil {
            video.converted = av_frame_alloc()
            guard let converted = video.converted else { throw Self.failure("out of memory") }
            converted.pointee.width = encoder.pointee.width
            converted.pointee.height = encoder.pointee.height
            converted.pointee.format = AV_PIX_FMT_YUV420P.rawValue
            guard av_frame_get_buffer(converted, 0) >= 0 else { throw Self.failure("out of memory") }
        }
        guard let converted = video.converted else { return }
        video.scaler = sws_getCachedContext(video.scaler, decoded.pointee.width, decoded.pointee.height,
                                            AVPixelFormat(rawValue: decoded.pointee.format),
                                            encoder.pointee.width, encoder.pointee.height, AV_PIX_FMT_YUV420P,
                                            Int32(SWS_BICUBIC), nil, nil, nil)
        guard let scaler = video.scaler else { throw Self.failure("cannot scale a \(decoded.pointee.width)x\(decoded.pointee.height) frame") }
        guard av_frame_make_writable(converted) >= 0 else { throw Self.failure("out of memory") }
        let scaled = sws_scale_frame(scaler, converted, decoded)
        guard scaled >= 0 else { throw Self.failure("cannot scale a frame (\(VideoFile.message(scaled)))") }
        converted.pointee.pts = decoded.pointee.best_effort_timestamp
        converted.pointee.pict_type = AV_PICTURE_TYPE_NONE
        try encode(converted, video)
    }

    private func resample(_ decoded: UnsafeMutablePointer<AVFrame>?, _ track: Track) throws {
        guard let encoder = track.encoder, let fifo = track.fifo, let resampler = track.resampler else { return }
        var converted: UnsafeMutablePointer<AVFrame>? = av_frame_alloc()
        defer { av_frame_free(&converted) }
        guard let converted else { throw Self.failure("out of memory") }
        _ = av_channel_layout_copy(&converted.pointee.ch_layout, &encoder.pointee.ch_layout)
        converted.pointee.sample_rate = encoder.pointee.sample_rate
        converted.pointee.format = encoder.pointee.sample_fmt.rawValue
        // A frame whose layout changed mid-stream is dropped, not a reason to fail the video.
        guard swr_convert_frame(resampler, converted, decoded) >= 0 else { return }
        if converted.pointee.nb_samples > 0 {
            let pointers = UnsafeMutableRawPointer(converted.pointee.extended_data).map { UnsafeMutablePointer<UnsafeMutableRawPointer?>(OpaquePointer($0)) }
            guard av_audio_fifo_write(fifo, pointers, converted.pointee.nb_samples) >= 0 else { throw Self.failure("out of memory") }
        }
        try drainFifo(track, final: false)
    }

    private func flushAudio(_ track: Track) throws {
        try resample(nil, track)
        try drainFifo(track, final: true)
    }

    /// Encodes the sound waiting in the FIFO in frames of the encoder's size; the last,
    /// shorter one only at the end.
    private func drainFifo(_ track: Track, final: Bool) throws {
        guard let encoder = track.encoder, let fifo = track.fifo else { return }
        let size = encoder.pointee.frame_size > 0 ? encoder.pointee.frame_size : 1024
        while av_audio_fifo_size(fifo) >= size || (final && av_audio_fifo_size(fifo) > 0) {
            let count = min(size, av_audio_fifo_size(fifo))
            var out: UnsafeMutablePointer<AVFrame>? = av_frame_alloc()
            defer { av_frame_free(&out) }
            guard let out else { throw Self.failure("out of memory") }
            out.pointee.nb_samples = count
            _ = av_channel_layout_copy(&out.pointee.ch_layout, &encoder.pointee.ch_layout)
            out.pointee.format = encoder.pointee.sample_fmt.rawValue
            out.pointee.sample_rate = encoder.pointee.sample_rate
            guard av_frame_get_buffer(out, 0) >= 0 else { throw Self.failure("out of memory") }
            let pointers = UnsafeMutableRawPointer(out.pointee.extended_data).map { UnsafeMutablePointer<UnsafeMutableRawPointer?>(OpaquePointer($0)) }
            guard av_audio_fifo_read(fifo, pointers, count) == count else { throw Self.failure("lost sound") }
            out.pointee.pts = track.samples
            track.samples += Int64(count)
            try encode(out, track)
        }
    }

    /// Sends `frame` (nil: the end) to the track's encoder and writes every packet it gives.
    private func encode(_ frame: UnsafeMutablePointer<AVFrame>?, _ track: Track) throws {
        guard let encoder = track.encoder, let stream = track.outputStream else { return }
        let sent = avcodec_send_frame(encoder, frame)
        guard sent >= 0 || sent == folio_av_eof() else { throw Self.failure("the encoder failed (\(VideoFile.message(sent)))") }
        // The packet is this writer's; the one being read may still be in use by the caller.
        var encoded: UnsafeMutablePointer<AVPacket>? = av_packet_alloc()
        defer { av_packet_free(&encoded) }
        guard let encoded else { throw Self.failure("out of memory") }
        while true {
            let received = avcodec_receive_packet(encoder, encoded)
            if received == folio_av_eagain() || received == folio_av_eof() { return }
            guard received >= 0 else { throw Self.failure("the encoder failed (\(VideoFile.message(received)))") }
            av_packet_rescale_ts(encoded, encoder.pointee.time_base, stream.pointee.time_base)
            encoded.pointee.stream_index = stream.pointee.index
            let written = av_interleaved_write_frame(output, encoded)
            guard written >= 0 else { throw writing(written, "cannot write a packet (\(VideoFile.message(written)))") }
        }
    }
}

import CFFmpeg
import FolioImaging
import Foundation

extension VideoFile {
    /// How many frames from the start the poster is looked for in: a fade from black is over by
    /// then in any clip a camera makes.
    static let posterCandidates = 90

    /// The video's poster: the first frame that is not near-uniform (a fade from black, a lens
    /// cap), upright by the display matrix; the liveliest of the first frames when none is.
    public func poster() throws -> PixelBuffer {
        var best: (frame: PixelBuffer, spread: Double)?
        try decodeFrames(limit: Self.posterCandidates) { frame in
            let spread = Self.lumaSpread(frame)
            if best == nil || spread > best!.spread { best = (frame, spread) }
            // Spread of grey levels out of 255: a black or flat frame has almost none.
            return spread < 12
        }
        guard let best else { throw ImagingError(reason: "corrupt or truncated video (no frame could be decoded)") }
        return best.frame.oriented(ImageOrientation(exif: metadata.orientation))
    }

    /// Decodes frames of the video stream as stored (not turned), handing each to `body` until it
    /// returns false or `limit` frames were seen.
    func decodeFrames(limit: Int, _ body: (PixelBuffer) throws -> Bool) throws {
        guard let stream = context.pointee.streams[Int(videoIndex)], let codec = avcodec_find_decoder(stream.pointee.codecpar.pointee.codec_id)
        else { throw ImagingError(reason: "its video cannot be decoded here") }
        var decoder: UnsafeMutablePointer<AVCodecContext>? = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&decoder) }
        guard let decoder, avcodec_parameters_to_context(decoder, stream.pointee.codecpar) >= 0 else {
            throw ImagingError(reason: "its video cannot be decoded here")
        }
        decoder.pointee.thread_count = 1
        let openResult = avcodec_open2(decoder, codec, nil)
        guard openResult >= 0 else { throw ImagingError(reason: "its video cannot be decoded (\(Self.message(openResult)))") }
        rewind()
        var packet: UnsafeMutablePointer<AVPacket>? = av_packet_alloc()
        var frame: UnsafeMutablePointer<AVFrame>? = av_frame_alloc()
        defer {
            av_packet_free(&packet)
            av_frame_free(&frame)
        }
        guard let packet, let frame else { throw ImagingError(reason: "out of memory decoding the video") }
        var seen = 0
        var draining = false
        var packetsRead = 0
        while seen < limit {
            // Frames out first; a packet in only when the decoder asks for more.
            let received = avcodec_receive_frame(decoder, frame)
            if received >= 0 {
                defer { av_frame_unref(frame) }
                seen += 1
                guard try body(try Self.pixels(of: frame, width: squareFrameSize.width, height: squareFrameSize.height)) else { return }
                continue
            }
            if received == folio_av_eof() { return }
            guard received == folio_av_eagain() else {
                throw ImagingError(reason: "corrupt or truncated video (\(Self.message(received)))")
            }
            if draining { return }
            // A stream of packets none of which gives a frame is damage, not a long intro.
            packetsRead += 1
            guard packetsRead < 20 * Self.posterCandidates + 500 else { return }
            let read = av_read_frame(context, packet)
            if read < 0 {
                draining = true
                avcodec_send_packet(decoder, nil)
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == videoIndex else { continue }
            let sent = avcodec_send_packet(decoder, packet)
            // A damaged packet is skipped, as players do; the frames after it may decode.
            if sent < 0, sent != folio_av_eagain(), sent != folio_av_invalid() {
                throw ImagingError(reason: "corrupt or truncated video (\(Self.message(sent)))")
            }
        }
    }

    /// A decoded frame as Folio's pixels (BGRX words) of `width`x`height` (its own size, but for
    /// pixels that are not square), through libswscale.
    static func pixels(of frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int) throws -> PixelBuffer {
        guard frame.pointee.width > 0, frame.pointee.height > 0, width > 0, height > 0, width <= 32_768, height <= 32_768,
              let scaler = sws_getContext(frame.pointee.width, frame.pointee.height, AVPixelFormat(rawValue: frame.pointee.format),
                                          Int32(width), Int32(height), AV_PIX_FMT_BGR0,
                                          Int32(SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT), nil, nil, nil)
        else { throw ImagingError(reason: "corrupt video frame (\(frame.pointee.width)x\(frame.pointee.height))") }
        defer { sws_freeContext(scaler) }
        var failed = false
        let buffer = PixelBuffer(width: width, height: height) { words in
            var target: [UnsafeMutablePointer<UInt8>?] = [UnsafeMutableRawPointer(words).assumingMemoryBound(to: UInt8.self), nil, nil, nil]
            var strides: [Int32] = [Int32(width * 4), 0, 0, 0]
            let sources = withUnsafeBytes(of: frame.pointee.data) { Array($0.bindMemory(to: UnsafePointer<UInt8>?.self)) }
            let sourceStrides = withUnsafeBytes(of: frame.pointee.linesize) { Array($0.bindMemory(to: Int32.self)) }
            let rows = sws_scale(scaler, sources, sourceStrides, 0, frame.pointee.height, &target, &strides)
            if rows != frame.pointee.height {
                failed = true
                words.initialize(repeating: 0, count: width * height)
            }
        }
        if failed { throw ImagingError(reason: "corrupt video frame (it would not convert)") }
        return buffer
    }

    /// The standard deviation of a frame's brightness, sampled on a grid: what tells a picture
    /// from a black or flat frame.
    static func lumaSpread(_ pixels: PixelBuffer) -> Double {
        let stepX = max(1, pixels.width / 48), stepY = max(1, pixels.height / 48)
        var sum = 0.0, squares = 0.0, count = 0.0
        for y in stride(from: 0, to: pixels.height, by: stepY) {
            for x in stride(from: 0, to: pixels.width, by: stepX) {
                let word = pixels.words[y * pixels.width + x]
                let luma = 0.299 * Double((word >> 16) & 0xFF) + 0.587 * Double((word >> 8) & 0xFF) + 0.114 * Double(word & 0xFF)
                sum += luma
                squares += luma * luma
                count += 1
            }
        }
        let mean = sum / count
        return (max(0, squares / count - mean * mean)).squareRoot()
    }
}

import CFFmpeg
import FolioCore
import FolioImaging
import Foundation

/// A video container opened by libavformat: the only code that touches FFmpeg's libraries
/// (this file and its extensions, `+Poster` and `+Rendition`). Bytes reach libavformat through
/// Folio's own reader (a file read by offset, or bytes in memory), never through FFmpeg's
/// protocols, and only the demuxers of camera and web formats may read them: a file that
/// calls itself a playlist or a concat list opens nothing else. Frees everything in `deinit`.
public final class VideoFile {
    /// Longer than this is not a clip anyone means to publish: a header claiming days is a bomb.
    public static let durationLimit: Double = 6 * 3600

    let context: UnsafeMutablePointer<AVFormatContext>
    private let io: UnsafeMutablePointer<AVIOContext>
    private let source: Unmanaged<ByteSource>
    /// The index of the video stream shown, and of the audio stream played with it.
    let videoIndex: Int32
    let audioIndex: Int32?
    public let metadata: VideoMetadata

    /// Opens `url` and reads what the container says. Throws `ImagingError` with a reason a
    /// gallery owner can act on; `pixelLimit` refuses absurd frame sizes before any decode.
    public convenience init(url: URL, pixelLimit: Int = 100_000_000) throws {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ImagingError(reason: "cannot be read: \(String(cString: strerror(errno)))") }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            close(descriptor)
            throw ImagingError(reason: "cannot be read: \(String(cString: strerror(errno)))")
        }
        try self.init(source: ByteSource(descriptor: descriptor, size: Int64(info.st_size)), pixelLimit: pixelLimit)
    }

    /// The same for a video held in memory (tests, fuzzing).
    public convenience init(data: Data, pixelLimit: Int = 100_000_000) throws {
        try self.init(source: ByteSource(data: data), pixelLimit: pixelLimit)
    }

    private init(source byteSource: ByteSource, pixelLimit: Int) throws {
        // FFmpeg's libraries are opened by the first video a run meets, not by every run.
        if let failure = folio_ffmpeg_load() {
            throw ImagingError(reason: "cannot be read here: FFmpeg's libraries would not load (\(String(cString: failure)))")
        }
        Self.quietLibraries
        guard byteSource.size > 0 else { throw ImagingError(reason: "not a video (empty file)") }
        let bufferSize = 1 << 16
        guard let buffer = av_malloc(bufferSize) else { throw ImagingError(reason: "out of memory opening the video") }
        let source = Unmanaged.passRetained(byteSource)
        guard let io = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Int32(bufferSize), 0, source.toOpaque(),
                                          { opaque, buffer, size in
                                              Unmanaged<ByteSource>.fromOpaque(opaque!).takeUnretainedValue().read(into: buffer!, count: size)
                                          }, nil,
                                          { opaque, offset, whence in
                                              Unmanaged<ByteSource>.fromOpaque(opaque!).takeUnretainedValue().seek(offset, whence: whence)
                                          })
        else {
            av_free(buffer)
            source.release()
            throw ImagingError(reason: "out of memory opening the video")
        }
        var context: UnsafeMutablePointer<AVFormatContext>? = avformat_alloc_context()
        func freeIO() {
            var io: UnsafeMutablePointer<AVIOContext>? = io
            av_freep(&io!.pointee.buffer)
            avio_context_free(&io)
            source.release()
        }
        guard let allocated = context else {
            freeIO()
            throw ImagingError(reason: "out of memory opening the video")
        }
        allocated.pointee.pb = io
        var options: OpaquePointer?
        av_dict_set(&options, "format_whitelist", Self.demuxers, 0)
        av_dict_set(&options, "protocol_whitelist", "none", 0)
        let opened = avformat_open_input(&context, nil, nil, &options)
        av_dict_free(&options)
        guard opened >= 0, let context else {
            // avformat_open_input frees the context it was given when it fails.
            freeIO()
            throw ImagingError(reason: "not a video Folio can read (\(Self.message(opened)))")
        }
        self.context = context
        self.io = io
        self.source = source
        // From here on deinit frees it all.
        var found: (video: Int32, audio: Int32?, metadata: VideoMetadata)?
        var failure: ImagingError?
        do {
            found = try Self.probe(context, pixelLimit: pixelLimit)
        } catch let error as ImagingError {
            failure = error
        } catch {
            failure = ImagingError(reason: "\(error)")
        }
        videoIndex = found?.video ?? -1
        audioIndex = found?.audio
        metadata = found?.metadata ?? VideoMetadata(width: 0, height: 0, duration: 0, videoCodec: "")
        if let failure { throw failure }
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&context)
        var io: UnsafeMutablePointer<AVIOContext>? = io
        av_freep(&io!.pointee.buffer)
        avio_context_free(&io)
        source.release()
    }

    /// Back to the first packet, so the poster and the web video each read the whole file
    /// whatever was read before.
    func rewind() {
        if avformat_seek_file(context, -1, Int64.min, 0, 0, 0) < 0 {
            _ = av_seek_frame(context, -1, 0, AVSEEK_FLAG_BACKWARD | AVSEEK_FLAG_BYTE)
        }
    }

    /// The demuxers of what cameras, phones and the web write (libavformat names, as its
    /// whitelist matches them).
    static let demuxers = "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,ogg,avi,mpegts,mpeg,asf,flv"

    /// FFmpeg logs to stderr by default; Folio says what went wrong itself, once, naming the file.
    private static let quietLibraries: Void = av_log_set_level(AV_LOG_QUIET)

    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func probe(_ context: UnsafeMutablePointer<AVFormatContext>, pixelLimit: Int) throws
        -> (video: Int32, audio: Int32?, metadata: VideoMetadata) {
        let info = avformat_find_stream_info(context, nil)
        guard info >= 0 else { throw ImagingError(reason: "corrupt or truncated video (\(message(info)))") }
        var videoIndex: Int32 = -1
        for index in 0..<Int(context.pointee.nb_streams) {
            guard let stream = context.pointee.streams[index] else { continue }
            // A cover picture attached to the file is not its video.
            if stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO,
               stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 {
                videoIndex = Int32(index)
                break
            }
        }
        guard videoIndex >= 0, let stream = context.pointee.streams[Int(videoIndex)] else {
            throw ImagingError(reason: "has no video stream")
        }
        let parameters = stream.pointee.codecpar.pointee
        // A camcorder's anamorphic frame (HDV's 1440x1080 shown 1920x1080) is as wide as its pixels' shape says.
        let storedHeight = Int(parameters.height)
        let storedWidth = Self.shownWidth(Int(parameters.width), aspect: av_guess_sample_aspect_ratio(context, stream, nil))
        guard storedWidth > 0, storedHeight > 0 else {
            throw ImagingError(reason: "corrupt or truncated video (no frame size)")
        }
        guard storedWidth <= 32_768, storedHeight <= 32_768, storedWidth * storedHeight <= pixelLimit else {
            throw ImagingError(reason: "\(storedWidth)x\(storedHeight) pixels is over the limit of \(pixelLimit)")
        }
        guard avcodec_find_decoder(parameters.codec_id) != nil else {
            throw ImagingError(reason: "its video codec (\(String(cString: avcodec_get_name(parameters.codec_id)))) cannot be decoded here")
        }
        let audio = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, videoIndex, nil, 0)
        let duration = Self.duration(context, stream: stream)
        guard duration <= durationLimit else {
            throw ImagingError(reason: "claims to last \(Int(duration / 3600)) hours, over the limit of \(Int(durationLimit / 3600))")
        }
        let rotation = VideoMetadata.clockwiseQuarterTurns(fromCounterClockwise: folio_stream_rotation(stream))
        let turned = rotation == 90 || rotation == 270
        func tag(_ keys: [String]) -> String? {
            for dictionary in [context.pointee.metadata, stream.pointee.metadata] {
                for key in keys {
                    if let entry = av_dict_get(dictionary, key, nil, 0), let value = entry.pointee.value {
                        let text = String(cString: value).trimmingCharacters(in: .whitespacesAndNewlines)
                        if !text.isEmpty { return text }
                    }
                }
            }
            return nil
        }
        let place = tag(["com.apple.quicktime.location.ISO6709", "location", "location-eng"]).flatMap(ISO6709.coordinates)
        let make = tag(["com.apple.quicktime.make", "make"]), model = tag(["com.apple.quicktime.model", "model"])
        // "Apple iPhone 12"; a model that already names its make stands alone.
        let camera = (model.flatMap { model in make.map { model.hasPrefix($0) } == true ? model : nil })
            ?? [make, model].compactMap { $0 }.joined(separator: " ")
        var audioCodec: String?
        if audio >= 0, let audioStream = context.pointee.streams[Int(audio)] {
            audioCodec = String(cString: avcodec_get_name(audioStream.pointee.codecpar.pointee.codec_id))
        }
        let metadata = VideoMetadata(
            width: turned ? storedHeight : storedWidth, height: turned ? storedWidth : storedHeight,
            duration: duration, rotation: rotation,
            taken: tag(["com.apple.quicktime.creationdate", "creation_time", "date"]).flatMap(LocalDateTime.date(from:)),
            latitude: place?.latitude, longitude: place?.longitude,
            title: tag(["com.apple.quicktime.title", "title"]),
            description: tag(["com.apple.quicktime.description", "description", "comment"]),
            camera: camera.isEmpty ? nil : camera,
            videoCodec: String(cString: avcodec_get_name(parameters.codec_id)), audioCodec: audioCodec)
        return (videoIndex, audio >= 0 ? audio : nil, metadata)
    }

    /// A frame's width as shown, its pixels made square: `width` unless their aspect is another
    /// (and a sane one: a header may claim anything).
    static func shownWidth(_ width: Int, aspect: AVRational) -> Int {
        guard aspect.num > 0, aspect.den > 0, aspect.num != aspect.den else { return width }
        let ratio = Double(aspect.num) / Double(aspect.den)
        guard (0.25...4).contains(ratio) else { return width }
        return max(2, Int((Double(width) * ratio / 2).rounded()) * 2)
    }

    /// The stored frame's size with square pixels: what frames are converted to.
    var squareFrameSize: (width: Int, height: Int) {
        metadata.rotation == 90 || metadata.rotation == 270 ? (metadata.height, metadata.width) : (metadata.width, metadata.height)
    }

    /// The container's duration, else the stream's; 0 when neither says.
    private static func duration(_ context: UnsafeMutablePointer<AVFormatContext>, stream: UnsafeMutablePointer<AVStream>) -> Double {
        if context.pointee.duration != folio_av_nopts(), context.pointee.duration > 0 {
            return Double(context.pointee.duration) / Double(AV_TIME_BASE)
        }
        let streamDuration = stream.pointee.duration
        if streamDuration != folio_av_nopts(), streamDuration > 0 {
            return Double(streamDuration) * av_q2d(stream.pointee.time_base)
        }
        return 0
    }
}

/// What libavformat reads the container from: a file by offset (a video may be gigabytes; it
/// is never read whole), or bytes in memory.
final class ByteSource {
    private let descriptor: Int32?
    private let data: Data?
    let size: Int64
    private var position: Int64 = 0

    init(descriptor: Int32, size: Int64) {
        self.descriptor = descriptor
        self.data = nil
        self.size = size
    }

    init(data: Data) {
        self.descriptor = nil
        self.data = data
        self.size = Int64(data.count)
    }

    deinit {
        if let descriptor { close(descriptor) }
    }

    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int32) -> Int32 {
        let wanted = Int(min(Int64(count), size - position))
        guard wanted > 0 else { return folio_av_eof() }
        let got: Int
        if let descriptor {
            got = pread(descriptor, buffer, wanted, off_t(position))
            guard got > 0 else { return got == 0 ? folio_av_eof() : -errno }
        } else {
            let start = data!.startIndex + Int(position)
            data!.copyBytes(to: buffer, from: start..<(start + wanted))
            got = wanted
        }
        position += Int64(got)
        return Int32(got)
    }

    func seek(_ offset: Int64, whence: Int32) -> Int64 {
        if whence & folio_av_seek_size() != 0 { return size }
        let target: Int64
        switch whence & ~Int32(AVSEEK_FORCE) {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        case SEEK_END: target = size + offset
        default: return -1
        }
        guard target >= 0 else { return -1 }
        position = target
        return target
    }
}

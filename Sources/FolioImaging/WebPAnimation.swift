import CWebP
import Foundation

/// The first frame of an animated WebP, through libwebp's animation decoder: the only Swift type
/// that calls libwebp directly (libgd's WebP reader takes stills only). It owns its decoder and
/// deletes it in `deinit`, and a copy of the file's bytes, which the decoder reads as it goes.
final class WebPAnimation {
    private let decoder: OpaquePointer
    private let bytes: UnsafeMutableRawBufferPointer

    init(_ data: Data) throws {
        var options = WebPAnimDecoderOptions()
        guard !data.isEmpty, folio_webp_anim_options_init(&options) != 0 else { throw ImagingError.corrupt(.webp) }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 16)
        bytes.copyBytes(from: data)
        guard let decoder = folio_webp_anim_decoder_new(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, &options)
        else {
            bytes.deallocate()
            throw ImagingError.corrupt(.webp, detail: "its animation cannot be read")
        }
        self.decoder = decoder
        self.bytes = bytes
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
        bytes.deallocate()
    }

    /// The canvas after the first frame, as its still: with its alpha (premultiplied, as
    /// PixelBuffer keeps it) when `alpha`, else composed onto white. A canvas over `limit`
    /// pixels is refused before any frame is decoded.
    func firstFrame(alpha: Bool, limit: Int) throws -> PixelBuffer {
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else { throw ImagingError.corrupt(.webp, detail: "no animation header") }
        let width = Int(info.canvas_width), height = Int(info.canvas_height)
        try ImageHeader(format: .webp, width: width, height: height).checkPixelLimit(limit)
        var frame: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0, WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0,
              let frame, width > 0, height > 0
        else { throw ImagingError.corrupt(.webp, detail: "its first frame cannot be decoded") }
        let pixels = PixelBuffer(width: width, height: height, alpha: true) { target in
            for index in 0..<(width * height) {
                let pixel = frame + index * 4
                target[index] = PixelBuffer.premultipliedWord(
                    red: UInt32(pixel[0]), green: UInt32(pixel[1]), blue: UInt32(pixel[2]), alpha: UInt32(pixel[3]))
            }
        }
        return alpha ? pixels : pixels.flattenedOntoWhite()
    }

    /// The animation as published: its RIFF chunks without EXIF and XMP, and the header's flags
    /// for them cleared; frames, timing, loop count, alpha and colour profile kept.
    static func publishable(_ data: Data) throws -> Data {
        let reader = ByteReader(data)
        guard reader.matches(ascii: "RIFF", at: 0), reader.matches(ascii: "WEBP", at: 8),
              reader.matches(ascii: "VP8X", at: 12) else { throw ImagingError.corrupt(.webp, detail: "not an animated WebP") }
        var body = Data("WEBP".utf8)
        var offset = 12
        while offset + 8 <= data.count, let size = reader.uint32LE(at: offset + 4) {
            let end = offset + 8 + size + (size & 1)
            guard end <= data.count, let type = reader.slice(at: offset, length: 4) else {
                throw ImagingError.corrupt(.webp, detail: "a chunk runs past the end of the file")
            }
            var chunk = Data(data[(data.startIndex + offset)..<(data.startIndex + end)])
            switch String(decoding: type, as: UTF8.self) {
            case "EXIF", "XMP ":
                break
            case "VP8X":
                chunk[8] &= ~UInt8(0x08 | 0x04)  // the EXIF and XMP flags
                body += chunk
            default:
                body += chunk
            }
            offset = end
        }
        let size = UInt32(body.count)
        return Data("RIFF".utf8) + Data([UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)]) + body
    }
}

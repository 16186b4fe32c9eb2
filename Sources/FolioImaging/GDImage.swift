import CGD
import Foundation

/// A libgd truecolor image. The only Swift type that calls libgd; it owns its gdImagePtr and
/// frees it when the last reference goes, so no error path can leak an image.
package final class GDImage {
    private let pointer: gdImagePtr
    /// Whether its alpha is worth writing: PNG and WebP files of opaque pictures carry none.
    private var keepsAlpha = false

    /// libgd prints decode problems to stderr from any thread; Folio reports them as errors
    /// instead, so the process-wide handler is replaced once, before the first libgd call.
    private static let silenced: Void = folio_gd_silence_errors()

    private init(adopting pointer: gdImagePtr) {
        self.pointer = pointer
    }

    deinit {
        gdImageDestroy(pointer)
    }

    /// A truecolor image, opaque black.
    convenience init(width: Int, height: Int) throws {
        _ = GDImage.silenced
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
              let pointer = gdImageCreateTrueColor(Int32(width), Int32(height))
        else { throw ImagingError(reason: "could not allocate a \(width)x\(height) image") }
        self.init(adopting: pointer)
    }

    var width: Int { Int(folio_gd_width(pointer)) }
    var height: Int { Int(folio_gd_height(pointer)) }

    // MARK: Decoding

    /// Decodes any format libgd reads, except HEIC. Folio decodes JPEG with TurboJPEG (scaled); the
    /// JPEG path here treats warnings as errors, so it can check published files independently.
    /// Transparency is composed onto white unless `keepingAlpha` (for renditions that keep it).
    package static func decode(_ data: Data, format: ImageFormat, keepingAlpha: Bool = false) throws -> GDImage {
        _ = GDImage.silenced
        // libgd 2.3.3 reads libheif's rows without their stride (libgd #788): HEIFDecoder decodes HEIC.
        guard format != .heic else { throw ImagingError(reason: "HEIC is decoded by libheif, not libgd") }
        guard format != .raw else { throw ImagingError(reason: "RAW files are developed by LibRaw, not libgd") }
        guard !data.isEmpty, data.count <= Int(Int32.max) else { throw ImagingError.corrupt(format) }
        if format == .tiff { _ = TIFFMessages.silenced }
        let decoded: gdImagePtr? = data.withUnsafeBytes { raw in
            // libgd takes a mutable pointer but only reads from it.
            let bytes = UnsafeMutableRawPointer(mutating: raw.baseAddress!)
            let size = Int32(raw.count)
            switch format {
            case .jpeg: return gdImageCreateFromJpegPtrEx(size, bytes, 0)
            case .png: return gdImageCreateFromPngPtr(size, bytes)
            case .gif: return gdImageCreateFromGifPtr(size, bytes)
            case .webp: return gdImageCreateFromWebpPtr(size, bytes)
            case .avif: return gdImageCreateFromAvifPtr(size, bytes)
            case .heic, .raw: return nil
            case .tiff: return gdImageCreateFromTiffPtr(size, bytes)
            }
        }
        guard let decoded else { throw ImagingError.corrupt(format) }
        let image = GDImage(adopting: decoded)
        if folio_gd_is_true_color(decoded) == 0, gdImagePaletteToTrueColor(decoded) == 0 {
            throw ImagingError(reason: "could not convert the \(format.rawValue.uppercased()) palette to truecolor")
        }
        if keepingAlpha { image.keepsAlpha = true } else { image.flattenOntoWhite() }
        return image
    }

    /// JPEG has no alpha, and a transparent pixel's colour is usually black underneath, so
    /// transparency is composed onto white once, right after decoding.
    private func flattenOntoWhite() {
        let width = self.width
        for y in 0..<height {
            let row = folio_gd_row(pointer, Int32(y))!
            for x in 0..<width {
                let pixel = row[x]
                let alpha = (pixel >> 24) & 0x7F  // 0 opaque ... 127 transparent
                if alpha == 0 { continue }
                func blend(_ channel: Int32) -> Int32 { channel + (255 - channel) * alpha / 127 }
                row[x] = folio_gd_true_color(blend((pixel >> 16) & 0xFF), blend((pixel >> 8) & 0xFF), blend(pixel & 0xFF))
            }
        }
    }

    /// Fills the image from 32-bit words laid out as 0x??RRGGBB in native byte order (what
    /// TurboJPEG writes for BGRX on little-endian machines). Whole rows go through a pointer:
    /// a libgd call per pixel would cost more than the JPEG decode itself.
    func copyPixels(fromXRGB words: UnsafeRawPointer, bytesPerRow: Int) {
        let width = self.width
        for y in 0..<height {
            let source = words + y * bytesPerRow
            let row = folio_gd_row(pointer, Int32(y))!
            // libgd keeps alpha in the top byte (0 = opaque); TurboJPEG fills X with 0xFF.
            for x in 0..<width {
                row[x] = Int32(bitPattern: source.load(fromByteOffset: x * 4, as: UInt32.self) & 0x00FF_FFFF)
            }
        }
    }

    // MARK: Pixels

    /// Whether any pixel is less than opaque.
    var isTransparent: Bool {
        for y in 0..<height {
            let row = folio_gd_row(pointer, Int32(y))!
            for x in 0..<width where row[x] >> 24 & 0x7F != 0 { return true }
        }
        return false
    }

    /// An image holding `pixels`: how a rendition reaches libgd's encoders; with their alpha,
    /// which the PNG and WebP writers keep.
    convenience init(pixels: PixelBuffer) throws {
        try self.init(width: pixels.width, height: pixels.height)
        guard pixels.alpha else {
            pixels.words.withUnsafeBytes { copyPixels(fromXRGB: $0.baseAddress!, bytesPerRow: pixels.width * 4) }
            return
        }
        gdImageAlphaBlending(pointer, 0)
        keepsAlpha = true
        for y in 0..<height {
            let row = folio_gd_row(pointer, Int32(y))!
            for x in 0..<width {
                let pixel = PixelBuffer.straight(pixels.words[y * width + x])
                // libgd's alpha is 7 bits, 0 opaque to 127 transparent.
                let clear = ((255 - pixel.alpha) * 127 + 127) / 255
                row[x] = Int32(bitPattern: clear << 24 | pixel.red << 16 | pixel.green << 8 | pixel.blue)
            }
        }
    }

    /// The image's pixels, for the steps between decoding and encoding; with its alpha
    /// (premultiplied, as PixelBuffer keeps it) when `alpha`.
    package func pixels(alpha: Bool = false) -> PixelBuffer {
        let width = self.width
        return PixelBuffer(width: width, height: height, alpha: alpha) { target in
            for y in 0..<height {
                let row = folio_gd_row(pointer, Int32(y))!
                // Opaque pictures, nearly all, take the plain copy: no test per pixel.
                guard alpha else {
                    for x in 0..<width { target[y * width + x] = UInt32(bitPattern: row[x]) & 0x00FF_FFFF }
                    continue
                }
                for x in 0..<width {
                    let word = UInt32(bitPattern: row[x])
                    let opacity = ((127 - min(word >> 24 & 0x7F, 127)) * 255 + 63) / 127
                    target[y * width + x] = PixelBuffer.premultipliedWord(
                        red: word >> 16 & 0xFF, green: word >> 8 & 0xFF, blue: word & 0xFF, alpha: opacity)
                }
            }
        }
    }

    // MARK: Encoding

    /// The image as a file: how WebP and AVIF renditions are written (JPEG goes through
    /// JPEGEncoder), and PNG and GIF for `ImageProcessor.encode`. libgd writes no EXIF, so
    /// nothing of the original's metadata (GPS above all) reaches a published file. AVIF is written
    /// at libavif's speed 9 of 10: nearly as small as at the slower speeds, in a fraction of their time.
    package func encoded(as format: ImageFormat, quality: Int) throws -> Data {
        // For WebP, 101 (gdWebpLossless) selects lossless encoding.
        let quality = Int32(min(max(quality, 1), format == .webp ? 101 : 100))
        gdImageSaveAlpha(pointer, keepsAlpha ? 1 : 0)
        var size: Int32 = 0
        let bytes: UnsafeMutableRawPointer?
        switch format {
        case .jpeg: bytes = gdImageJpegPtr(pointer, &size, quality)
        case .png: bytes = gdImagePngPtr(pointer, &size)
        case .gif: bytes = gdImageGifPtr(pointer, &size)
        case .webp: bytes = gdImageWebpPtrEx(pointer, &size, quality)
        case .avif: bytes = gdImageAvifPtrEx(pointer, &size, quality, 9)
        // For tests and tools that need a TIFF; Folio never publishes one.
        case .tiff: bytes = gdImageTiffPtr(pointer, &size)
        // Folio publishes no HEIC (browsers other than Safari do not show it), and writes no RAW.
        case .heic, .raw: bytes = nil
        }
        guard let bytes, size > 0 else {
            throw ImagingError(reason: "could not encode \(width)x\(height) pixels as \(format.rawValue.uppercased())")
        }
        defer { gdFree(bytes) }
        return Data(bytes: bytes, count: Int(size))
    }
}

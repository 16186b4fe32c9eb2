import CGD
import Foundation

/// A libgd truecolor image. The only Swift type that calls libgd; it owns its gdImagePtr and
/// frees it when the last reference goes, so no error path can leak an image.
final class GDImage {
    private let pointer: gdImagePtr

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

    /// Decodes any format libgd reads. Folio decodes JPEG with TurboJPEG (scaled); the JPEG path
    /// here treats warnings as errors, so it can check published files independently.
    static func decode(_ data: Data, format: ImageFormat) throws -> GDImage {
        _ = GDImage.silenced
        guard !data.isEmpty, data.count <= Int(Int32.max) else { throw ImagingError.corrupt(format) }
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
            }
        }
        guard let decoded else { throw ImagingError.corrupt(format) }
        let image = GDImage(adopting: decoded)
        if folio_gd_is_true_color(decoded) == 0, gdImagePaletteToTrueColor(decoded) == 0 {
            throw ImagingError(reason: "could not convert the \(format.rawValue.uppercased()) palette to truecolor")
        }
        image.flattenOntoWhite()
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

    // MARK: Transforming

    /// The upright image for an EXIF orientation; `self` when there is nothing to turn.
    func oriented(_ orientation: ImageOrientation) throws -> GDImage {
        if orientation == .up { return self }
        let upright = orientation.uprightSize(width: width, height: height)
        let result = try GDImage(width: upright.width, height: upright.height)
        let map = orientation.sourceMap(storedWidth: width, storedHeight: height)
        let rows = (0..<height).map { folio_gd_row(pointer, Int32($0))! }
        rows.withUnsafeBufferPointer { rows in
            for y in 0..<upright.height {
                let target = folio_gd_row(result.pointer, Int32(y))!
                var sourceX = map.bx * y + map.cx
                var sourceY = map.by * y + map.cy
                for x in 0..<upright.width {
                    target[x] = rows[sourceY][sourceX]
                    sourceX += map.ax
                    sourceY += map.ay
                }
            }
        }
        return result
    }

    /// Resampled through gdImageScale. Reductions of more than 2x use Catmull-Rom, whose filter
    /// widens with the reduction, so big downscales average instead of aliasing (measured against
    /// gdImageCopyResampled on a zone plate: about a ninth of the aliasing, the same sharpness,
    /// faster). Up to 2x, where two taps already see every source pixel, fixed-point bilinear is
    /// as clean and three times faster (35 ms against 104 ms for 2000x1500 to 1600x1200): that
    /// is the common case, since JPEGs are decoded at the scale just above the largest rendition.
    func scaled(toWidth newWidth: Int, height newHeight: Int) throws -> GDImage {
        if newWidth == width && newHeight == height { return self }
        let reduction = max(Double(width) / Double(newWidth), Double(height) / Double(newHeight))
        gdImageSetInterpolationMethod(pointer, reduction <= 2 ? GD_BILINEAR_FIXED : GD_CATMULLROM)
        guard newWidth > 0, newHeight > 0, let scaled = gdImageScale(pointer, UInt32(newWidth), UInt32(newHeight)) else {
            throw ImagingError(reason: "could not resample to \(newWidth)x\(newHeight)")
        }
        return GDImage(adopting: scaled)
    }

    /// The centred square whose side is the short side; `self` when already square.
    func croppedToCentredSquare() throws -> GDImage {
        let side = min(width, height)
        if width == height { return self }
        return try cropped(x: (width - side) / 2, y: (height - side) / 2, width: side, height: side)
    }

    /// Half the size (rounded up), each pixel the average of a 2x2 block: the classic way down a
    /// pyramid, exact for a 2x reduction and far cheaper than a general resampler.
    func halved() throws -> GDImage {
        let (w, h) = ((width + 1) / 2, (height + 1) / 2)
        let result = try GDImage(width: w, height: h)
        for y in 0..<h {
            let top = folio_gd_row(pointer, Int32(2 * y))!
            let bottom = folio_gd_row(pointer, Int32(min(2 * y + 1, height - 1)))!
            let target = folio_gd_row(result.pointer, Int32(y))!
            for x in 0..<w {
                let x0 = 2 * x, x1 = min(2 * x + 1, width - 1)
                let a = UInt32(bitPattern: top[x0]), b = UInt32(bitPattern: top[x1])
                let c = UInt32(bitPattern: bottom[x0]), d = UInt32(bitPattern: bottom[x1])
                // Sum red+blue and green in separate lanes of one word each: no channel overflows.
                let redBlue = (a & 0xFF00FF) &+ (b & 0xFF00FF) &+ (c & 0xFF00FF) &+ (d & 0xFF00FF) &+ 0x020002
                let green = (a & 0x00FF00) &+ (b & 0x00FF00) &+ (c & 0x00FF00) &+ (d & 0x00FF00) &+ 0x000200
                target[x] = Int32(bitPattern: ((redBlue >> 2) & 0xFF00FF) | ((green >> 2) & 0x00FF00))
            }
        }
        return result
    }

    /// A copy of one rectangle of the image.
    func cropped(x: Int, y: Int, width: Int, height: Int) throws -> GDImage {
        var rect = gdRect(x: Int32(x), y: Int32(y), width: Int32(width), height: Int32(height))
        guard let cropped = gdImageCrop(pointer, &rect) else {
            throw ImagingError(reason: "could not crop \(width)x\(height) at \(x),\(y)")
        }
        return GDImage(adopting: cropped)
    }

    // MARK: Encoding

    /// The image as a file. libgd writes no EXIF, so nothing of the original's metadata
    /// (GPS above all) reaches a published file. JPEG is progressive: a rough whole picture
    /// shows first on slow connections, and progressive Huffman tables make it smaller too.
    /// `progressive: false` writes baseline JPEG: what cameras write, and for small tiles, where a
    /// progressive pass buys nothing, about three times faster to encode.
    func encoded(as format: ImageFormat, quality: Int, progressive: Bool = true) throws -> Data {
        // For WebP, 101 (gdWebpLossless) selects lossless encoding.
        let quality = Int32(min(max(quality, 1), format == .webp ? 101 : 100))
        gdImageInterlace(pointer, format == .jpeg && progressive ? 1 : 0)
        gdImageSaveAlpha(pointer, 1)
        var size: Int32 = 0
        let bytes: UnsafeMutableRawPointer?
        switch format {
        case .jpeg: bytes = gdImageJpegPtr(pointer, &size, quality)
        case .png: bytes = gdImagePngPtr(pointer, &size)
        case .gif: bytes = gdImageGifPtr(pointer, &size)
        case .webp: bytes = gdImageWebpPtrEx(pointer, &size, quality)
        case .avif: bytes = gdImageAvifPtrEx(pointer, &size, quality, 6)
        }
        guard let bytes, size > 0 else {
            throw ImagingError(reason: "could not encode \(width)x\(height) pixels as \(format.rawValue.uppercased())")
        }
        defer { gdFree(bytes) }
        return Data(bytes: bytes, count: Int(size))
    }

    // MARK: Pixels (fixtures and checks)

    /// Fills a rectangle, replacing what was there (alpha too: 0 opaque ... 127 transparent).
    func fill(x: Int, y: Int, width: Int, height: Int, red: Int, green: Int, blue: Int, alpha: Int = 0) {
        gdImageAlphaBlending(pointer, 0)
        let colour = folio_gd_true_color_alpha(Int32(red), Int32(green), Int32(blue), Int32(alpha))
        gdImageFilledRectangle(pointer, Int32(x), Int32(y), Int32(x + width - 1), Int32(y + height - 1), colour)
        gdImageAlphaBlending(pointer, 1)
    }

    func colour(x: Int, y: Int) -> (red: Int, green: Int, blue: Int) {
        let pixel = Int(folio_gd_row(pointer, Int32(y))![x])
        return ((pixel >> 16) & 0xFF, (pixel >> 8) & 0xFF, pixel & 0xFF)
    }
}

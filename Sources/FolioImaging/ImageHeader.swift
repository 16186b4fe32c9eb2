import Foundation

/// The stored size and embedded EXIF of a photo file, read without decoding any pixels.
/// This is what the pixel limit is checked against, before a decoder allocates anything.
struct ImageHeader: Equatable {
    var format: ImageFormat
    /// As stored in the file, before the EXIF orientation is applied.
    var width: Int
    var height: Int
    /// The EXIF block as libexif reads it: "Exif\0\0" and then the TIFF structure.
    var exif: Data?
    /// How the file itself says to turn the stored pixels, as an EXIF orientation, when it says
    /// so outside EXIF (a HEIC's `irot` and `imir`); it wins over the EXIF Orientation.
    var orientation: Int?
    /// Colour channels as stored: 1 grey, 3 RGB (or YCbCr), 4 CMYK. What a profile must describe.
    var channels = 3
    /// Whether the file says it has transparency (an alpha channel, or a transparent colour):
    /// its renditions must then be in formats that keep it.
    var hasAlpha = false
    /// The part of the stored pixels that is the picture, when the file says (a HEIC's `clap`,
    /// clean aperture); `width` and `height` are then its size.
    var crop: Crop?
    /// Whether it is an animation (a GIF of several frames): published as such beside its stills.
    var animated = false
    /// What LibRaw read of a RAW's EXIF: the facts its EXIF block (`exif`, when the RAW is a TIFF
    /// structure) lacks, or all of them (a CR3's, a RAF's).
    var rawExif: ExifFields?

    static func read(_ data: Data) throws -> ImageHeader {
        guard !data.isEmpty else { throw ImagingError.emptyFile }
        guard let format = ImageFormat(sniffing: data) else { throw ImagingError.notAnImage }
        let bytes = ByteReader(data)
        let header: ImageHeader?
        switch format {
        case .jpeg: header = try readJPEG(data)
        case .png: header = readPNG(bytes)
        case .gif: header = readGIF(bytes)
        case .webp: header = readWebP(bytes)
        case .avif: header = readAVIF(bytes)
        case .heic: header = readHEIC(bytes)
        case .tiff: header = readTIFF(bytes)
        case .raw: header = try readRAW(data)
        }
        guard let header, header.width > 0, header.height > 0 else {
            throw ImagingError.corrupt(format, detail: "no image size in the header")
        }
        return header
    }

    /// Refuses decompression bombs: a few kilobytes of file can claim gigapixels.
    func checkPixelLimit(_ limit: Int) throws {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || product > limit {
            throw ImagingError.overLimit(width: width, height: height, limit: limit, wholeDecode: format != .jpeg && format != .raw)
        }
    }

    /// A rectangle of the stored pixels.
    struct Crop: Equatable {
        var x: Int, y: Int, width: Int, height: Int
    }

    static let exifPrefix = Data("Exif".utf8) + Data([0, 0])

    /// PNG eXIf and WebP EXIF chunks hold the bare TIFF structure; libexif wants the APP1 prefix.
    static func exifBlock(fromTIFF tiff: Data) -> Data {
        tiff.starts(with: exifPrefix) ? tiff : exifPrefix + tiff
    }
}

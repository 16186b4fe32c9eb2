import Foundation

/// A photo file's format, told by its first bytes: a file's extension says what someone
/// named it, the bytes say what a decoder will actually face.
public enum ImageFormat: String, Sendable {
    case jpeg, png, gif, webp, avif, heic, tiff

    /// The format whose signature `data` starts with, or nil for anything Folio cannot read.
    public init?(sniffing data: Data) {
        let bytes = ByteReader(data)
        if bytes.matches([0xFF, 0xD8, 0xFF], at: 0) {
            self = .jpeg
        } else if bytes.matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], at: 0) {
            self = .png
        } else if bytes.matches(ascii: "GIF87a", at: 0) || bytes.matches(ascii: "GIF89a", at: 0) {
            self = .gif
        } else if bytes.matches(ascii: "RIFF", at: 0) && bytes.matches(ascii: "WEBP", at: 8) {
            self = .webp
        } else if bytes.matches(ascii: "II*\0", at: 0) || bytes.matches(ascii: "MM\0*", at: 0) {
            // Classic TIFF only: BigTIFF (43) is rare in photo libraries and ends up "unknown".
            self = .tiff
        } else if let brand = ImageFormat.isoMediaBrand(bytes) {
            self = brand
        } else {
            return nil
        }
    }

    /// AVIF and HEIC are both ISO media files; the `ftyp` box's brands (the major one, then the
    /// compatible ones) say which codec is inside. `mif1` and `msf1` name only the container,
    /// which AVIF files list too, so they decide nothing alone; an AVIF brand wins over them,
    /// and a file with `mif1` and no AVIF brand is taken for HEIC (libheif reads it or says why).
    private static func isoMediaBrand(_ bytes: ByteReader) -> ImageFormat? {
        guard bytes.matches(ascii: "ftyp", at: 4), let size = bytes.uint32BE(at: 0) else { return nil }
        let end = min(Int(size), bytes.count)
        var offset = 8
        var sawHEIC = false, sawContainer = false
        while offset + 4 <= end {
            if bytes.matches(ascii: "avif", at: offset) || bytes.matches(ascii: "avis", at: offset) {
                return .avif
            }
            for brand in ["heic", "heix", "hevc", "hevx", "heim", "heis"] where bytes.matches(ascii: brand, at: offset) {
                sawHEIC = true
            }
            if bytes.matches(ascii: "mif1", at: offset) || bytes.matches(ascii: "msf1", at: offset) {
                sawContainer = true
            }
            // Skip the minor version, which sits between the major and the compatible brands.
            offset += offset == 8 ? 8 : 4
        }
        return sawHEIC || sawContainer ? .heic : nil
    }
}

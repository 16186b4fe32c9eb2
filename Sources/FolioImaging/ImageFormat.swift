import Foundation

/// A photo file's format, told by its first bytes: a file's extension says what someone
/// named it, the bytes say what a decoder will actually face.
public enum ImageFormat: String, Sendable {
    case jpeg, png, gif, webp, avif, heic, tiff
    /// A camera's RAW file (DNG, CR2, CR3, NEF, ARW, RAF, ORF, RW2, PEF, …): its sensor's data,
    /// read and developed by LibRaw (`RAWDecoder`).
    case raw

    /// The format whose signature `data` starts with, or nil for anything Folio cannot read.
    public init?(sniffing data: Data) {
        let bytes = ByteReader(data)
        if ImageFormat.isRAW(bytes) {
            self = .raw
        } else if bytes.matches([0xFF, 0xD8, 0xFF], at: 0) {
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

    /// RAW files by their own signatures (CR2's `CR` and Phase One's `IIII` after a TIFF header,
    /// ORF's and RW2's own TIFF magic numbers, RAF's, CRW's, MRW's and X3F's names, CR3's `crx `
    /// brand), and the RAWs that are
    /// TIFF files (DNG, NEF, ARW, PEF, …) by what no other TIFF holds: a DNG version, sensor data
    /// (a colour filter array, or DNG's linear raw) in the first directory or its sub-directories,
    /// or Sony's private directory.
    private static func isRAW(_ bytes: ByteReader) -> Bool {
        if bytes.matches(ascii: "II*\0", at: 0), bytes.matches(ascii: "CR", at: 8) || bytes.matches(ascii: "IIII", at: 8) { return true }
        if bytes.matches(ascii: "IIRO", at: 0) || bytes.matches(ascii: "IIRS", at: 0) || bytes.matches(ascii: "MMOR", at: 0)
            || bytes.matches(ascii: "IIU\0", at: 0) || bytes.matches(ascii: "FUJIFILMCCD-RAW", at: 0)
            || bytes.matches(ascii: "HEAPCCDR", at: 6) || bytes.matches(ascii: "ftypcrx ", at: 4)
            || bytes.matches(ascii: "\0MRM", at: 0) || bytes.matches(ascii: "FOVb", at: 0) {
            return true
        }
        guard let first = TIFFDirectory.first(in: bytes) else { return false }
        let dngVersion = 50706, sonyPrivate = 50740
        return first.entry(dngVersion) != nil || first.entry(sonyPrivate) != nil || TIFFDirectory.sensorData(in: bytes) != nil
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

import Foundation

/// A photo file's format, told by its first bytes: a file's extension says what someone
/// named it, the bytes say what a decoder will actually face.
public enum ImageFormat: String, Sendable {
    case jpeg, png, gif, webp, avif

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
        } else if ImageFormat.isAVIF(bytes) {
            self = .avif
        } else {
            return nil
        }
    }

    /// AVIF is an ISO media file whose `ftyp` box names an AVIF brand, either as the major
    /// brand or among the compatible ones (HEIC shares the container but not the brand).
    private static func isAVIF(_ bytes: ByteReader) -> Bool {
        guard bytes.matches(ascii: "ftyp", at: 4), let size = bytes.uint32BE(at: 0) else { return false }
        let end = min(Int(size), bytes.count)
        var offset = 8
        while offset + 4 <= end {
            if bytes.matches(ascii: "avif", at: offset) || bytes.matches(ascii: "avis", at: offset) {
                return true
            }
            // Skip the minor version, which sits between the major and the compatible brands.
            offset += offset == 8 ? 8 : 4
        }
        return false
    }
}

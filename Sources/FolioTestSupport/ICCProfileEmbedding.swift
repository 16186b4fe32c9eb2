import Foundation

/// Puts an ICC profile into a JPEG the way Photoshop, Lightroom and cameras do: APP2 segments
/// "ICC_PROFILE\0", numbered from 1, right after SOI. For tests and the benchmark's wide-gamut
/// photos (exiftool does the same, far slower per file).
public enum ICCProfileEmbedding {
    /// The most profile bytes one APP2 segment holds: 65,535 less the length field and the
    /// 14-byte "ICC_PROFILE\0" + number + count header.
    public static let chunkSize = 65_519

    /// `jpeg` with `profile` in as many chunks as it takes; `chunks`, when given, replaces them
    /// (for tests of broken files: a chunk left out, one twice).
    public static func jpeg(_ jpeg: Data, profile: Data, chunks: [(number: Int, count: Int, bytes: Data)]? = nil) -> Data {
        let pieces = stride(from: 0, to: profile.count, by: chunkSize).map { profile.dropFirst($0).prefix(chunkSize) }
        let numbered = chunks ?? pieces.enumerated().map { ($0.offset + 1, pieces.count, Data($0.element)) }
        var result = Data([0xFF, 0xD8])
        for chunk in numbered {
            let length = 2 + 14 + chunk.bytes.count
            result += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)]
            result += Data("ICC_PROFILE".utf8) + [0, UInt8(chunk.number), UInt8(chunk.count)]
            result += chunk.bytes
        }
        return result + jpeg.dropFirst(2)
    }
}

import Foundation

/// Puts an ICC profile into a WebP file libgd wrote. libgd writes the simple format (one `VP8 `
/// or `VP8L` chunk) and has no way to add a profile; the extended format carries one in an
/// `ICCP` chunk right after its `VP8X` header, which says so in its flags.
enum WebPContainer {
    static func embedding(_ profile: Data, in webp: Data, width: Int, height: Int) throws -> Data {
        let bytes = ByteReader(webp)
        guard bytes.matches(ascii: "RIFF", at: 0), bytes.matches(ascii: "WEBP", at: 8) else {
            throw ImagingError(reason: "libgd wrote something other than WebP")
        }
        var chunks = webp.dropFirst(12)
        var header: Data
        if bytes.matches(ascii: "VP8X", at: 12), bytes.uint32LE(at: 16) == 10 {
            header = Data(chunks.prefix(18))
            chunks = chunks.dropFirst(18)
        } else {
            header = Data("VP8X".utf8) + littleEndian(10, bytes: 4) + Data([0, 0, 0, 0])
            header += littleEndian(width - 1, bytes: 3) + littleEndian(height - 1, bytes: 3)
        }
        header[8] |= 0x20  // the ICC profile flag
        var iccp = Data("ICCP".utf8) + littleEndian(profile.count, bytes: 4) + profile
        if profile.count % 2 == 1 { iccp.append(0) }
        let body = Data("WEBP".utf8) + header + iccp + chunks
        return Data("RIFF".utf8) + littleEndian(body.count, bytes: 4) + body
    }

    private static func littleEndian(_ value: Int, bytes: Int) -> Data {
        Data((0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
    }
}

import Foundation

extension ImageHeader {
    /// WebP: the first chunk says which bitstream follows; each keeps its size differently.
    static func readWebP(_ bytes: ByteReader) -> ImageHeader? {
        if bytes.matches(ascii: "VP8 ", at: 12) {
            // Lossy: a 3-byte frame tag, the start code 9D 01 2A, then 14-bit sizes.
            guard bytes.matches([0x9D, 0x01, 0x2A], at: 23),
                  let width = bytes.uint16LE(at: 26), let height = bytes.uint16LE(at: 28)
            else { return nil }
            return ImageHeader(format: .webp, width: width & 0x3FFF, height: height & 0x3FFF, exif: nil)
        }
        if bytes.matches(ascii: "VP8L", at: 12) {
            // Lossless: signature 0x2F, then width-1 and height-1 in 14 bits each.
            // Bit 28 says whether the alpha channel is used.
            guard bytes.uint8(at: 20) == 0x2F, let bits = bytes.uint32LE(at: 21) else { return nil }
            return ImageHeader(format: .webp, width: (bits & 0x3FFF) + 1, height: (bits >> 14 & 0x3FFF) + 1, exif: nil,
                               hasAlpha: bits >> 28 & 1 == 1)
        }
        if bytes.matches(ascii: "VP8X", at: 12) {
            // Extended: a canvas size (24-bit, minus one), then further chunks, EXIF among them.
            // Its flags' 0x10 says the picture has alpha.
            guard let width = bytes.uint24LE(at: 24), let height = bytes.uint24LE(at: 27) else { return nil }
            return ImageHeader(format: .webp, width: width + 1, height: height + 1, exif: webpExif(bytes),
                               hasAlpha: (bytes.uint8(at: 20) ?? 0) & 0x10 != 0, animated: isAnimatedWebP(bytes))
        }
        return nil
    }

    /// The VP8X flag of an animation: libwebp's simple decoder, which libgd uses, refuses
    /// those, so WebPAnimation decodes their first frame.
    static func isAnimatedWebP(_ bytes: ByteReader) -> Bool {
        bytes.matches(ascii: "VP8X", at: 12) && (bytes.uint8(at: 20) ?? 0) & 0x02 != 0
    }

    private static func webpExif(_ bytes: ByteReader) -> Data? {
        var offset = 12
        while let size = bytes.uint32LE(at: offset + 4) {
            if bytes.matches(ascii: "EXIF", at: offset) {
                return bytes.slice(at: offset + 8, length: size).map(exifBlock(fromTIFF:))
            }
            offset += 8 + size + (size & 1)  // chunks are padded to an even size
        }
        return nil
    }
}

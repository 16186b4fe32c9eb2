import Foundation

extension ImageHeader {
    /// GIF: the logical screen size. libgd decodes the first frame, which must fit inside it.
    /// It is transparent when the first frame's graphic control extension names a transparent
    /// colour (bit 0 of its flags), and animated when more than one frame follows.
    static func readGIF(_ bytes: ByteReader) -> ImageHeader? {
        guard let width = bytes.uint16LE(at: 6), let height = bytes.uint16LE(at: 8) else { return nil }
        let blocks = AnimatedGIF.blocks(of: bytes)
        let control = blocks.prefix { !$0.isFrame }.last { $0.kind == .extension(0xF9) }
        let transparent = control.flatMap { bytes.uint8(at: $0.range.lowerBound + 3) }.map { $0 & 1 == 1 } ?? false
        return ImageHeader(format: .gif, width: width, height: height, exif: nil, hasAlpha: transparent,
                           animated: blocks.filter(\.isFrame).count > 1)
    }

    /// Whether the first frame's compressed data is all there. libgd returns a partly blank
    /// image for a truncated GIF instead of failing, so Folio checks the block structure first,
    /// and that there is enough of it: LZW with 12-bit codes cannot pack more than about 2,600
    /// pixels into a byte (a run's string grows by one pixel a code, up to some 3,800), so a
    /// 44-byte file claiming 10000x10000 pixels is a bomb, not a picture.
    static func gifFirstFrameIsComplete(_ bytes: ByteReader) -> Bool {
        guard let flags = bytes.uint8(at: 10) else { return false }
        var offset = 13
        if flags & 0x80 != 0 { offset += 3 << ((flags & 0x07) + 1) }
        while let introducer = bytes.uint8(at: offset) {
            switch introducer {
            case 0x21:  // extension: label, then data sub-blocks
                guard let end = endOfSubBlocks(bytes, from: offset + 2) else { return false }
                offset = end
            case 0x2C:  // image descriptor, optional local colour table, LZW code size, data
                guard let frameWidth = bytes.uint16LE(at: offset + 5), let frameHeight = bytes.uint16LE(at: offset + 7),
                      let frameFlags = bytes.uint8(at: offset + 9) else { return false }
                var data = offset + 10
                if frameFlags & 0x80 != 0 { data += 3 << ((frameFlags & 0x07) + 1) }
                guard let end = endOfSubBlocks(bytes, from: data + 1) else { return false }
                let payload = end - (data + 1)
                return payload >= frameWidth * frameHeight / 3000
            default:  // the trailer before any frame, or garbage
                return false
            }
        }
        return false
    }

    /// The offset just past a chain of length-prefixed sub-blocks, nil if the file ends inside it.
    private static func endOfSubBlocks(_ bytes: ByteReader, from start: Int) -> Int? {
        var offset = start
        while let length = bytes.uint8(at: offset) {
            if length == 0 { return offset + 1 }
            offset += 1 + length
        }
        return nil
    }
}

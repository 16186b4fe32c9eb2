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
        // The block structure is AnimatedGIF's walk: a frame is there only when its data is whole.
        guard let frame = AnimatedGIF.blocks(of: bytes).first(where: \.isFrame),
              let frameWidth = bytes.uint16LE(at: frame.range.lowerBound + 5), let frameHeight = bytes.uint16LE(at: frame.range.lowerBound + 7),
              let frameFlags = bytes.uint8(at: frame.range.lowerBound + 9) else { return false }
        var data = frame.range.lowerBound + 10
        if frameFlags & 0x80 != 0 { data += 3 << ((frameFlags & 0x07) + 1) }
        let payload = frame.range.upperBound - (data + 1)
        return payload >= frameWidth * frameHeight / 3000
    }
}

import Foundation

/// An animated GIF's block structure, read and rewritten without decoding: Folio publishes the
/// animation as the file itself (libgd decodes only its first frame, the still), so a GIF that
/// moves keeps moving, with what describes it (comments, XMP, other applications' data) left out.
enum AnimatedGIF {
    /// One block after the header, screen descriptor and global colour table.
    struct Block {
        enum Kind: Equatable {
            /// An image descriptor, its local colour table and its LZW data.
            case frame
            /// An extension, by its label: 0xF9 frame timing and transparency, 0xFE comment,
            /// 0xFF application, 0x01 plain text.
            case `extension`(UInt8)
        }

        var kind: Kind
        var range: Range<Int>
        var isFrame: Bool { kind == .frame }
    }

    /// The blocks in file order, up to the trailer or to where the structure stops making
    /// sense (a truncated or damaged file yields the blocks before the damage). Every length
    /// comes from the file, so each step moves forward and is checked against its end.
    static func blocks(of bytes: ByteReader) -> [Block] {
        guard let flags = bytes.uint8(at: 10) else { return [] }
        var offset = 13
        if flags & 0x80 != 0 { offset += 3 << ((flags & 0x07) + 1) }
        var blocks: [Block] = []
        while let introducer = bytes.uint8(at: offset) {
            switch introducer {
            case 0x21:
                guard let label = bytes.uint8(at: offset + 1), let end = endOfSubBlocks(bytes, from: offset + 2) else { return blocks }
                blocks.append(Block(kind: .extension(UInt8(truncatingIfNeeded: label)), range: offset..<end))
                offset = end
            case 0x2C:
                guard let frameFlags = bytes.uint8(at: offset + 9) else { return blocks }
                var data = offset + 10
                if frameFlags & 0x80 != 0 { data += 3 << ((frameFlags & 0x07) + 1) }
                guard bytes.uint8(at: data) != nil, let end = endOfSubBlocks(bytes, from: data + 1) else { return blocks }
                blocks.append(Block(kind: .frame, range: offset..<end))
                offset = end
            default:  // 0x3B, the trailer, or garbage
                return blocks
            }
        }
        return blocks
    }

    /// The GIF with only what plays it: the header, screen descriptor and global colour table,
    /// every frame with its timing (0xF9) and plain text (0x01), and the NETSCAPE2.0 (or
    /// ANIMEXTS1.0) block that says how often it loops; then the trailer.
    static func publishable(_ data: Data) throws -> Data {
        let bytes = ByteReader(data)
        let blocks = blocks(of: bytes)
        guard let first = blocks.first, blocks.filter(\.isFrame).count > 1 else {
            throw ImagingError.corrupt(.gif, detail: "the animation's frames cannot be read")
        }
        var result = Data(data[data.startIndex..<(data.startIndex + first.range.lowerBound)])
        for block in blocks {
            switch block.kind {
            case .frame, .extension(0xF9), .extension(0x01):
                break
            case .extension(0xFF):
                // The application's name and code, 11 bytes in the first sub-block.
                guard let name = bytes.slice(at: block.range.lowerBound + 3, length: 11),
                      ["NETSCAPE2.0", "ANIMEXTS1.0"].contains(String(decoding: name, as: UTF8.self)) else { continue }
            default:
                continue
            }
            result += data[(data.startIndex + block.range.lowerBound)..<(data.startIndex + block.range.upperBound)]
        }
        result.append(0x3B)
        return result
    }

    /// The offset just past a chain of length-prefixed sub-blocks, nil if the file ends inside it.
    private static func endOfSubBlocks(_ bytes: ByteReader, from start: Int) -> Int? {
        var offset = start
        while let length = bytes.uint8(at: offset) {
            if length == 0 { return offset + 1 }
            offset += 1 + length
            guard offset < bytes.count else { return nil }
        }
        return nil
    }
}

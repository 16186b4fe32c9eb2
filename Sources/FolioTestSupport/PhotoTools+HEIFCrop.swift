import Foundation

extension PhotoTools {
    /// The HEIC with a `clap` (clean aperture) property on its primary image: the centred
    /// `width` x `height` rectangle moved by (`offsetX`, `offsetY`), all whole pixels. Cameras
    /// that encode in whole blocks write one; heif-enc cannot. The property goes at the end of
    /// `ipco` and first into the primary's `ipma` entry, the boxes around them grow, and every `iloc`
    /// offset past them moves by as much, so libheif (heif-convert) reads the file as written.
    public static func croppingHEIC(_ heic: Data, width: Int, height: Int, offsetX: Int = 0, offsetY: Int = 0) throws -> Data {
        var bytes = [UInt8](heic)
        func uint(_ at: Int, _ size: Int) -> Int { bytes[at..<(at + size)].reduce(0) { $0 << 8 | Int($1) } }
        func put(_ value: Int, _ at: Int, _ size: Int) {
            for i in 0..<size { bytes[at + i] = UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - i))) }
        }
        func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * (3 - $0))) } }
        /// The children of the box whose payload is `range`: (offset, size, type).
        func children(_ range: Range<Int>) -> [(offset: Int, size: Int, type: String)] {
            var found: [(Int, Int, String)] = []
            var offset = range.lowerBound
            while offset + 8 <= range.upperBound, uint(offset, 4) >= 8, offset + uint(offset, 4) <= range.upperBound {
                found.append((offset, uint(offset, 4), String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)))
                offset += uint(offset, 4)
            }
            return found
        }
        func child(_ name: String, of range: Range<Int>) throws -> (offset: Int, size: Int) {
            guard let box = children(range).first(where: { $0.type == name }) else {
                throw ToolError(description: "no \(name) box in the HEIC heif-enc wrote")
            }
            return (box.offset, box.size)
        }
        let meta = try child("meta", of: 0..<bytes.count)
        let metaChildren = (meta.offset + 12)..<(meta.offset + meta.size)
        let pitm = try child("pitm", of: metaChildren), iloc = try child("iloc", of: metaChildren)
        let iprp = try child("iprp", of: metaChildren)
        let ipco = try child("ipco", of: (iprp.offset + 8)..<(iprp.offset + iprp.size))
        let ipma = try child("ipma", of: (iprp.offset + 8)..<(iprp.offset + iprp.size))
        guard bytes[pitm.offset + 8] == 0, ipma.offset > ipco.offset, iloc.offset < ipco.offset else {
            throw ToolError(description: "the HEIC's boxes are not laid out as heif-enc lays them out")
        }
        let primary = uint(pitm.offset + 12, 2)
        let propertyCount = children((ipco.offset + 8)..<(ipco.offset + ipco.size)).count

        // The primary's ipma entry gains the new property's (1-based) index, marked essential.
        let ipmaVersion = Int(bytes[ipma.offset + 8]), wide = bytes[ipma.offset + 11] & 1 == 1
        var cursor = ipma.offset + 16
        var insertAt: Int?
        for _ in 0..<uint(ipma.offset + 12, 4) {
            let idSize = ipmaVersion < 1 ? 2 : 4
            let id = uint(cursor, idSize), countAt = cursor + idSize, count = Int(bytes[countAt])
            let end = countAt + 1 + count * (wide ? 2 : 1)
            if id == primary {
                bytes[countAt] += 1
                // First among the primary's properties: before any irot or imir, as the HEIF
                // standard orders them (libheif applies them in the file's order).
                insertAt = countAt + 1
            }
            cursor = end
        }
        guard let insertAt else { throw ToolError(description: "the primary image has no ipma entry") }
        let association: [UInt8] = wide ? [UInt8(0x80 | (propertyCount + 1) >> 8), UInt8((propertyCount + 1) & 0xFF)]
            : [UInt8(0x80 | (propertyCount + 1))]
        let clap = be32(40) + Array("clap".utf8) + [width, 1, height, 1, offsetX, 1, offsetY, 1].flatMap(be32)
        let grown = clap.count + association.count

        // iloc offsets into the file past the inserted bytes (mdat) move by as much.
        let ilocVersion = Int(bytes[iloc.offset + 8])
        let offsetSize = Int(bytes[iloc.offset + 12] >> 4), lengthSize = Int(bytes[iloc.offset + 12] & 0xF)
        let baseSize = Int(bytes[iloc.offset + 13] >> 4), indexSize = ilocVersion == 0 ? 0 : Int(bytes[iloc.offset + 13] & 0xF)
        var at = iloc.offset + 14
        let itemCount = uint(at, ilocVersion < 2 ? 2 : 4)
        at += ilocVersion < 2 ? 2 : 4
        for _ in 0..<itemCount {
            at += ilocVersion < 2 ? 2 : 4
            var method = 0
            if ilocVersion >= 1 { method = uint(at, 2) & 0xF; at += 2 }
            at += 2
            let baseAt = at, base = uint(at, baseSize)
            at += baseSize
            let extents = uint(at, 2)
            at += 2
            let movesBase = method == 0 && baseSize > 0 && base > ipco.offset
            if movesBase { put(base + grown, baseAt, baseSize) }
            for _ in 0..<extents {
                at += indexSize
                if method == 0, !movesBase, uint(at, offsetSize) + base > ipco.offset {
                    put(uint(at, offsetSize) + grown, at, offsetSize)
                }
                at += offsetSize + lengthSize
            }
        }
        for (box, by) in [(meta, grown), (iprp, grown), (ipco, clap.count), (ipma, association.count)] {
            put(uint(box.offset, 4) + by, box.offset, 4)
        }
        // Back to front, so the earlier offset still holds.
        bytes.insert(contentsOf: association, at: insertAt)
        bytes.insert(contentsOf: clap, at: ipco.offset + ipco.size)
        return Data(bytes)
    }
}

import Foundation

/// What a HEIF file's `meta` box says about its items, read without decoding: which item is the
/// picture, the properties attached to it (size, rotation, mirror), and where the EXIF item's
/// bytes are. Every count and offset comes from an untrusted file, so each is checked against
/// the bytes there are, and loops are bounded by them.
struct HEIFItems {
    struct Property {
        var type: String
        var payload: Range<Int>
    }

    var primary: Int?
    /// Item id to its four-letter type (`hvc1`, `grid`, `av01`, `Exif`...).
    var types: [Int: String] = [:]
    /// Item id to the byte ranges of its data, in order (file offsets, or inside `idat`).
    var extents: [Int: [Range<Int>]] = [:]
    /// `ipco`'s properties, in order: associations name them by 1-based index.
    var properties: [Property] = []
    /// Item id to the indexes of its properties.
    var associations: [Int: [Int]] = [:]

    init?(_ bytes: ByteReader) {
        guard let meta = ImageHeader.box("meta", in: 0..<bytes.count, of: bytes) else { return nil }
        let children = (meta.lowerBound + 4)..<meta.upperBound  // meta is a full box
        if let pitm = ImageHeader.box("pitm", in: children, of: bytes) {
            primary = bytes.uint8(at: pitm.lowerBound) == 0 ? bytes.uint16BE(at: pitm.lowerBound + 4)
                : bytes.uint32BE(at: pitm.lowerBound + 4)
        }
        if let iinf = ImageHeader.box("iinf", in: children, of: bytes) { readItemInfo(iinf, bytes) }
        let idat = ImageHeader.box("idat", in: children, of: bytes)
        if let iloc = ImageHeader.box("iloc", in: children, of: bytes) { readLocations(iloc, idat: idat, bytes) }
        if let iprp = ImageHeader.box("iprp", in: children, of: bytes) {
            if let ipco = ImageHeader.box("ipco", in: iprp, of: bytes) { readProperties(ipco, bytes) }
            for ipma in ImageHeader.boxes("ipma", in: iprp, of: bytes) { readAssociations(ipma, bytes) }
        }
    }

    /// The properties of `item`, in the order the file lists them.
    func properties(of item: Int) -> [Property] {
        (associations[item] ?? []).compactMap { index in
            properties.indices.contains(index - 1) ? properties[index - 1] : nil
        }
    }

    /// The item's bytes, joined from its extents; nil when any extent lies outside the file, or
    /// when they add up to more than `limit` (an EXIF item is a few kilobytes).
    func data(of item: Int, in bytes: ByteReader, limit: Int) -> Data? {
        guard let ranges = extents[item], !ranges.isEmpty else { return nil }
        var data = Data()
        for range in ranges {
            guard data.count + range.count <= limit,
                  let piece = bytes.slice(at: range.lowerBound, length: range.count) else { return nil }
            data += piece
        }
        return data
    }

    // MARK: Reading the boxes

    private mutating func readItemInfo(_ iinf: Range<Int>, _ bytes: ByteReader) {
        let header = bytes.uint8(at: iinf.lowerBound) == 0 ? 6 : 8  // full box, then a 16- or 32-bit count
        for infe in ImageHeader.boxes("infe", in: (iinf.lowerBound + header)..<iinf.upperBound, of: bytes) {
            // Versions 0 and 1 predate item types; 2 has a 16-bit id, 3 a 32-bit one.
            guard let version = bytes.uint8(at: infe.lowerBound), version >= 2 else { continue }
            let idSize = version == 2 ? 2 : 4
            let id = idSize == 2 ? bytes.uint16BE(at: infe.lowerBound + 4) : bytes.uint32BE(at: infe.lowerBound + 4)
            let typeOffset = infe.lowerBound + 4 + idSize + 2
            guard let id, typeOffset + 4 <= infe.upperBound, let type = bytes.slice(at: typeOffset, length: 4) else { continue }
            types[id] = String(decoding: type, as: UTF8.self)
        }
    }

    private mutating func readLocations(_ iloc: Range<Int>, idat: Range<Int>?, _ bytes: ByteReader) {
        var reader = BoxFieldReader(bytes: bytes, offset: iloc.lowerBound, end: iloc.upperBound)
        guard let version = reader.read(1), reader.skip(3), version <= 2,
              let sizes = reader.read(1), let moreSizes = reader.read(1) else { return }
        let offsetSize = sizes >> 4, lengthSize = sizes & 0xF, baseOffsetSize = moreSizes >> 4
        let indexSize = version == 0 ? 0 : moreSizes & 0xF
        guard let count = reader.read(version < 2 ? 2 : 4) else { return }
        // Each item takes at least a few bytes: a count larger than the box could hold stops at its end.
        for _ in 0..<min(count, iloc.count) {
            guard let id = reader.read(version < 2 ? 2 : 4) else { return }
            var method = 0
            if version >= 1 {
                guard let field = reader.read(2) else { return }
                method = field & 0xF
            }
            guard reader.skip(2), let base = reader.read(baseOffsetSize), let extentCount = reader.read(2) else { return }
            var ranges: [Range<Int>] = []
            for _ in 0..<extentCount {
                guard reader.skip(indexSize), let offset = reader.read(offsetSize), let length = reader.read(lengthSize) else { return }
                // Method 0 points into the file, 1 into `idat`; 2 (other items) is not followed.
                let origin = method == 1 ? idat?.lowerBound : (method == 0 ? 0 : nil)
                let (start, overflow) = base.addingReportingOverflow(offset)
                guard let origin, !overflow, start <= bytes.count, length <= bytes.count - start,
                      origin + start + length <= bytes.count else { continue }
                ranges.append((origin + start)..<(origin + start + length))
            }
            extents[id] = ranges
        }
    }

    private mutating func readProperties(_ ipco: Range<Int>, _ bytes: ByteReader) {
        var offset = ipco.lowerBound
        while offset + 8 <= ipco.upperBound, let size = bytes.uint32BE(at: offset), size >= 8,
              size <= ipco.upperBound - offset, let type = bytes.slice(at: offset + 4, length: 4) {
            properties.append(Property(type: String(decoding: type, as: UTF8.self), payload: (offset + 8)..<(offset + size)))
            offset += size
        }
    }

    private mutating func readAssociations(_ ipma: Range<Int>, _ bytes: ByteReader) {
        var reader = BoxFieldReader(bytes: bytes, offset: ipma.lowerBound, end: ipma.upperBound)
        guard let version = reader.read(1), let flags = reader.read(3), let count = reader.read(4) else { return }
        for _ in 0..<min(count, ipma.count) {
            guard let id = reader.read(version < 1 ? 2 : 4), let associationCount = reader.read(1) else { return }
            var indexes: [Int] = []
            for _ in 0..<associationCount {
                // The top bit says "essential"; the rest is the property's index.
                if flags & 1 == 1 {
                    guard let value = reader.read(2) else { return }
                    indexes.append(value & 0x7FFF)
                } else {
                    guard let value = reader.read(1) else { return }
                    indexes.append(value & 0x7F)
                }
            }
            associations[id, default: []] += indexes
        }
    }
}

import Foundation

/// One image file directory (IFD) of a TIFF structure: the tags of a TIFF file's first page, or
/// of its EXIF and GPS directories. Read with every offset checked against the file, and at most
/// `maximumEntries` entries, whatever the count in the file says.
struct TIFFDirectory {
    struct Entry {
        var tag: Int
        var type: Int
        var count: Int
        /// Where the entry sits in the file (12 bytes), and where its value is: in the entry's
        /// last four bytes when it fits there, else at the offset those bytes give.
        var entryOffset: Int
        var value: Range<Int>
    }

    let bigEndian: Bool
    let entries: [Entry]

    static let maximumEntries = 1_000

    /// The byte size of one value of each TIFF type (BYTE, ASCII, SHORT, LONG, RATIONAL, SBYTE,
    /// UNDEFINED, SSHORT, SLONG, SRATIONAL, FLOAT, DOUBLE, IFD); 0 for types TIFF does not define.
    static func valueSize(of type: Int) -> Int {
        switch type {
        case 1, 2, 6, 7: return 1
        case 3, 8: return 2
        case 4, 9, 11, 13: return 4
        case 5, 10, 12: return 8
        default: return 0
        }
    }

    /// The first directory of the TIFF structure starting at `base` (0 for a TIFF file).
    static func first(in bytes: ByteReader, base: Int = 0) -> TIFFDirectory? {
        let bigEndian: Bool
        if bytes.matches(ascii: "MM", at: base) {
            bigEndian = true
        } else if bytes.matches(ascii: "II", at: base) {
            bigEndian = false
        } else {
            return nil
        }
        let reader = TIFFDirectory(bigEndian: bigEndian, entries: [])
        guard reader.integer(bytes, at: base + 2, size: 2) == 42,
              let offset = reader.integer(bytes, at: base + 4, size: 4) else { return nil }
        return read(bytes, at: offset, base: base, bigEndian: bigEndian)
    }

    /// The directory at `offset` (from `base`), or nil when it is not inside the file.
    static func read(_ bytes: ByteReader, at offset: Int, base: Int, bigEndian: Bool) -> TIFFDirectory? {
        let reader = TIFFDirectory(bigEndian: bigEndian, entries: [])
        let start = base + offset
        guard offset >= 8, let count = reader.integer(bytes, at: start, size: 2) else { return nil }
        var entries: [Entry] = []
        for index in 0..<min(count, maximumEntries) {
            let at = start + 2 + index * 12
            guard let tag = reader.integer(bytes, at: at, size: 2), let type = reader.integer(bytes, at: at + 2, size: 2),
                  let count = reader.integer(bytes, at: at + 4, size: 4) else { break }
            let size = valueSize(of: type)
            // Four billion values of eight bytes still fit in Int: no overflow here.
            guard size > 0, count > 0 else { continue }
            let length = size * count
            var valueStart = at + 8
            if length > 4 {
                guard let pointer = reader.integer(bytes, at: at + 8, size: 4) else { continue }
                valueStart = base + pointer
            }
            guard valueStart <= bytes.count, length <= bytes.count - valueStart else { continue }
            entries.append(Entry(tag: tag, type: type, count: count, entryOffset: at, value: valueStart..<(valueStart + length)))
        }
        return TIFFDirectory(bigEndian: bigEndian, entries: entries)
    }

    func entry(_ tag: Int) -> Entry? {
        entries.first { $0.tag == tag }
    }

    /// The first value of a SHORT or LONG entry (image sizes may be either).
    func number(_ tag: Int, in bytes: ByteReader) -> Int? {
        guard let entry = entry(tag) else { return nil }
        switch entry.type {
        case 3: return integer(bytes, at: entry.value.lowerBound, size: 2)
        case 4, 13: return integer(bytes, at: entry.value.lowerBound, size: 4)
        default: return nil
        }
    }

    /// An unsigned integer of 2 or 4 bytes in the directory's byte order.
    func integer(_ bytes: ByteReader, at offset: Int, size: Int) -> Int? {
        switch (size, bigEndian) {
        case (2, true): return bytes.uint16BE(at: offset)
        case (2, false): return bytes.uint16LE(at: offset)
        case (4, true): return bytes.uint32BE(at: offset)
        case (4, false): return bytes.uint32LE(at: offset)
        default: return nil
        }
    }

    /// `value` as `size` bytes in the directory's byte order.
    func bytes(of value: Int, size: Int) -> [UInt8] {
        let littleEndian = (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        return bigEndian ? littleEndian.reversed() : littleEndian
    }
}

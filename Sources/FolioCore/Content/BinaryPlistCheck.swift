import Foundation

/// Looks over a binary property list's object table before Foundation reads it. Foundation on
/// Linux crashes the whole process (a null dereference while bridging) on a binary plist holding
/// a set, a type no plist editor writes but any file can claim; a catalog is arrays, dictionaries,
/// strings, numbers, dates, booleans and data, so anything else is refused here, naming the object.
/// Only the trailer, the offset table and one marker byte per object are read: the walk is bounded
/// by the file's size, and whatever else is malformed is left to Foundation's own error.
enum BinaryPlistCheck {
    static let magic = Array("bplist0".utf8)

    /// Why the bytes cannot be a catalog, or nil when they are not a binary plist or hold only
    /// types a catalog can have.
    static func refusal(_ data: Data) -> String? {
        let bytes = ByteReader(data)
        guard bytes.matches(magic, at: 0), bytes.count >= 8 + 32 else { return nil }
        let trailer = bytes.count - 32
        guard let offsetSize = bytes.uint8(at: trailer + 6), (1...8).contains(offsetSize),
              let objects = bytes.uint64BE(at: trailer + 8), let table = bytes.uint64BE(at: trailer + 24),
              objects <= UInt64(bytes.count), table <= UInt64(trailer),
              UInt64(table) + objects * UInt64(offsetSize) <= UInt64(trailer) else { return nil }
        for index in 0..<Int(objects) {
            guard let offset = unsigned(bytes, at: Int(table) + index * offsetSize, size: offsetSize),
                  offset < UInt64(trailer), let marker = bytes.uint8(at: Int(offset)) else { return nil }
            if let kind = unsupported(marker) {
                return "object \(index) is \(kind), which a catalog cannot hold"
            }
        }
        return nil
    }

    /// The name of a marker's type when a catalog cannot have it.
    private static func unsupported(_ marker: Int) -> String? {
        switch marker >> 4 {
        case 0x8: return "a UID (an archived object)"
        case 0xB, 0xC: return "a set"
        case 0x7, 0x9, 0xE, 0xF: return "of an unknown type (marker 0x\(String(marker, radix: 16)))"
        case 0x0 where ![0x00, 0x08, 0x09].contains(marker): return "of an unknown type (marker 0x\(String(marker, radix: 16)))"
        default: return nil
        }
    }

    private static func unsigned(_ bytes: ByteReader, at offset: Int, size: Int) -> UInt64? {
        var value: UInt64 = 0
        for index in 0..<size {
            guard let byte = bytes.uint8(at: offset + index) else { return nil }
            value = value << 8 | UInt64(byte)
        }
        return value
    }
}

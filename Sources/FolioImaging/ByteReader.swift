import Foundation

/// Bounds-checked reads of a file's header fields. Headers come from untrusted files, so every
/// read answers nil past the end instead of trapping.
package struct ByteReader {
    private let data: Data

    package init(_ data: Data) {
        self.data = data
    }

    package var count: Int { data.count }

    package func uint8(at offset: Int) -> Int? {
        guard offset >= 0, offset < data.count else { return nil }
        return Int(data[data.startIndex + offset])
    }

    package func uint16BE(at offset: Int) -> Int? {
        guard let a = uint8(at: offset), let b = uint8(at: offset + 1) else { return nil }
        return a << 8 | b
    }

    func uint16LE(at offset: Int) -> Int? {
        guard let a = uint8(at: offset), let b = uint8(at: offset + 1) else { return nil }
        return b << 8 | a
    }

    func uint24LE(at offset: Int) -> Int? {
        guard let low = uint16LE(at: offset), let high = uint8(at: offset + 2) else { return nil }
        return high << 16 | low
    }

    package func uint32BE(at offset: Int) -> Int? {
        guard let high = uint16BE(at: offset), let low = uint16BE(at: offset + 2) else { return nil }
        return high << 16 | low
    }

    package func uint32LE(at offset: Int) -> Int? {
        guard let low = uint16LE(at: offset), let high = uint16LE(at: offset + 2) else { return nil }
        return high << 16 | low
    }

    package func uint64BE(at offset: Int) -> UInt64? {
        guard let high = uint32BE(at: offset), let low = uint32BE(at: offset + 4) else { return nil }
        return UInt64(high) << 32 | UInt64(low)
    }

    package func matches(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset + bytes.count <= data.count else { return false }
        var index = data.startIndex + offset
        for byte in bytes {
            if data[index] != byte { return false }
            index += 1
        }
        return true
    }

    package func matches(ascii: String, at offset: Int) -> Bool {
        matches(Array(ascii.utf8), at: offset)
    }

    /// `length` bytes from `offset`, or nil when the file ends first.
    package func slice(at offset: Int, length: Int) -> Data? {
        guard offset >= 0, length >= 0, offset <= data.count, length <= data.count - offset else { return nil }
        let start = data.startIndex + offset
        return data.subdata(in: start..<(start + length))
    }
}

/// Big-endian fields of 0 to 8 bytes read one after another, never past `end`: how the fields
/// of an ISO media box (`iloc`, `ipma`) are read, whose sizes the box itself declares.
struct BoxFieldReader {
    let bytes: ByteReader
    var offset: Int
    let end: Int

    mutating func read(_ size: Int) -> Int? {
        guard size >= 0, size <= 8, offset + size <= end else { return nil }
        var value = 0
        for index in 0..<size {
            // Eight-byte fields beyond Int's range are not offsets any file can have.
            guard let byte = bytes.uint8(at: offset + index), value <= Int.max >> 8 else { return nil }
            value = value << 8 | byte
        }
        offset += size
        return value
    }

    mutating func skip(_ size: Int) -> Bool {
        read(size) != nil
    }
}

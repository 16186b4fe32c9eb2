import Foundation

/// Reads a text that Folio wrote (its build state's ledgers) a field at a time, from its bytes,
/// without making a string of each line and word.
package struct LedgerReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0

    package init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    package var atEnd: Bool { at == bytes.count }

    /// The text up to the next byte `end`, which is passed over; nil when there is none.
    package mutating func word(then end: UInt8) -> String? {
        let start = at
        while at < bytes.count, bytes[at] != end { at += 1 }
        guard at < bytes.count else { return nil }
        defer { at += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
    }

    package mutating func line() -> String? { word(then: 0x0A) }

    package mutating func line(after label: String) -> String? {
        guard let line = line(), line.hasPrefix(label) else { return nil }
        return String(line.dropFirst(label.count))
    }

    /// A number in `radix` (10 or 16, lower case) that fits 64 bits, up to `end`.
    package mutating func number(radix: UInt64, then end: UInt8) -> UInt64? {
        var value: UInt64 = 0
        var digits = 0
        while at < bytes.count, bytes[at] != end {
            let byte = bytes[at]
            let digit: UInt64
            switch byte {
            case 0x30...0x39: digit = UInt64(byte - 0x30)
            case 0x61...0x66 where radix == 16: digit = UInt64(byte - 0x61 + 10)
            default: return nil
            }
            let (times, over) = value.multipliedReportingOverflow(by: radix)
            let (sum, carried) = times.addingReportingOverflow(digit)
            guard !over, !carried else { return nil }
            value = sum
            digits += 1
            at += 1
        }
        guard digits > 0, at < bytes.count else { return nil }
        at += 1
        return value
    }
}

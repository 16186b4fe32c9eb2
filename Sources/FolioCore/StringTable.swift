import Foundation

/// Strings numbered in the order they were added, their bytes held one after another in one
/// buffer, with a table that finds a string's number by its hash (`NumberTable`): a string is
/// its bytes and 4 more, and 4 to 8 in the table, where an array of `String` holds 16 bytes a
/// string (and an allocation of its own for one past 15 bytes) and a dictionary every key again.
///
/// Strings are told apart by their bytes, not as `String` compares them: two spellings of one
/// text in different Unicode normal forms are two strings.
package struct StringTable: Sendable {
    private var bytes: [UInt8] = []
    /// Where each string starts in `bytes`; it ends where the next starts.
    private var starts: [UInt32] = []
    /// Each string's number by its bytes' hash. Holds fewer numbers than there are strings when
    /// let go (`letGoOfTable`): made again when a string is next inserted.
    private var numbers = NumberTable()

    package init() {}

    package var count: Int { starts.count }
    package var isEmpty: Bool { starts.isEmpty }
    package var indices: Range<Int> { 0..<count }

    /// The string numbered `number`.
    package subscript(number: Int) -> String {
        withBytes(of: number) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the bytes of the string numbered `number`, where they lie.
    package func withBytes<Result>(of number: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let range = self.range(of: number)
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The number of `string`, nil when it is not in the table. Not after the table was let go
    /// (`letGoOfTable`) and before a string was inserted again.
    package func number(of string: String) -> Int? {
        var string = string
        return string.withUTF8 { number(bytes: $0) }
    }

    /// The number of `string`, added as the next number if it was not in the table.
    @discardableResult
    package mutating func insert(_ string: String) -> (number: Int, inserted: Bool) {
        var string = string
        return string.withUTF8 { insert(bytes: $0) }
    }

    /// The number of the string whose bytes are `key`, added as the next number if it was not
    /// in the table.
    @discardableResult
    package mutating func insert(bytes key: UnsafeBufferPointer<UInt8>) -> (number: Int, inserted: Bool) {
        indexIfNeeded()
        let hash = Self.hash(key)
        if let known = numbers.number(hash: hash, isKey: { matches($0, key) }) { return (known, false) }
        add(key)
        let (all, starts) = (bytes, self.starts)
        numbers.insert(count - 1, hash: hash, isKey: { _ in false }, hashOf: { Self.hash(of: $0, all, starts) })
        return (count - 1, true)
    }

    /// The number of the string whose bytes are `key`, nil when it is not in the table.
    package func number(bytes key: UnsafeBufferPointer<UInt8>) -> Int? {
        precondition(numbers.count == count, "a string looked for in a table of strings let go")
        return numbers.number(hash: Self.hash(key)) { matches($0, key) }
    }

    /// Room for `count` strings of `byteCount` bytes in all.
    package mutating func reserveCapacity(_ count: Int, byteCount: Int) {
        starts.reserveCapacity(count)
        bytes.reserveCapacity(byteCount)
        indexIfNeeded()
        let (all, starts) = (bytes, self.starts)
        numbers.reserveCapacity(count) { Self.hash(of: $0, all, starts) }
    }

    /// Lets go of the table that finds a string's number, where no string will be looked for for
    /// a while: made again when one is next inserted.
    package mutating func letGoOfTable() {
        numbers = NumberTable()
    }

    private func range(of number: Int) -> Range<Int> {
        Self.range(of: number, starts, byteCount: bytes.count)
    }

    private static func range(of number: Int, _ starts: [UInt32], byteCount: Int) -> Range<Int> {
        let end = number + 1 < starts.count ? Int(starts[number + 1]) : byteCount
        return Int(starts[number])..<end
    }

    private mutating func add(_ key: UnsafeBufferPointer<UInt8>) {
        precondition(bytes.count + key.count < UInt32.max && starts.count < Int32.max, "a table of strings fills 4 GB")
        starts.append(UInt32(bytes.count))
        bytes.append(contentsOf: key)
    }

    /// Whether the string numbered `number` is `key`'s bytes.
    private func matches(_ number: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let range = range(of: number)
        guard range.count == key.count else { return false }
        return key.isEmpty || bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + range.lowerBound, key.baseAddress!, key.count) == 0 }
    }

    /// The hash of the string numbered `number` of `bytes` and `starts`: read from copies of the
    /// buffers, not through `self`, while the table in `self` is being changed.
    private static func hash(of number: Int, _ bytes: [UInt8], _ starts: [UInt32]) -> Int {
        bytes.withUnsafeBufferPointer { hash(UnsafeBufferPointer(rebasing: $0[range(of: number, starts, byteCount: $0.count)])) }
    }

    /// The table made again for every string, where some are not in it.
    private mutating func indexIfNeeded() {
        guard numbers.count != count else { return }
        let (all, starts) = (bytes, self.starts)
        numbers = NumberTable()
        numbers.reserveCapacity(count) { Self.hash(of: $0, all, starts) }
        for number in indices {
            numbers.insert(number, hash: Self.hash(of: number, all, starts), isKey: { _ in false }, hashOf: { Self.hash(of: $0, all, starts) })
        }
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        Int(truncatingIfNeeded: ContentHash.hash(UnsafeRawBufferPointer(bytes), seed: 0x7061_7468))
    }
}

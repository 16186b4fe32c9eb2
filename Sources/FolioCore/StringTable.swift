import Foundation

/// Strings numbered in the order they were added, their bytes held one after another in one
/// buffer, with a table that finds a string's number by its hash: a string is its bytes and 4
/// more, and 4 to 8 in the table, where an array of `String` holds 16 bytes a string (and an
/// allocation of its own for one past 15 bytes) and a dictionary every key again.
///
/// Strings are told apart by their bytes, not as `String` compares them: two spellings of one
/// text in different Unicode normal forms are two strings.
package struct StringTable: Sendable {
    private var bytes: [UInt8] = []
    /// Where each string starts in `bytes`; it ends where the next starts.
    private var starts: [UInt32] = []
    /// Each slot a string's number, or -1; a power of two long, at most half full. Empty before
    /// the first string, when let go (`letGoOfTable`), or while strings are only appended
    /// (`append(from:at:)`): made again when a string is next inserted.
    private var table: [Int32] = []

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
    /// (`letGoOfTable`, `append(from:at:)`) and before a string was inserted again.
    package func number(of string: String) -> Int? {
        guard !table.isEmpty else {
            precondition(isEmpty, "a string looked for in a table of strings let go")
            return nil
        }
        var string = string
        return string.withUTF8 { key in
            let (slot, found) = find(key)
            return found ? Int(table[slot]) : nil
        }
    }

    /// The number of `string`, added as the next number if it was not in the table.
    @discardableResult
    package mutating func insert(_ string: String) -> (number: Int, inserted: Bool) {
        indexIfNeeded()
        var string = string
        return string.withUTF8 { key in
            let (slot, found) = find(key)
            if found { return (Int(table[slot]), false) }
            table[slot] = Int32(starts.count)
            add(key)
            if starts.count * 2 > table.count { rehash(to: table.count * 2) }
            return (starts.count - 1, true)
        }
    }

    /// Adds the string numbered `number` in `other` as the next number, without looking for it
    /// here: the caller knows it is not here.
    package mutating func append(from other: StringTable, at number: Int) {
        table = []
        other.withBytes(of: number) { add($0) }
    }

    /// Room for `count` strings of `byteCount` bytes in all.
    package mutating func reserveCapacity(_ count: Int, byteCount: Int) {
        starts.reserveCapacity(count)
        bytes.reserveCapacity(byteCount)
        if table.count < count * 2 { rehash(to: Self.tableSize(for: count)) }
    }

    /// Lets go of the table that finds a string's number, where no string will be looked for for
    /// a while: made again when one is next inserted.
    package mutating func letGoOfTable() {
        table = []
    }

    private func range(of number: Int) -> Range<Int> {
        let end = number + 1 < starts.count ? Int(starts[number + 1]) : bytes.count
        return Int(starts[number])..<end
    }

    private mutating func add(_ key: UnsafeBufferPointer<UInt8>) {
        precondition(bytes.count + key.count < UInt32.max && starts.count < Int32.max, "a table of strings fills 4 GB")
        starts.append(UInt32(bytes.count))
        bytes.append(contentsOf: key)
    }

    /// The slot that holds `key`, or the empty one it would go in.
    private func find(_ key: UnsafeBufferPointer<UInt8>) -> (slot: Int, found: Bool) {
        let mask = table.count - 1
        var slot = Int(truncatingIfNeeded: Self.hash(UnsafeRawBufferPointer(key))) & mask
        return bytes.withUnsafeBufferPointer { all in
            while true {
                let number = table[slot]
                if number < 0 { return (slot, false) }
                let range = range(of: Int(number))
                if range.count == key.count, key.isEmpty || memcmp(all.baseAddress! + range.lowerBound, key.baseAddress!, key.count) == 0 {
                    return (slot, true)
                }
                slot = (slot + 1) & mask
            }
        }
    }

    private mutating func indexIfNeeded() {
        if table.isEmpty { rehash(to: Self.tableSize(for: count)) }
    }

    private mutating func rehash(to size: Int) {
        table = []
        var table = [Int32](repeating: -1, count: size)
        let mask = size - 1
        bytes.withUnsafeBytes { all in
            for number in starts.indices {
                var slot = Int(truncatingIfNeeded: Self.hash(UnsafeRawBufferPointer(rebasing: all[range(of: number)]))) & mask
                while table[slot] >= 0 { slot = (slot + 1) & mask }
                table[slot] = Int32(number)
            }
        }
        self.table = table
    }

    private static func tableSize(for count: Int) -> Int {
        var size = 16
        while size < count * 2 { size *= 2 }
        return size
    }

    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        ContentHash.hash(bytes, seed: 0x7061_7468)
    }
}

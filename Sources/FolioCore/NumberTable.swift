/// Numbers found by the string each stands for, where the strings are held elsewhere (the
/// caller's array, in the number's place): a table of the numbers by the string's hash, 4 to 8
/// bytes a string, where a dictionary of strings to numbers would hold every key again. Inlinable:
/// the modules that use it then call `key` directly, not through a closure, on every probe.
package struct NumberTable: Sendable {
    /// Each slot a number, or -1; a power of two long, at most half full.
    @usableFromInline var table = [Int32](repeating: -1, count: 16)
    @usableFromInline package internal(set) var count = 0

    package init() {}

    /// The table of `count` strings, numbered from 0 (`key(n)` the nth); a string met twice is
    /// found as the last number that has it.
    @inlinable package init(count: Int, key: (Int) -> String) {
        reserveCapacity(count, key: key)
        for number in 0..<count { insert(number, for: key(number), key: key) }
    }

    /// The number of `string`, which `key` gives for each number in the table.
    @inlinable package func number(of string: String, key: (Int) -> String) -> Int? {
        number(hash: string.hashValue) { key($0) == string }
    }

    /// Files `number` under `string` (over any number already filed there: then true).
    @discardableResult @inlinable
    package mutating func insert(_ number: Int, for string: String, key: (Int) -> String) -> Bool {
        insert(number, hash: string.hashValue, isKey: { key($0) == string }, hashOf: { key($0).hashValue })
    }

    @inlinable package mutating func reserveCapacity(_ count: Int, key: (Int) -> String) {
        reserveCapacity(count) { key($0).hashValue }
    }

    // The same for keys that are not strings: each key known by its hash, and `isKey` telling
    // whether a number's key is the one asked for; `hashOf` gives a number's key's hash.

    @inlinable package func number(hash: Int, isKey: (Int) -> Bool) -> Int? {
        let number = table[slot(hash: hash, isKey: isKey)]
        return number < 0 ? nil : Int(number)
    }

    @discardableResult @inlinable
    package mutating func insert(_ number: Int, hash: Int, isKey: (Int) -> Bool, hashOf: (Int) -> Int) -> Bool {
        precondition(number >= 0 && number < Int32.max, "a table of numbers holds up to 2³¹ − 1")
        let slot = slot(hash: hash, isKey: isKey)
        let replaced = table[slot] >= 0
        if !replaced { count += 1 }
        table[slot] = Int32(number)
        if count * 2 > table.count { rehash(to: table.count * 2, hashOf: hashOf) }
        return replaced
    }

    @inlinable package mutating func reserveCapacity(_ count: Int, hashOf: (Int) -> Int) {
        var size = table.count
        while size < count * 2 { size *= 2 }
        if size > table.count { rehash(to: size, hashOf: hashOf) }
    }

    /// The slot that holds the number of the key, or the empty one it would go in.
    @inlinable func slot(hash: Int, isKey: (Int) -> Bool) -> Int {
        let mask = table.count - 1
        var slot = hash & mask
        while table[slot] >= 0, !isKey(Int(table[slot])) { slot = (slot + 1) & mask }
        return slot
    }

    @inlinable mutating func rehash(to size: Int, hashOf: (Int) -> Int) {
        let numbers = table.filter { $0 >= 0 }
        table = [Int32](repeating: -1, count: size)
        let mask = size - 1
        for number in numbers {
            var slot = hashOf(Int(number)) & mask
            while table[slot] >= 0 { slot = (slot + 1) & mask }
            table[slot] = number
        }
    }
}

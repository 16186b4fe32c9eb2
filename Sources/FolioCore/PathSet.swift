import Foundation

/// A set of paths held as one buffer of their bytes, found through a table of their numbers by
/// hash: a path is its bytes and 8 more, where a `Set<String>` holds each as a string of its own
/// on the heap and a slot of the set's.
public struct PathSet: Sendable, ExpressibleByArrayLiteral {
    private var bytes: [UInt8] = []
    /// Where each path starts in `bytes`; it ends where the next starts.
    private var starts: [UInt32] = []
    /// Each slot a path's number in `starts`, or -1; a power of two long, at most half full.
    private var table = [Int32](repeating: -1, count: 16)

    public init() {}

    public init(_ paths: some Sequence<String>) {
        for path in paths { insert(path) }
    }

    public init(arrayLiteral paths: String...) {
        self.init(paths)
    }

    public var count: Int { starts.count }

    package mutating func reserveCapacity(_ count: Int) {
        starts.reserveCapacity(count)
        bytes.reserveCapacity(count * 40)
        if table.count < count * 2 { rehash(to: Self.tableSize(for: count)) }
    }

    @discardableResult
    public mutating func insert(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { key in
            let (slot, found) = find(key)
            guard !found else { return false }
            precondition(bytes.count + key.count < UInt32.max && starts.count < Int32.max, "a set of paths fills 4 GB")
            table[slot] = Int32(starts.count)
            starts.append(UInt32(bytes.count))
            bytes.append(contentsOf: key)
            if starts.count * 2 > table.count { rehash(to: table.count * 2) }
            return true
        }
    }

    public func contains(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { find($0).found }
    }

    /// The slot that holds `key`, or the empty one it would go in.
    private func find(_ key: UnsafeBufferPointer<UInt8>) -> (slot: Int, found: Bool) {
        let mask = table.count - 1
        var slot = Int(truncatingIfNeeded: Self.hash(UnsafeRawBufferPointer(key))) & mask
        while true {
            let number = table[slot]
            if number < 0 { return (slot, false) }
            if matches(Int(number), key) { return (slot, true) }
            slot = (slot + 1) & mask
        }
    }

    private func matches(_ number: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = Int(starts[number])
        let end = number + 1 < starts.count ? Int(starts[number + 1]) : bytes.count
        guard end - start == key.count else { return false }
        return bytes.withUnsafeBufferPointer { key.count == 0 || memcmp($0.baseAddress! + start, key.baseAddress!, key.count) == 0 }
    }

    private mutating func rehash(to size: Int) {
        table = [Int32](repeating: -1, count: size)
        let mask = size - 1
        bytes.withUnsafeBytes { all in
            for number in starts.indices {
                let start = Int(starts[number])
                let end = number + 1 < starts.count ? Int(starts[number + 1]) : all.count
                var slot = Int(truncatingIfNeeded: Self.hash(UnsafeRawBufferPointer(rebasing: all[start..<end]))) & mask
                while table[slot] >= 0 { slot = (slot + 1) & mask }
                table[slot] = Int32(number)
            }
        }
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

extension PathSet: Sequence {
    /// The paths, in the order they were first inserted.
    public struct Iterator: IteratorProtocol {
        fileprivate let set: PathSet
        fileprivate var number = 0

        public mutating func next() -> String? {
            guard number < set.starts.count else { return nil }
            defer { number += 1 }
            return set.path(number)
        }
    }

    public func makeIterator() -> Iterator { Iterator(set: self) }

    public var underestimatedCount: Int { count }

    private func path(_ number: Int) -> String {
        let start = Int(starts[number])
        let end = number + 1 < starts.count ? Int(starts[number + 1]) : bytes.count
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}

/// A set of paths known by a 64-bit hash of each, sorted: 8 bytes a path, where a `PathSet`
/// holds its bytes. It says yes to a path not in it only when that path's hash is one of theirs
/// (for the largest sites, a chance in some ten million million): use it for what is kept, never
/// for what is deleted.
public struct PathHashes: Sendable, ExpressibleByArrayLiteral {
    private var hashes: [UInt64] = []

    public init(_ paths: some Sequence<String>) {
        hashes = paths.map(Self.hash)
        putInOrder()
    }

    public init(arrayLiteral paths: String...) {
        self.init(paths)
    }

    /// Paths' hashes made elsewhere (`hash(_:)`, on every core), in any order.
    package mutating func insert(hashes more: [UInt64]) {
        hashes += more
    }

    /// Sorted, each hash once: done after the last insert, before the first `contains`.
    package mutating func putInOrder() {
        hashes.sort()
        var last: UInt64?
        hashes.removeAll { hash in
            defer { last = hash }
            return hash == last
        }
    }

    public func contains(_ path: String) -> Bool {
        hashes.sortedIndex(of: Self.hash(path)) != nil
    }

    package static func hash(_ path: String) -> UInt64 {
        var path = path
        return path.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }

    /// The hash of a path's bytes.
    package static func hash(_ path: UnsafeRawBufferPointer) -> UInt64 {
        ContentHash.hash(path, seed: 0x6D65_6469_61)
    }
}

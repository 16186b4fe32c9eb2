import Foundation

/// A set of paths held as one buffer of their bytes, found through a table of their numbers by
/// hash (a `StringTable`): a path is its bytes and 8 to 12 more, where a `Set<String>` holds each
/// as a string of its own on the heap and a slot of the set's.
public struct PathSet: Sendable, ExpressibleByArrayLiteral {
    private var paths = StringTable()

    public init() {}

    public init(_ paths: some Sequence<String>) {
        for path in paths { insert(path) }
    }

    public init(arrayLiteral paths: String...) {
        self.init(paths)
    }

    public var count: Int { paths.count }

    package mutating func reserveCapacity(_ count: Int) {
        paths.reserveCapacity(count, byteCount: count * 40)
    }

    @discardableResult
    public mutating func insert(_ path: String) -> Bool {
        paths.insert(path).inserted
    }

    public func contains(_ path: String) -> Bool {
        paths.number(of: path) != nil
    }
}

extension PathSet: Sequence {
    /// The paths, in the order they were first inserted.
    public struct Iterator: IteratorProtocol {
        fileprivate let set: PathSet
        fileprivate var number = 0

        public mutating func next() -> String? {
            guard number < set.count else { return nil }
            defer { number += 1 }
            return set.paths[number]
        }
    }

    public func makeIterator() -> Iterator { Iterator(set: self) }

    public var underestimatedCount: Int { count }
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

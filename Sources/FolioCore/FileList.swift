import Foundation

/// The files of a walk, in its order, held as few arrays rather than an entry each: every path's
/// bytes one after another in one buffer, and each file's stamp and kind beside. A walk of a
/// large library lists a file for every photo and is held until its photos are in the model; an
/// entry of its own for each (`FileEntry`, its path a string of its own) is about twice the size.
///
/// Read as a collection it gives `FileEntry` values, each made when asked for (its path a new
/// string). Passes over every file read what they need where it lies: `path(at:)`,
/// `withPathBytes(at:_:)`, `stamp(at:)`, `isLink(at:)`.
public struct FileList: Sendable, RandomAccessCollection, Equatable {
    /// Every path's UTF-8, one after another.
    private var bytes: [UInt8] = []
    /// Where each path's bytes end in `bytes` (the next one's start): four bytes a path, from
    /// where its block of `blockSize` paths starts (`blockStarts`), not eight from the start.
    private var ends: [UInt32] = []
    /// Where each block of paths starts in `bytes`.
    private var blockStarts: [Int] = []
    /// Paths a block: to pass 4 GiB, each path of a block would have to average 64 KiB.
    private static let blockSize = 1 << 16
    /// A regular file's size and modification time, when the walk learnt them.
    private var stamps: [Stamp] = []
    private var kinds: [Kind] = []

    private struct Stamp {
        var size: Int
        /// The date's own number (since 2001), so the date comes back the same to the bit.
        var modified: Double
    }

    private enum Kind: UInt8 {
        case file, fileWithStamp, link
    }

    public init() {}

    public init(_ entries: some Sequence<FileEntry>) {
        for entry in entries { append(entry) }
    }

    public mutating func append(_ entry: FileEntry) {
        var path = entry.path
        path.withUTF8 { appendPath($0) }
        stamps.append(Stamp(size: entry.stamp?.size ?? 0, modified: entry.stamp?.modified.timeIntervalSinceReferenceDate ?? 0))
        kinds.append(entry.isLink ? .link : entry.stamp == nil ? .file : .fileWithStamp)
    }

    /// Appends the file at `index` of `other`, its path's bytes copied as they are.
    public mutating func append(from other: FileList, at index: Int) {
        other.withPathBytes(at: index) { appendPath($0) }
        stamps.append(other.stamps[index])
        kinds.append(other.kinds[index])
    }

    private mutating func appendPath(_ path: UnsafeBufferPointer<UInt8>) {
        if ends.count % Self.blockSize == 0 { blockStarts.append(bytes.count) }
        bytes.append(contentsOf: path)
        ends.append(UInt32(bytes.count - blockStarts[blockStarts.count - 1]))
    }

    /// Where the path at `index` ends in `bytes`.
    private func end(_ index: Int) -> Int {
        blockStarts[index / Self.blockSize] + Int(ends[index])
    }

    public mutating func reserveCapacity(_ count: Int, pathBytes: Int) {
        bytes.reserveCapacity(pathBytes)
        ends.reserveCapacity(count)
        blockStarts.reserveCapacity(count / Self.blockSize + 1)
        stamps.reserveCapacity(count)
        kinds.reserveCapacity(count)
    }

    /// The bytes of all the paths.
    public var pathByteCount: Int { bytes.count }

    public var startIndex: Int { 0 }
    public var endIndex: Int { ends.count }

    public subscript(index: Int) -> FileEntry {
        FileEntry(path: path(at: index), isLink: isLink(at: index), stamp: stamp(at: index))
    }

    /// The path of the file at `index`, as a new string.
    public func path(at index: Int) -> String {
        withPathBytes(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Lends `body` the bytes of the path at `index`, where they lie.
    public func withPathBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let start = index == 0 ? 0 : end(index - 1)
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start..<end(index)])) }
    }

    /// Whether the path at `index` is `path`, byte for byte.
    public func pathIs(_ path: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        withPathBytes(at: index) { $0.count == path.count && (path.isEmpty || memcmp($0.baseAddress!, path.baseAddress!, path.count) == 0) }
    }

    public func isLink(at index: Int) -> Bool { kinds[index] == .link }

    public func stamp(at index: Int) -> FileStamp? {
        guard kinds[index] == .fileWithStamp else { return nil }
        let stamp = stamps[index]
        return FileStamp(size: stamp.size, modified: Date(timeIntervalSinceReferenceDate: stamp.modified))
    }

    /// Sorted by path as strings compare (canonical equivalence), where the bytes' order is not it.
    public mutating func sortByPath() {
        let paths = indices.map(path(at:))
        let order = indices.sorted { paths[$0] < paths[$1] }
        guard order != Array(indices) else { return }
        var sorted = FileList()
        sorted.reserveCapacity(count, pathBytes: bytes.count)
        for index in order { sorted.append(from: self, at: index) }
        self = sorted
    }

    public static func == (a: FileList, b: FileList) -> Bool {
        a.elementsEqual(b)
    }
}

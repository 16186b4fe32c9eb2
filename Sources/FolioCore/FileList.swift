import Foundation

/// The files of a walk, in its order, held as few arrays rather than an entry each: every file's
/// name (its path after its folder) one after another in one buffer, each run of files in one
/// folder that folder's path once, and each file's stamp and kind beside. A walk of a large
/// library lists a file for every photo and is held until its photos are in the model; an entry
/// of its own for each (`FileEntry`, its path a string of its own) is about twice the size, and
/// its folders are most of each path.
///
/// Read as a collection it gives `FileEntry` values, each made when asked for (its path a new
/// string). Passes over every file read what they need without a string: `path(at:)`,
/// `withPathBytes(at:_:)`, `withNameBytes(at:_:)`, `pathIs(_:at:)`, `stamp(at:)`, `isLink(at:)`.
public struct FileList: Sendable, RandomAccessCollection, Equatable {
    /// Every file's name's UTF-8, one after another.
    private var names: [UInt8] = []
    /// Where each name ends in `names` (the next one's start): four bytes a file, from where its
    /// block of `blockSize` names starts (`blockStarts`), not eight from the start.
    private var ends: [UInt32] = []
    /// Where each block of names starts in `names`.
    private var blockStarts: [Int] = []
    /// Names a block: to pass 4 GiB, each name of a block would have to average 64 KiB.
    private static let blockSize = 1 << 16
    /// The folders of the runs of files, each with its "/", one after another: a walk lists a
    /// folder's files together, so a folder is held once (once a run where its subfolders' files
    /// come between its own).
    private var folders: [UInt8] = []
    /// Where each run's first file is, and where its folder ends in `folders`.
    private var runStarts: [Int] = []
    private var folderEnds: [Int] = []
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

    /// Appends the file at `index` of `other`.
    public mutating func append(from other: FileList, at index: Int) {
        other.withPathBytes(at: index) { appendPath($0) }
        stamps.append(other.stamps[index])
        kinds.append(other.kinds[index])
    }

    private mutating func appendPath(_ path: UnsafeBufferPointer<UInt8>) {
        let cut = path.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        let folder = UnsafeBufferPointer(rebasing: path[..<cut])
        if runStarts.isEmpty || !same(folder, folderBytes(ofRun: runStarts.count - 1)) {
            runStarts.append(ends.count)
            folders.append(contentsOf: folder)
            folderEnds.append(folders.count)
        }
        if ends.count % Self.blockSize == 0 { blockStarts.append(names.count) }
        names.append(contentsOf: path[cut...])
        ends.append(UInt32(names.count - blockStarts[blockStarts.count - 1]))
    }

    /// Where the name at `index` lies in `names`.
    private func nameRange(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : end(index - 1))..<end(index)
    }

    private func end(_ index: Int) -> Int {
        blockStarts[index / Self.blockSize] + Int(ends[index])
    }

    /// The run the file at `index` is in: the last one starting at or before it.
    private func run(of index: Int) -> Int {
        var (low, high) = (0, runStarts.count)
        while high - low > 1 {
            let middle = (low + high) / 2
            if runStarts[middle] <= index { low = middle } else { high = middle }
        }
        return low
    }

    private func folderBytes(ofRun run: Int) -> Range<Int> {
        (run == 0 ? 0 : folderEnds[run - 1])..<folderEnds[run]
    }

    private func same(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        folders.withUnsafeBufferPointer { Self.same(bytes, UnsafeBufferPointer(rebasing: $0[range])) }
    }

    private static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }

    /// Room for `count` files whose names (their paths after their folders) take `nameBytes`.
    public mutating func reserveCapacity(_ count: Int, nameBytes: Int) {
        names.reserveCapacity(nameBytes)
        ends.reserveCapacity(count)
        blockStarts.reserveCapacity(count / Self.blockSize + 1)
        stamps.reserveCapacity(count)
        kinds.reserveCapacity(count)
    }

    /// The bytes of all the names.
    public var nameByteCount: Int { names.count }

    public var startIndex: Int { 0 }
    public var endIndex: Int { ends.count }

    public subscript(index: Int) -> FileEntry {
        FileEntry(path: path(at: index), isLink: isLink(at: index), stamp: stamp(at: index))
    }

    /// The path of the file at `index`, as a new string.
    public func path(at index: Int) -> String {
        withPathBytes(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Lends `body` the bytes of the path at `index`: its folder's and its name's, put together.
    public func withPathBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let (folder, name) = (folderBytes(ofRun: run(of: index)), nameRange(index))
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: folder.count + name.count) { path in
            folders.withUnsafeBufferPointer { _ = UnsafeMutableBufferPointer(rebasing: path[..<folder.count]).initialize(from: $0[folder]) }
            names.withUnsafeBufferPointer { _ = UnsafeMutableBufferPointer(rebasing: path[folder.count...]).initialize(from: $0[name]) }
            return try body(UnsafeBufferPointer(path))
        }
    }

    /// Lends `body` the bytes of the name at `index` (its path after the last "/") where they lie:
    /// all a pass over every file needs to tell a file's kind by its extension, with no folder
    /// found and put in front of it.
    public func withNameBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try names.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[nameRange(index)])) }
    }

    /// Whether the path at `index` is `path`, byte for byte.
    public func pathIs(_ path: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let (folder, name) = (folderBytes(ofRun: run(of: index)), nameRange(index))
        guard path.count == folder.count + name.count else { return false }
        return same(UnsafeBufferPointer(rebasing: path[..<folder.count]), folder)
            && names.withUnsafeBufferPointer { Self.same(UnsafeBufferPointer(rebasing: path[folder.count...]), UnsafeBufferPointer(rebasing: $0[name])) }
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
        sorted.reserveCapacity(count, nameBytes: names.count)
        for index in order { sorted.append(from: self, at: index) }
        self = sorted
    }

    public static func == (a: FileList, b: FileList) -> Bool {
        a.elementsEqual(b)
    }
}

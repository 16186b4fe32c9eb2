import FolioCore
import Foundation

/// Catalogs as they were last read (`folio-cache/catalogs/`), so that one that did not change is
/// not parsed again. A reading is named by the Folio that read it, the catalog's path and a hash
/// of its bytes; one of a catalog written well before it was read (`settling`), by its size and
/// modification time instead, and that catalog is not even read. "Well before": a catalog written
/// again, as long, within the second it was read would look untouched on a file system that keeps
/// times to the second (git's "racily clean" files). What depends on the files around a record (a
/// path with stray spaces finding its file) is decided again on every build.
package struct CatalogCache: Sendable {
    let folder: URL
    /// Which Folio reads: a new one reads every catalog again.
    let reader: String
    /// Where the readings are written.
    var disk: any Disk = LocalDisk()
    /// Where a build's writes wait their turn, behind its critical path; written at once when nil.
    let writes: Writes?

    package init(folder: URL, reader: String, disk: any Disk = LocalDisk(), writes: Writes? = nil) {
        self.folder = folder
        self.reader = reader
        self.disk = disk
        self.writes = writes
    }

    /// A build's writes to the cache, one after the other on a queue of their own: a large
    /// catalog's reading takes a core a while to write, and nothing of the build waits for it
    /// but a reading of the cache (`load`, `last`) and the build's end (`finish`).
    package final class Writes: @unchecked Sendable {
        private let queue = DispatchQueue(label: "folio.catalog-cache")
        private let group = DispatchGroup()
        private let lock = NSLock()
        /// The names of the files being written: a reading of one of them waits for it.
        private var pending: [String: Int] = [:]

        package init() {}

        /// Writes `names` by `work`, after the writes asked for before.
        func add(_ names: [String], _ work: @escaping @Sendable () -> Void) {
            lock.withLock { for name in names { pending[name, default: 0] += 1 } }
            queue.async(group: group) { [self] in
                work()
                lock.withLock {
                    for name in names {
                        pending[name]! -= 1
                        if pending[name] == 0 { pending[name] = nil }
                    }
                }
            }
        }

        /// Waits for the writes of `name`, if any are still to be done (and so for those before).
        func finish(_ name: String) {
            if lock.withLock({ pending[name] != nil }) { group.wait() }
        }

        /// Waits for every write asked for so far.
        package func finish() {
            group.wait()
        }
    }

    /// How long before its reading a catalog must have been written to be known by its stamp:
    /// more than the coarsest file times in use (FAT's two seconds).
    static let settling: TimeInterval = 3

    func key(catalog: String, data: Data) -> String {
        ContentHash.hex("\(reader)\u{1e}\(catalog)") + "-" + ContentHash.hex(data)
    }

    /// The name of the reading of a catalog with `stamp` that is settled when read at `now`;
    /// nil when it was written too recently to be known by its stamp.
    func key(catalog: String, stamp: FileStamp, now: Date) -> String? {
        guard stamp.modified < now.addingTimeInterval(-Self.settling) else { return nil }
        return "s" + ContentHash.hex("\(reader)\u{1e}\(catalog)") + "-" + ContentHash.hex(stamp.text)
    }

    /// The reading kept under `key`: the reading itself, or the one a patch names with the
    /// patch's elements put in (`CatalogReader.Result.base`).
    package func load(_ key: String) -> CatalogReader.Result? {
        guard let data = mapped(key) else { return nil }
        guard let patch = Reader.patch(of: data) else {
            var result = Reader.result(of: data)
            result?.base = .init(key: key)
            return result
        }
        guard patch.base != key, let baseData = mapped(patch.base), var result = Reader.result(of: baseData) else { return nil }
        for element in patch.elements {
            guard result.put(element.reading, element: element.index, hash: element.hash, length: element.length) else { return nil }
        }
        result.base = .init(key: patch.base, changed: IndexSet(patch.elements.map(\.index)))
        return result
    }

    private func mapped(_ key: String) -> Data? {
        writes?.finish(key)
        // Mapped, not copied: a reading is only ever replaced whole (written beside and renamed
        // over), never changed in place, so the pages mapped stay the ones read.
        return try? Data(contentsOf: folder.appendingPathComponent(key), options: .alwaysMapped)
    }

    /// The reading `result`, kept as `key`, is kept as a patch of: a large one taken from the
    /// cache with few of its elements changed since is kept as those elements alone, and a large
    /// catalog edited costs the cache what the edit changed. A small one is written whole, in one
    /// file instead of two.
    static func patchBase(of result: CatalogReader.Result, keptAs key: String) -> CatalogReader.Result.Base? {
        guard let base = result.base, base.key != key, result.elements.count >= patchedFrom,
              base.changed.count <= result.elements.count / 8 else { return nil }
        return base
    }

    /// How many elements a reading must have to be kept as a patch.
    static let patchedFrom = 1_024

    /// Best effort: a cache that cannot be written only costs the parse again. The catalog's
    /// pointer names the reading from then on (`last(of:)`).
    func store(_ result: CatalogReader.Result, key: String, of catalog: String) {
        guard let writes else { return write(result, key: key, of: catalog) }
        writes.add([key, pointer(of: catalog)]) { [self] in write(result, key: key, of: catalog) }
    }

    private func write(_ result: CatalogReader.Result, key: String, of catalog: String) {
        var writer: Writer
        if let base = Self.patchBase(of: result, keptAs: key) {
            writer = Writer(room: 256 + base.changed.count * 640)
            writer.patch(of: result, base: base)
        } else {
            writer = Writer(room: 64 + result.records.count * 320)
            writer.result(result)
        }
        try? disk.makeFolders(folder.path)
        try? disk.writeFile(writer.bytes, to: folder.appendingPathComponent(key).path, atomically: true)
        try? disk.writeFile(Data(key.utf8), to: folder.appendingPathComponent(pointer(of: catalog)).path, atomically: true)
    }

    /// Makes the pointer of `catalog` name `key`, the reading it was found by its bytes to be: the
    /// pointer may name one kept since (a patch of which that reading is the base), which this
    /// build forgets (`prune`), and the next edit would have no last reading to read again from.
    func point(_ catalog: String, at key: String) {
        let name = pointer(of: catalog)
        guard lastKey(of: catalog) != key else { return }
        let point: @Sendable () -> Void = { [self] in
            try? disk.writeFile(Data(key.utf8), to: folder.appendingPathComponent(name).path, atomically: true)
        }
        guard let writes else { return point() }
        writes.add([name], point)
    }

    /// The name of the file that names the last reading kept of `catalog`, whatever its bytes.
    func pointer(of catalog: String) -> String {
        "p" + ContentHash.hex("\(reader)\u{1e}\(catalog)")
    }

    /// The last reading kept of `catalog`, when the catalog has changed since: what its elements
    /// that did not change are taken from (`CatalogReader.reread`), and where they are found
    /// (`XMLPlist.elements(_:knowing:)`).
    func last(of catalog: String) -> CatalogReader.Result? {
        lastKey(of: catalog).flatMap(load)
    }

    /// The name the pointer of `catalog` gives, when it names a file in the cache's folder.
    private func lastKey(of catalog: String) -> String? {
        writes?.finish(pointer(of: catalog))
        guard let key = try? String(contentsOf: folder.appendingPathComponent(pointer(of: catalog)), encoding: .utf8),
              !key.contains("/"), !key.hasPrefix(".") else { return nil }
        return key
    }

    /// Forgets the readings of catalogs that are no longer as they were.
    func prune(keeping keys: Set<String>) {
        guard let writes else { return pruneNow(keeping: keys) }
        writes.add([]) { [self] in pruneNow(keeping: keys) }
    }

    private func pruneNow(keeping keys: Set<String>) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where !keys.contains(name) {
            try? disk.removeTree(folder.appendingPathComponent(name).path)
        }
    }
}

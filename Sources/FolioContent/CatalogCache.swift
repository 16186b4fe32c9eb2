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
            let index = element.index
            guard result.put(element.reading, element: index, hash: element.hash, length: element.length) else { return nil }
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
        writes?.finish(name)
        guard (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) != key else { return }
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
        writes?.finish(pointer(of: catalog))
        guard let key = try? String(contentsOf: folder.appendingPathComponent(pointer(of: catalog)), encoding: .utf8),
              !key.contains("/"), !key.hasPrefix(".") else { return nil }
        return load(key)
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

    /// The first line of a kept reading; another is not read (a reading without its records'
    /// fingerprints, "folio-catalog 1", its elements, "folio-catalog 2", their lengths,
    /// "folio-catalog 3", or where its chunks of records begin, "folio-catalog 4", is parsed
    /// again once).
    private static let heading = Array("folio-catalog 5\n".utf8)
    /// A reading's records are written in chunks of this many, each found by where it begins,
    /// so that a large one is read on every core.
    static let recordsPerChunk = 4_096
    /// The first line of a patch: the name of the reading it changes, then each element changed
    /// (its index, hash and length, its records and its issues).
    private static let patchHeading = Array("folio-catalog-patch 1\n".utf8)

    /// Length-prefixed values, in the order `Reader` takes them back, stored straight into memory
    /// of its own (grown by doubling, freed with the writer): a reading is a value or two for every
    /// field of every record, each too small for an array's append to be cheap beside it.
    private struct Writer: ~Copyable {
        private var base: UnsafeMutableRawPointer
        private var capacity: Int
        private var count = 0

        init(room: Int) {
            capacity = Swift.max(room, 64)
            base = .allocate(byteCount: capacity, alignment: 8)
        }

        deinit { base.deallocate() }

        var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

        private mutating func room(for needed: Int) {
            guard count + needed > capacity else { return }
            let grown = Swift.max(capacity * 2, count + needed)
            let moved = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
            moved.copyMemory(from: base, byteCount: count)
            base.deallocate()
            (base, capacity) = (moved, grown)
        }

        private mutating func raw(_ value: UnsafeRawBufferPointer) {
            room(for: value.count)
            if let start = value.baseAddress { (base + count).copyMemory(from: start, byteCount: value.count) }
            count += value.count
        }

        mutating func int(_ value: Int) {
            room(for: 8)
            set(value, at: count)
            count += 8
        }

        /// `value` written over the int at `position`.
        mutating func set(_ value: Int, at position: Int) {
            (base + position).storeBytes(of: UInt64(bitPattern: Int64(value)).littleEndian, as: UInt64.self)
        }

        mutating func text(_ value: String?) {
            guard var value else { return int(-1) }
            value.withUTF8 { utf8 in
                int(utf8.count)
                raw(UnsafeRawBufferPointer(utf8))
            }
        }

        mutating func number(_ value: Double?) {
            guard let value else { return int(-1) }
            int(0)
            int(Int(Int64(bitPattern: value.bitPattern)))
        }

        mutating func result(_ result: CatalogReader.Result) {
            CatalogCache.heading.withUnsafeBytes { raw($0) }
            int(result.records.count)
            // Where each chunk of records begins, written over as the chunk is.
            let chunks = stride(from: 0, to: result.records.count, by: CatalogCache.recordsPerChunk)
            int(chunks.underestimatedCount)
            let table = count
            for _ in chunks { int(0) }
            for index in result.records.indices {
                if index % CatalogCache.recordsPerChunk == 0 { set(count, at: table + 8 * (index / CatalogCache.recordsPerChunk)) }
                record(result.records[index], trimmed: result.trimmedPaths[index], fingerprint: result.fingerprints[index])
            }
            int(result.issues.count)
            for issue in result.issues { self.issue(issue) }
            int(result.elements.count)
            for element in result.elements {
                int(Int(Int64(bitPattern: element.hash)))
                int(element.length)
                int(element.records)
                int(element.issues)
            }
        }

        mutating func patch(of result: CatalogReader.Result, base: CatalogReader.Result.Base) {
            CatalogCache.patchHeading.withUnsafeBytes { raw($0) }
            text(base.key)
            int(base.changed.count)
            for index in base.changed {
                let (element, span) = (result.elements[index], result.span(of: index))
                int(index)
                int(Int(Int64(bitPattern: element.hash)))
                int(element.length)
                int(span.records.count)
                for at in span.records { record(result.records[at], trimmed: result.trimmedPaths[at], fingerprint: result.fingerprints[at]) }
                int(span.issues.count)
                for at in span.issues { issue(result.issues[at]) }
            }
        }

        private mutating func record(_ record: CatalogRecord, trimmed: String?, fingerprint: UInt64) {
            text(record.location)
            text(record.path)
            text(trimmed)
            text(record.name)
            text(record.user)
            text(record.description)
            text(record.place)
            text(record.region)
            number(record.latitude)
            number(record.longitude)
            number(record.taken?.timeIntervalSince1970)
            number(record.uploaded?.timeIntervalSince1970)
            int(record.favorite ? 1 : 0)
            int(record.tags.count)
            for tag in record.tags { text(tag) }
            int(Int(Int64(bitPattern: fingerprint)))
        }

        private mutating func issue(_ issue: BuildIssue) {
            int(issue.severity == .error ? 1 : 0)
            text(issue.path)
            text(issue.reason)
        }
    }

    /// Reads what `Writer` wrote, straight from the bytes; nil at the first thing out of place (a
    /// file cut short, another format), and the catalog is parsed again.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        static func result(of data: Data) -> CatalogReader.Result? {
            data.withUnsafeBytes { bytes in
                var reader = Reader(bytes: bytes)
                return reader.result()
            }
        }

        mutating func int() -> Int? {
            guard bytes.count - offset >= 8 else { return nil }
            let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
            return Int(Int64(bitPattern: UInt64(littleEndian: value)))
        }

        /// nil when the data is broken; .some(nil) for a value that was absent.
        mutating func text() -> String?? {
            guard let count = int() else { return nil }
            if count == -1 { return .some(nil) }
            guard count >= 0, bytes.count - offset >= count else { return nil }
            let value = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]), as: UTF8.self)
            offset += count
            return .some(value)
        }

        mutating func number() -> Double?? {
            guard let marker = int() else { return nil }
            if marker == -1 { return .some(nil) }
            guard marker == 0, let bits = int() else { return nil }
            return .some(Double(bitPattern: UInt64(bitPattern: Int64(bits))))
        }

        mutating func result() -> CatalogReader.Result? {
            let header = CatalogCache.heading
            guard bytes.count >= header.count, bytes.prefix(header.count).elementsEqual(header) else { return nil }
            offset = header.count
            guard let count = int(), count >= 0, let chunkCount = int(),
                  chunkCount == (count + CatalogCache.recordsPerChunk - 1) / CatalogCache.recordsPerChunk else { return nil }
            var starts: [Int] = []
            for _ in 0..<chunkCount {
                guard let start = int() else { return nil }
                starts.append(start)
            }
            var result = CatalogReader.Result()
            guard starts.first ?? offset == offset, let read = records(count, from: starts) else { return nil }
            (result.records, result.trimmedPaths, result.fingerprints) = read
            guard let issueCount = int(), issueCount >= 0 else { return nil }
            for _ in 0..<issueCount {
                guard let issue = issue() else { return nil }
                result.issues.append(issue)
            }
            guard let elementCount = int(), elementCount >= 0 else { return nil }
            var (records, issues) = (0, 0)
            for _ in 0..<elementCount {
                // Each element's counts run on from the last, within the reading's own.
                guard let hash = int(), let length = int(), length > 0, let recordsEnd = int(), let issuesEnd = int(),
                      recordsEnd >= records, issuesEnd >= issues, recordsEnd <= result.records.count, issuesEnd <= result.issues.count
                else { return nil }
                (records, issues) = (recordsEnd, issuesEnd)
                result.elements.append(CatalogReader.Result.Element(hash: UInt64(bitPattern: Int64(hash)), length: length,
                                                                    records: records, issues: issues))
            }
            return offset == bytes.count ? result : nil
        }

        /// A patch's base and changed elements, in the order of their indices; nil for anything
        /// but a whole patch.
        static func patch(of data: Data) -> (base: String, elements: [Patched])? {
            data.withUnsafeBytes { bytes in
                var reader = Reader(bytes: bytes)
                return reader.patch()
            }
        }

        struct Patched {
            var index: Int
            var hash: UInt64
            var length: Int
            var reading: CatalogReader.Result
        }

        mutating func patch() -> (base: String, elements: [Patched])? {
            let header = CatalogCache.patchHeading
            guard bytes.count >= header.count, bytes.prefix(header.count).elementsEqual(header) else { return nil }
            offset = header.count
            guard let base = text(), let base, !base.contains("/"), !base.hasPrefix("."), let count = int(), count >= 0 else { return nil }
            var elements: [Patched] = []
            for _ in 0..<count {
                guard let index = int(), index > (elements.last?.index ?? -1), let hash = int(), let length = int(), length > 0,
                      let records = int(), records >= 0 else { return nil }
                var reading = CatalogReader.Result()
                for _ in 0..<records {
                    guard let (record, trimmed, fingerprint) = record() else { return nil }
                    reading.records.append(record)
                    reading.trimmedPaths.append(trimmed)
                    reading.fingerprints.append(fingerprint)
                }
                guard let issues = int(), issues >= 0 else { return nil }
                for _ in 0..<issues {
                    guard let issue = issue() else { return nil }
                    reading.issues.append(issue)
                }
                elements.append(Patched(index: index, hash: UInt64(bitPattern: Int64(hash)), length: length, reading: reading))
            }
            return offset == bytes.count ? (base, elements) : nil
        }

        /// `count` records, chunk by chunk on every core from where each begins (`starts`), each
        /// put straight in its place; nil unless each chunk ends where the next begins. The
        /// reading goes on after the last.
        mutating func records(_ count: Int, from starts: [Int]) -> ([CatalogRecord], [String?], [UInt64])? {
            let per = CatalogCache.recordsPerChunk
            // Where each chunk ended, or -1 where it did not read; its records' places are then
            // filled all the same (every place of an array made must be), and the whole is nil.
            var ends = [Int](repeating: -1, count: starts.count)
            var (trimmed, fingerprints): ([String?], [UInt64]) = ([], [])
            // Read, never written, by every chunk.
            nonisolated(unsafe) let bytes = bytes
            let records = [CatalogRecord](unsafeUninitializedCapacity: count) { recordPlaces, recordsMade in
                trimmed = [String?](unsafeUninitializedCapacity: count) { trimmedPlaces, trimmedMade in
                    fingerprints = [UInt64](unsafeUninitializedCapacity: count) { fingerprintPlaces, fingerprintsMade in
                        ends.withUnsafeMutableBufferPointer { endPlaces in
                            nonisolated(unsafe) let places = (recordPlaces.baseAddress, trimmedPlaces.baseAddress,
                                                              fingerprintPlaces.baseAddress, endPlaces.baseAddress)
                            DispatchQueue.concurrentPerform(iterations: starts.count) { chunk in
                                var reader = Reader(bytes: bytes, offset: starts[chunk])
                                var read = starts[chunk] >= 0
                                for index in (chunk * per)..<Swift.min(count, (chunk + 1) * per) {
                                    let record = read ? reader.record() : nil
                                    read = record != nil
                                    (places.0! + index).initialize(to: record?.0 ?? CatalogRecord(location: "", path: "", favorite: false, tags: []))
                                    (places.1! + index).initialize(to: record?.1)
                                    (places.2! + index).initialize(to: record?.2 ?? 0)
                                }
                                places.3![chunk] = read ? reader.offset : -1
                            }
                        }
                        fingerprintsMade = count
                    }
                    trimmedMade = count
                }
                recordsMade = count
            }
            guard zip(ends, starts.dropFirst() + [ends.last ?? offset]).allSatisfy({ $0 >= 0 && $0 == $1 }) else { return nil }
            offset = ends.last ?? offset
            return (records, trimmed, fingerprints)
        }

        private mutating func record() -> (CatalogRecord, String?, UInt64)? {
            guard let location = text(), let location, let path = text(), let path, let trimmed = text(),
                  let name = text(), let user = text(), let description = text(), let place = text(), let region = text(),
                  let latitude = number(), let longitude = number(), let taken = number(), let uploaded = number(),
                  let favorite = int(), let tagCount = int(), tagCount >= 0 else { return nil }
            var tags: [String] = []
            for _ in 0..<tagCount {
                guard let tag = text(), let tag else { return nil }
                tags.append(tag)
            }
            guard let fingerprint = int() else { return nil }
            let record = CatalogRecord(
                location: location, path: path, name: name, user: user, description: description,
                place: place, region: region, latitude: latitude, longitude: longitude,
                taken: taken.map(Date.init(timeIntervalSince1970:)), uploaded: uploaded.map(Date.init(timeIntervalSince1970:)),
                favorite: favorite == 1, tags: tags)
            return (record, trimmed, UInt64(bitPattern: Int64(fingerprint)))
        }

        private mutating func issue() -> BuildIssue? {
            guard let severity = int(), let path = text(), let path, let reason = text(), let reason else { return nil }
            return BuildIssue(severity: severity == 1 ? .error : .warning, path: path, reason: reason)
        }
    }
}

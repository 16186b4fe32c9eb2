import FolioCore
import Foundation

/// How a reading is kept: length-prefixed values, written and read back straight from memory.
extension CatalogCache {
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
    struct Writer: ~Copyable {
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
    struct Reader {
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
            // A record is fifteen values at least, each of eight bytes or more: no more can be
            // asked for than the bytes hold.
            guard let count = int(), count >= 0, count <= bytes.count / (15 * 8), let chunkCount = int(),
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

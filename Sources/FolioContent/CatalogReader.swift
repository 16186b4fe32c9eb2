import FolioCore
import Foundation

/// Reads a `*.plist` catalog (XML or binary) into records, reporting what is wrong with each
/// by the catalog's path, the record's index and the key.
package struct CatalogReader: Sendable {
    package let contentRoot: URL
    package let files: FileAccess
    /// Where catalogs that did not change are read from instead of parsed.
    var cache: CatalogCache?

    package init(contentRoot: URL, files: FileAccess, cache: CatalogCache? = nil) {
        self.contentRoot = contentRoot
        self.files = files
        self.cache = cache
    }

    package struct Result: Sendable {
        package var records: [CatalogRecord] = []
        var issues: [BuildIssue] = []
        /// Each record's path without spaces at either end, for a catalog typed by hand, when
        /// that differs from the path as written: the file it names if none has the name as
        /// written (which the file system decides on every build, so it is not cached).
        var trimmedPaths: [String?] = []
        /// Each record's fingerprint (`CatalogRecord.fingerprintValue`), worked out as the catalog
        /// is parsed and kept with its reading: a catalog taken from the cache is not hashed
        /// again, record by record, on every build.
        var fingerprints: [UInt64] = []
        /// Of an XML catalog, each element of its array as parsed: what the next reading of the
        /// catalog, changed, takes from this one for the elements whose bytes are the same
        /// (`reread`). Empty when the elements were not found by their markup.
        var elements: [Element] = []
        /// The names in the cache this reading is found by: its own, its catalog's pointer to it,
        /// and the reading it is kept as a patch of (`CatalogCache.patchBase(of:)`).
        var cacheKeys: [String] = []
        /// Of a reading taken from the cache and changed in place since (`rereadInPlace`): the
        /// reading kept there, by its name, and the elements changed from it. What lets the cache
        /// keep an edit of a large catalog as the elements it changed (`CatalogCache.store`).
        var base: Base?
        /// Of a catalog read again after an edit (`reread`), the records of the elements parsed
        /// anew: those a build's load keeps with their entries, so that its import need not read
        /// the catalog again for them. Not kept in the cache.
        var parsedAnew = IndexSet()

        /// An element of a catalog's array: the hash of its bytes and their length, and how many
        /// records and issues the elements up to it and it made.
        struct Element: Sendable, Equatable {
            var hash: UInt64
            var length: Int
            var records: Int
            var issues: Int
        }

        struct Base: Sendable, Equatable {
            var key: String
            var changed = IndexSet()
        }

        /// Where an element's records and issues are among the reading's.
        struct Span {
            var records: Range<Int>
            var issues: Range<Int>
        }

        /// Its elements as `XMLPlist.elements(_:knowing:)` looks for them in the catalog read again.
        var known: [XMLPlist.KnownElement] {
            elements.map { XMLPlist.KnownElement(length: $0.length, hash: $0.hash) }
        }

        /// The span of the element at `index`; of a reading without elements (an element parsed
        /// alone), all it holds.
        func span(of index: Int) -> Span {
            guard !elements.isEmpty else { return Span(records: records.indices, issues: issues.indices) }
            let before = index == 0 ? (records: 0, issues: 0) : (records: elements[index - 1].records, issues: elements[index - 1].issues)
            return Span(records: before.records..<elements[index].records, issues: before.issues..<elements[index].issues)
        }

        /// The records and issues of `with` (one element's) made the element at `index`, whose
        /// bytes are `length` long and hash to `hash`: in place of the one there, which must have
        /// made as many records and issues, or after the last. Standing at `place` (nil: where
        /// they say). False, and nothing changed, where they do not fit.
        mutating func put(_ with: Result, element index: Int, hash: UInt64, length: Int, at place: String? = nil) -> Bool {
            guard index < elements.count else {
                guard index == elements.count else { return false }
                append(with, with.span(of: 0), at: place)
                elements.append(Element(hash: hash, length: length, records: records.count, issues: issues.count))
                return true
            }
            let span = span(of: index)
            guard with.records.count == span.records.count, with.issues.count == span.issues.count else { return false }
            for (offset, at) in span.records.enumerated() {
                records[at] = with.records[offset]
                if let place { records[at].location = place }
                trimmedPaths[at] = with.trimmedPaths[offset]
                fingerprints[at] = with.fingerprints[offset]
            }
            for (offset, at) in span.issues.enumerated() {
                issues[at] = with.issues[offset]
                if let place { issues[at].path = place }
            }
            (elements[index].hash, elements[index].length) = (hash, length)
            return true
        }

        /// The records and issues of `span` in `reading` added at the end, standing at `place`
        /// (nil: where they say).
        mutating func append(_ reading: Result, _ span: Span, at place: String?) {
            for at in span.records {
                var record = reading.records[at]
                if let place { record.location = place }
                records.append(record)
                trimmedPaths.append(reading.trimmedPaths[at])
                fingerprints.append(reading.fingerprints[at])
            }
            for at in span.issues {
                var issue = reading.issues[at]
                if let place { issue.path = place }
                issues.append(issue)
            }
        }
    }

    /// The records of the catalog at `relativePath`, whose size and modification time the walk
    /// found to be `stamp` (nil: not known), read at `now`: from the cache when it has them (a
    /// settled catalog's without reading it: `CatalogCache`), else parsed.
    package func read(catalog relativePath: String, stamp: FileStamp? = nil, now: Date = Date()) -> Result {
        let shown = "content/\(relativePath)"
        let settled = stamp.flatMap { cache?.key(catalog: relativePath, stamp: $0, now: now) }
        var result: Result
        let key: String?
        if let settled, let cached = cache?.load(settled) {
            (result, key) = (cached, settled)
        } else {
            let url = contentRoot.appendingPathComponent(relativePath)
            if let size = stamp?.size ?? files.stamp(of: url)?.size, let refusal = PropertyListReading.refusal(size: size) {
                return Result(issues: [refusal.issue(shown)])
            }
            let data: Data
            do {
                data = try files.read(url)
            } catch {
                return Result(issues: [.error(shown, "not a readable property list (\(PropertyListReading.explain(error)))")])
            }
            // Known by its bytes (a reading kept before it settled), else parsed (element by element
            // where its markup allows, those the catalog's last reading had taken from there); kept
            // under the one name the next build looks for. By its stamp only when the file read is the one the walk
            // stamped: one written since would be kept under the stamp of what it replaced.
            let byBytes = cache?.key(catalog: relativePath, data: data)
            let settled = settled.flatMap { files.stamp(of: contentRoot.appendingPathComponent(relativePath)) == stamp ? $0 : nil }
            key = settled ?? byBytes
            if let byBytes, let cached = cache?.load(byBytes) {
                result = cached
                if let settled { cache?.store(result, key: settled, of: relativePath) } else { cache?.point(relativePath, at: byBytes) }
            } else {
                // A binary catalog has no elements to find, and its last reading is of no use.
                let binary = data.starts(with: XMLPlist.binaryMarker)
                let last = binary ? nil : cache?.last(of: relativePath)
                let elements = binary ? nil : XMLPlist.elements(data, knowing: last?.known ?? [])
                result = parse(data, catalog: relativePath, elements: elements, last: consume last)
                if let key { cache?.store(result, key: key, of: relativePath) }
            }
        }
        if let key, let cache {
            result.cacheKeys = [key, cache.pointer(of: relativePath)] + (CatalogCache.patchBase(of: result, keptAs: key).map { [$0.key] } ?? [])
        }
        for (index, trimmed) in result.trimmedPaths.enumerated() {
            if let trimmed, files.stamp(of: contentRoot.appendingPathComponent(result.records[index].path)) == nil {
                result.records[index].path = trimmed
                result.fingerprints[index] = result.records[index].fingerprintValue
            }
        }
        return result
    }

    /// The records of a catalog's bytes and what is wrong with them: all it says, nothing of the
    /// files around it. With the `elements` of its array (`XMLPlist.elements`), element by element
    /// (`reread`), taking those the `last` reading had from there: never the whole array's values
    /// at once, and each element's hash kept for the next reading.
    func parse(_ data: Data, catalog relativePath: String, elements: XMLPlist.Elements? = nil, last: consuming Result? = nil) -> Result {
        if let elements, let read = reread(data, elements, last: (consume last) ?? Result(), catalog: relativePath) { return read }
        return parseWhole(data, catalog: relativePath).result
    }

    /// The catalog's values read at once; `refused` when they would not read, and the catalog
    /// says only that.
    private func parseWhole(_ data: Data, catalog relativePath: String) -> (result: Result, refused: Bool) {
        var result = Result()
        let shown = "content/\(relativePath)"
        let plist: Any
        switch PropertyListReading.read(data) {
        case .success(let value): plist = value
        case .failure(let refusal):
            result.issues.append(refusal.issue(shown))
            return (result, true)
        }
        guard let array = plist as? [Any] else {
            result.issues.append(.error(shown, "a catalog must be an array of dictionaries, found \(Self.typeName(plist))"))
            return (result, false)
        }
        let folder = RelativePath(relativePath).folder
        for (index, element) in array.enumerated() {
            let place = "\(shown), record \(index)"
            guard let dictionary = element as? [String: Any] else {
                result.issues.append(.error(place, "expected a dictionary, found \(Self.typeName(element))"))
                continue
            }
            var fields = RecordFields(dictionary: dictionary, place: place)
            if let record = fields.record(folder: folder) {
                result.records.append(record)
                result.trimmedPaths.append(fields.trimmedPath)
                result.fingerprints.append(record.fingerprintValue)
            }
            result.issues += fields.issues
        }
        return (result, false)
    }

    /// The catalog whose array's `elements` are those of `data`, read from its `last` reading:
    /// each element whose bytes it had taken from there, at its new place, and each other parsed
    /// alone. The same as the whole parsed at once; nil where that is not sure (an element that
    /// does not parse as the one element of an array, or says anything of the catalog as a whole).
    func reread(_ data: Data, _ elements: XMLPlist.Elements, last: consuming Result, catalog relativePath: String) -> Result? {
        let (ranges, hashes) = (elements.ranges, elements.hashes)
        switch rereadInPlace(data, ranges, hashes, last: last, catalog: relativePath) {
        case .read(let result): return result
        case .unsure: return nil
        case .notInPlace(let given): last = given
        }
        let shown = "content/\(relativePath)"
        var known: [UInt64: Int] = [:]
        known.reserveCapacity(last.elements.count)
        for (index, element) in last.elements.enumerated() where known[element.hash] == nil { known[element.hash] = index }
        var result = Result()
        result.elements.reserveCapacity(ranges.count)
        result.records.reserveCapacity(ranges.count)
        result.trimmedPaths.reserveCapacity(ranges.count)
        result.fingerprints.reserveCapacity(ranges.count)
        for (index, (range, hash)) in zip(ranges, hashes).enumerated() {
            let place = "\(shown), record \(index)"
            let from: Result
            let span: Result.Span
            if let was = known[hash] {
                (from, span) = (last, last.span(of: was))
            } else {
                guard let alone = parseAlone(data[range], catalog: relativePath) else { return nil }
                (from, span) = (alone, alone.span(of: 0))
                result.parsedAnew.insert(integersIn: result.records.count..<(result.records.count + span.records.count))
            }
            result.append(from, span, at: place)
            result.elements.append(Result.Element(hash: hash, length: range.count, records: result.records.count, issues: result.issues.count))
        }
        return result
    }

    private enum InPlace {
        case read(Result)
        /// An element the parse of it alone is not sure of: the whole is parsed.
        case unsure
        /// Not an edit in place: the last reading, given back untouched.
        case notInPlace(Result)
    }

    /// The common edit, a few records changed where they stand or added at the end: the `last`
    /// reading changed in place at the elements whose bytes differ, no other record copied or
    /// given a new place. Any other edit (an element taken away or moved, one that makes more or
    /// fewer records or issues than the one it replaces, or more than an eighth of the elements
    /// changed) is `reread`'s, element by element.
    private func rereadInPlace(_ data: Data, _ ranges: [Range<Int>], _ hashes: [UInt64], last: consuming Result,
                               catalog relativePath: String) -> InPlace {
        let kept = last.elements.count
        // Every record and issue of the last reading must be one of its elements' (a reading
        // parsed whole has none).
        let accounted = (records: last.elements.last?.records ?? 0, issues: last.elements.last?.issues ?? 0)
        guard ranges.count >= kept, accounted == (last.records.count, last.issues.count) else { return .notInPlace(last) }
        let differing = ranges.indices.filter { $0 >= kept || hashes[$0] != last.elements[$0].hash }
        // An element put in at the top moves every one after it: many elements taken out one by
        // one cost more than the reading made anew.
        guard differing.count <= max(8, ranges.count / 8) else { return .notInPlace(last) }
        // Each differing element taken from where the last reading had its bytes, else parsed
        // alone; its records and issues copied out before the reading is changed, so that the
        // change is made in place.
        let wanted = Set(differing.map { hashes[$0] })
        var elsewhere: [UInt64: Int] = [:]
        for (index, element) in last.elements.enumerated() where wanted.contains(element.hash) && elsewhere[element.hash] == nil {
            elsewhere[element.hash] = index
        }
        var replacements: [(index: Int, with: Result, anew: Bool)] = []
        for index in differing {
            let with: Result
            if let was = elsewhere[hashes[index]] {
                with = Result(last, last.span(of: was))
            } else {
                guard let alone = parseAlone(data[ranges[index]], catalog: relativePath) else { return .unsure }
                with = alone
            }
            if index < kept {
                let span = last.span(of: index)
                guard with.records.count == span.records.count, with.issues.count == span.issues.count else { return .notInPlace(last) }
            }
            replacements.append((index, with, elsewhere[hashes[index]] == nil))
        }
        var result = consume last
        (result.cacheKeys, result.parsedAnew) = ([], IndexSet())
        for (index, with, anew) in replacements {
            let records = index < kept ? result.span(of: index).records : result.records.count..<(result.records.count + with.records.count)
            // Each fits: its counts were checked against the element it replaces.
            _ = result.put(with, element: index, hash: hashes[index], length: ranges[index].count,
                           at: "content/\(relativePath), record \(index)")
            if anew { result.parsedAnew.insert(integersIn: records) }
            result.base?.changed.insert(index)
        }
        return .read(result)
    }

    /// One element of a catalog's array parsed as the one element of an array; nil where it does
    /// not read as such alone, or says anything of the catalog as a whole.
    private func parseAlone(_ element: Data.SubSequence, catalog relativePath: String) -> Result? {
        var document = Data(#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><array>"#.utf8)
        document.append(element)
        document.append(contentsOf: "</array></plist>".utf8)
        let (alone, refused) = parseWhole(document, catalog: relativePath)
        let first = "content/\(relativePath), record 0"
        guard !refused, alone.issues.allSatisfy({ $0.path == first }), alone.records.allSatisfy({ $0.location == first }),
              alone.records.count <= 1 else { return nil }
        return alone
    }

    static func typeName(_ value: Any) -> String {
        switch value {
        case is String: return "a string"
        case is [Any]: return "an array"
        case is [String: Any]: return "a dictionary"
        case is Date: return "a date"
        case is Data: return "data"
        case is Bool, is NSNumber: return "a number"
        default: return "\(type(of: value))"
        }
    }
}

/// The typed values of one record's dictionary, with an issue for each key of the wrong type.
private struct RecordFields {
    let dictionary: [String: Any]
    let place: String
    var issues: [BuildIssue] = []
    /// The path without spaces at either end, for a catalog typed by hand, where no file has the
    /// name as written.
    var trimmedPath: String?

    init(dictionary: [String: Any], place: String) {
        self.dictionary = dictionary
        self.place = place
    }

    mutating func record(folder: String) -> CatalogRecord? {
        for key in dictionary.keys.sorted() where !CatalogRecord.knownKeys.contains(key) {
            issues.append(.warning(place, "unknown key '\(key)' ignored"))
        }
        guard dictionary["path"] == nil || dictionary["path"] is String else {
            issues.append(.error(place, "no 'path' to an image: key 'path' is not a string"))
            return nil
        }
        guard let rawPath = pathText() else {
            issues.append(.error(place, dictionary["path"] == nil ? "no 'path' to an image" : "key 'path' is empty"))
            return nil
        }
        guard let path = ContentPath.resolve(rawPath, in: folder) else {
            issues.append(.error(place, "path '\(rawPath)' leads outside content/"))
            return nil
        }
        let trimmed = rawPath.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmed.utf8.elementsEqual(rawPath.utf8) { trimmedPath = ContentPath.resolve(trimmed, in: folder) }
        return CatalogRecord(
            location: place, path: path,
            name: string("name"), user: string("user"), description: string("description"),
            place: string("place"), region: string("region"),
            latitude: number("latitude", range: -90...90), longitude: number("longitude", range: -180...180),
            taken: date("taken"), uploaded: date("uploaded"),
            favorite: bool("favorite") ?? false, tags: strings("tags"))
    }

    private mutating func wrongType(_ key: String, _ expected: String) {
        issues.append(.warning(place, "key '\(key)' should be \(expected), found \(CatalogReader.typeName(dictionary[key]!)); ignored"))
    }

    /// A non-empty trimmed string, without control characters (a binary plist can hold a NUL).
    /// The path as written: a file's name on Linux may hold any byte but "/" and NUL, controls and
    /// spaces at either end among them.
    mutating func pathText() -> String? {
        guard let text = dictionary["path"] as? String else { return nil }
        var path = text
        if text.unicodeScalars.contains("\0") {
            issues.append(.warning(place, "key 'path' holds a NUL, which no file name can; it is left out"))
            path = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\0" }))
        }
        return path.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : path
    }

    mutating func string(_ key: String) -> String? {
        guard let value = dictionary[key] else { return nil }
        guard let text = value as? String else { wrongType(key, "a string"); return nil }
        return cleaned(text, key: key, paragraph: key == "description")
    }

    private mutating func cleaned(_ text: String, key: String, paragraph: Bool = false) -> String? {
        // Printable ASCII with no space at either end (most of a catalog): nothing to clean or trim.
        let utf8 = text.utf8
        if let first = utf8.first, let last = utf8.last, first != 0x20, last != 0x20, utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return text
        }
        let clean = paragraph ? CleanText.paragraph(text) : CleanText.line(text)
        if text.unicodeScalars.contains(where: { CleanText.isControl($0) && !["\n", "\r", "\t"].contains($0) }) {
            issues.append(.warning(place, "key '\(key)' holds control characters; they are left out"))
        }
        let trimmed = clean.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    mutating func number(_ key: String, range: ClosedRange<Double>) -> Double? {
        guard let value = dictionary[key] else { return nil }
        let number: Double?
        switch value {
        case let n as NSNumber where !(value is Bool): number = n.doubleValue
        case let s as String: number = Double(s.trimmingCharacters(in: .whitespaces))
        default: number = nil
        }
        guard let number, range.contains(number) else {
            wrongType(key, "a number from \(Int(range.lowerBound)) to \(Int(range.upperBound))")
            return nil
        }
        return number
    }

    mutating func date(_ key: String) -> Date? {
        guard let value = dictionary[key] else { return nil }
        if let date = (value as? Date) ?? (value as? String).flatMap(Self.parseDate) {
            guard let storable = date.storable else {
                issues.append(.warning(place, "key '\(key)' is a date outside the years 1 to 9999; ignored"))
                return nil
            }
            return storable
        }
        wrongType(key, "a date (a plist <date> or ISO 8601 text)")
        return nil
    }

    mutating func bool(_ key: String) -> Bool? {
        guard let value = dictionary[key] else { return nil }
        if let flag = value as? Bool { return flag }
        wrongType(key, "a boolean")
        return nil
    }

    mutating func strings(_ key: String) -> [String] {
        guard let value = dictionary[key] else { return [] }
        guard let array = value as? [Any], array.allSatisfy({ $0 is String }) else {
            wrongType(key, "an array of strings")
            return []
        }
        return array.compactMap { ($0 as? String).flatMap { cleaned($0, key: key) } }
    }

    static func parseDate(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let full = ISO8601DateFormatter()
        if let date = full.date(from: trimmed) { return date }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        return day.date(from: trimmed)
    }
}

extension PropertyListReading.Refusal {
    /// The refusal as an error of the catalog `shown`, at its record where that is known.
    func issue(_ shown: String) -> BuildIssue {
        .error(record.map { "\(shown), record \($0)" } ?? shown, reason)
    }
}

extension CatalogReader.Result {
    /// The records and issues of `span` in `reading`, alone.
    init(_ reading: borrowing CatalogReader.Result, _ span: Span) {
        records = Array(reading.records[span.records])
        trimmedPaths = Array(reading.trimmedPaths[span.records])
        fingerprints = Array(reading.fingerprints[span.records])
        issues = Array(reading.issues[span.issues])
    }
}

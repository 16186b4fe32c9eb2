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
    func parseWhole(_ data: Data, catalog relativePath: String) -> (result: Result, refused: Bool) {
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

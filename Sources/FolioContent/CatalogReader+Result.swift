import FolioCore
import Foundation

extension CatalogReader {
    /// A catalog's reading: its records and what is wrong with them, with what the next reading
    /// of the catalog takes from this one and what the cache keeps it by.
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

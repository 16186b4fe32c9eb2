import FolioCore
import Foundation

/// A catalog edited since its last reading, read again from it: the elements whose bytes did not
/// change taken from there, the others parsed alone.
extension CatalogReader {
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
}

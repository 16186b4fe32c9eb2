@testable import FolioModel
@testable import FolioSite
import FolioTestSupport
import Foundation
import XCTest

/// The search index of a library of 100,000 photos (issue #21): every photo is found by its
/// title, and what a typical query downloads (meta.js, the word files its words need, the photo
/// files of the first page of results) stays under 1 MB. The index is made from entries, not a
/// model, so the test measures the index alone; the query is played as `assets/search.js` plays
/// it, on the bytes written.
final class SearchIndexScaleTests: XCTestCase {
    static let photoCount = 100_000
    /// What the Search page shows before "Show more".
    static let firstPage = 48
    static let budget = 1_000_000

    /// A library as photographers have them: titles and descriptions from a vocabulary where common
    /// words are common, 400 people of whom one took 30% of the photos, 2,500 towns in 150 regions.
    static func library() -> [SearchIndex.Entry] {
        var random = SplitMix64(21)
        let letters = Array("eeeeeeeeeeeetttttttttaaaaaaaaooooooooiiiiiiinnnnnnnssssssrrrrrrhhhhhdddd"
                            + "llllucccmmmwwffggyyppbbvkjxqz")
        let vocabulary = (0..<12_000).map { _ in
            String((0..<Int.random(in: 3...10, using: &random)).map { _ in letters.randomElement(using: &random)! })
        }
        func pick(_ count: Int) -> Int { Int(pow(Double.random(in: 0..<1, using: &random), 3) * Double(count)) }
        func text(_ words: Int, from count: Int) -> [String] { (0..<words).map { _ in vocabulary[pick(count)] } }
        let people = (0..<400).map { "\(vocabulary[$0 * 7].capitalized) \(vocabulary[$0 * 7 + 1].capitalized)" }
        let towns = (0..<2500).map { n in
            (name: "\(vocabulary[n * 3 + 2].capitalized), Region \(vocabulary[n % 150].capitalized), \(vocabulary[n % 60 + 9000].capitalized)",
             title: vocabulary[n * 3 + 2].capitalized)
        }
        // Folding is the build's own, once per distinct text.
        var folded: [String: [String]] = [:]
        func words(_ text: String) -> [String] {
            if let known = folded[text] { return known }
            let made = SearchText.words(text)
            folded[text] = made
            return made
        }
        return (0..<photoCount).map { n in
            let title = text(3, from: 6000).joined(separator: " ").capitalized
            let description = text(12, from: 12_000)
            let person = Double.random(in: 0..<1, using: &random) < 0.3 ? people[0] : people[pick(400)]
            let town = towns[pick(2500)]
            let titleWords = Set(title.split(separator: " ").flatMap { words(String($0)) })
            var all = titleWords.union(description).union(words(person)).union(words(town.name))
            all.formUnion(words("Album \(n / 500)"))
            let record = SearchRecord(
                id: String(format: "p%011x", n * 2_654_435_761 % 0xFFFF_FFFF_FF), title: title,
                thumb: SearchRecord.Thumb(src: "media/\(String(format: "%016x", n &* 0x9E37_79B9))-400.jpg", width: 400, height: 300,
                                          srcset: "media/\(String(format: "%016x", n &* 0x9E37_79B9))-200.jpg 200w, media/\(String(format: "%016x", n &* 0x9E37_79B9))-400.jpg 400w"),
                alt: "\(title) by \(person) in \(town.title)", person: person, placeTitle: town.title,
                placeSubtitle: String(town.name.dropFirst(town.title.count + 2)), placeSlug: town.name.lowercased().replacingOccurrences(of: ", ", with: "-"))
            return SearchIndex.Entry(words: all, titleWords: titleWords, id: record.id, record: record)
        }
    }

    /// What a file passes to `folioData(kind, key, value)`.
    static func value(_ file: SearchIndex.File) throws -> Any {
        let text = String(decoding: file.data, as: UTF8.self)
        let arguments = "[" + text.dropFirst("folioData(".count).dropLast(3) + "]"
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(arguments.utf8)) as? [Any])[2]
    }

    func testAQueryDownloadsUnderAMegabyteAndEveryPhotoIsFoundByItsTitle() throws {
        let entries = Self.library()
        let started = Date()
        let index = SearchIndex(entries: entries)
        let seconds = Date().timeIntervalSince(started)
        let files = Dictionary(uniqueKeysWithValues: index.files.map { ($0.path.dropFirst(SearchIndex.folder.count), $0) })
        let meta = try XCTUnwrap(Self.value(try XCTUnwrap(files["meta.js"])) as? [String: Any])
        let keys = try XCTUnwrap(meta["keys"] as? [String])
        let shard = try XCTUnwrap(meta["shard"] as? Int)

        // Every word file, decoded once: its words and their postings (number * 2 + inTitle).
        var postings: [String: (key: String, numbers: [Int])] = [:]
        var wordsOfFile: [String: [String]] = [:]
        for key in keys {
            let file = try XCTUnwrap(files["t-\(SearchText.fileName(forKey: key)).js"], "no file for \(key)")
            for (word, deltas) in try XCTUnwrap(Self.value(file) as? [String: [Int]]) {
                XCTAssertNil(postings[word], "\(word) is in one file only")
                var sum = 0
                postings[word] = (key, deltas.map { sum += $0; return sum })
                wordsOfFile[key, default: []].append(word)
            }
        }

        // Every photo, by the whole of its title: each word in a file the script loads for it,
        // with the photo marked as having it in its title.
        var looked: Set<String> = []
        for (number, entry) in entries.enumerated() {
            for word in entry.titleWords {
                let found = try XCTUnwrap(postings[word], "\(entry.record!.title): no \(word)")
                if looked.insert(word).inserted {
                    XCTAssertTrue(SearchText.wordKeys(for: word, in: keys).contains(found.key), "\(word) is where the script looks")
                }
                XCTAssertTrue(binarySearch(found.numbers, number * 2 + 1), "photo \(number) is found by \(word)")
            }
        }

        // The query as search.js plays it: the files its words need, the best first page of results.
        func bytes(_ query: String) -> Int {
            var unique: [String] = []
            for word in SearchText.words(query) where !unique.contains(word) { unique.append(word) }
            if unique.contains(where: { $0.unicodeScalars.count > 1 }) { unique.removeAll { $0.unicodeScalars.count < 2 } }
            var loaded: Set<String> = ["meta.js"]
            var scores: [[Int: Int]] = []
            for word in unique {
                var best: [Int: Int] = [:]
                for key in SearchText.wordKeys(for: word, in: keys) {
                    loaded.insert("t-\(SearchText.fileName(forKey: key)).js")
                    for token in wordsOfFile[key] ?? [] where token == word || (word.unicodeScalars.count > 1 && token.hasPrefix(word)) {
                        for posting in postings[token]!.numbers {
                            let score = (token == word ? 2 : 1) + (posting & 1 == 1 ? 2 : 0)
                            best[posting >> 1] = max(best[posting >> 1] ?? 0, score)
                        }
                    }
                }
                scores.append(best)
            }
            scores.sort { $0.count < $1.count }
            var results: [(number: Int, score: Int)] = []
            for (n, score) in scores.first ?? [:] {
                var total = score
                for other in scores.dropFirst() {
                    guard let more = other[n] else { total = 0; break }
                    total += more
                }
                if total > 0 { results.append((n, total)) }
            }
            results.sort { $0.score != $1.score ? $0.score > $1.score : $0.number < $1.number }
            for result in results.prefix(Self.firstPage) { loaded.insert("p-\(result.number / shard).js") }
            return loaded.reduce(0) { $0 + (files[Substring($1)]?.data.count ?? 0) }
        }

        var random = SplitMix64(7)
        var measured: [(query: String, bytes: Int)] = []
        for _ in 0..<40 {
            let entry = entries[Int.random(in: 0..<entries.count, using: &random)]
            let titleWord = entry.titleWords.sorted().first!
            for query in [entry.record!.title, entry.record!.person!, entry.record!.placeTitle!,
                          String(titleWord.prefix(3)), "\(titleWord) \(entry.record!.placeTitle!)"] {
                measured.append((query, bytes(query)))
            }
        }
        // The Favorites or Recents page of a visitor with 50 photos kept: each photo's identifier
        // file, then its photo file.
        let buckets = try XCTUnwrap(meta["buckets"] as? Int)
        var kept: Set<String> = ["meta.js"]
        for _ in 0..<50 {
            let number = Int.random(in: 0..<entries.count, using: &random)
            kept.insert("i-\(SearchText.bucket(entries[number].id, of: buckets)).js")
            kept.insert("p-\(number / shard).js")
        }
        let favorites = kept.reduce(0) { $0 + files[Substring($1)]!.data.count }
        XCTAssertLessThan(favorites, Self.budget)

        // The worst a visitor can do: two letters of the commonest starts, every word under them.
        let starts = Dictionary(grouping: postings.keys.filter { $0.unicodeScalars.count > 1 }) { String($0.prefix(2)) }
        let twoLetters = starts.keys.sorted().map { (query: $0, bytes: bytes($0)) }.max { $0.bytes < $1.bytes }!
        let largest = measured.max { $0.bytes < $1.bytes }!
        let sorted = measured.map(\.bytes).sorted()
        let words = index.files.filter { $0.path.contains("/t-") }.map(\.data.count)
        print("""
            search index of \(Self.photoCount) photos: \(index.files.count) files, \(index.files.map(\.data.count).reduce(0, +) / 1_048_576) MB, \
            made in \(String(format: "%.1f", seconds)) s; meta.js \(files["meta.js"]!.data.count / 1024) KB (\(keys.count) word files, \
            largest \(words.max()! / 1024) KB); a query downloads \(sorted[sorted.count / 2] / 1024) KB (median of \(sorted.count)), \
            at most \(largest.bytes / 1024) KB ("\(largest.query)"); two letters at worst \(twoLetters.bytes / 1024) KB ("\(twoLetters.query)"); \
            50 favorites \(favorites / 1024) KB
            """)
        XCTAssertLessThan(largest.bytes, Self.budget, "\"\(largest.query)\" downloads \(largest.bytes) bytes")
        XCTAssertLessThan(twoLetters.bytes, Self.budget, "\"\(twoLetters.query)\" downloads \(twoLetters.bytes) bytes")
    }

    private func binarySearch(_ sorted: [Int], _ value: Int) -> Bool {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count && sorted[low] == value
    }
}

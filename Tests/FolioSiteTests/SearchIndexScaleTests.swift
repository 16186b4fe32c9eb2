@testable import FolioCore
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
        try check(entries, "\(Self.photoCount) photos") { entry in
            let titleWord = entry.titleWords.sorted().first!
            return [entry.record!.title, entry.record!.person!, entry.record!.placeTitle!,
                    String(titleWord.prefix(3)), "\(titleWord) \(entry.record!.placeTitle!)"]
        }
    }

    /// A Japanese library: titles of words written without spaces, found by any word inside them.
    static func japaneseLibrary(_ count: Int) -> [SearchIndex.Entry] {
        var random = SplitMix64(63)
        let kanji = Array("山川海空花雪月日本京都東西南北寺神社城橋駅港町村森林湖島岬滝桜紅葉朝夕夜春夏秋冬風雨雲星光影古新大小高長白黒赤青緑金銀石岩砂道")
        let kana = Array("あいうえおかきくけこがぎぐげごさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん")
        let katakana = Array("アイウエオカキクケコガギグゲゴサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン")
        let vocabulary = (0..<8_000).map { n -> String in
            switch n % 3 {
            case 0: return String((0..<Int.random(in: 2...3, using: &random)).map { _ in kanji.randomElement(using: &random)! })
            case 1: return String((0..<Int.random(in: 3...5, using: &random)).map { _ in katakana.randomElement(using: &random)! }) + "ー"
            default: return String(kanji.randomElement(using: &random)!) + String((0..<2).map { _ in kana.randomElement(using: &random)! })
            }
        }
        func pick(_ count: Int) -> Int { Int(pow(Double.random(in: 0..<1, using: &random), 3) * Double(count)) }
        let particles = ["の", "と", "から", "で", ""]
        let people = (0..<300).map { vocabulary[$0 * 5] + vocabulary[$0 * 5 + 3] }
        let towns = (0..<1500).map { vocabulary[$0 * 4 + 1] + "市" }
        return (0..<count).map { n in
            let title = (0..<3).map { _ in vocabulary[pick(5000)] }.joined(separator: particles[pick(particles.count)])
            let description = (0..<10).map { _ in vocabulary[pick(8000)] }.joined(separator: "、")
            let person = people[pick(300)]
            let town = towns[pick(1500)]
            let titleWords = Set(SearchText.words(title))
            let all = titleWords.union(SearchText.words(description)).union(SearchText.words(person)).union(SearchText.words(town))
            let record = SearchRecord(
                id: String(format: "p%011x", n * 2_654_435_761 % 0xFFFF_FFFF_FF), title: title,
                thumb: SearchRecord.Thumb(src: "media/\(String(format: "%016x", n &* 0x9E37_79B9))-400.jpg", width: 400, height: 300, srcset: nil),
                alt: "\(title)（\(person)、\(town)）", person: person, placeTitle: town, placeSubtitle: "日本", placeSlug: "t\(n % 1500)")
            return SearchIndex.Entry(words: all, titleWords: titleWords, id: record.id, record: record)
        }
    }

    /// The same budget for 20,000 photos titled in Japanese; a word from inside a title, a lone
    /// character and a title's every pair find it.
    func testAJapaneseQueryDownloadsUnderAMegabyteAndFindsWordsInsideTitles() throws {
        let entries = Self.japaneseLibrary(20_000)
        try check(entries, "20000 photos in Japanese") { entry in
            let title = Array(entry.record!.title.unicodeScalars)
            let inside = String(String.UnicodeScalarView(title[2..<min(title.count, 5)]))
            return [entry.record!.title, entry.record!.person!, entry.record!.placeTitle!, inside, String(title[3]),
                    "\(inside) \(entry.record!.placeTitle!)"]
        }
        // A word from the middle of a title finds the photo; a lone character finds the words it begins.
        let words = SearchText.words("京都の金閣寺")
        XCTAssertEqual(words, ["京都", "都の", "の金", "金閣", "閣寺", "寺"])
        XCTAssertTrue(SearchText.words("金閣").allSatisfy { query in words.contains { SearchText.finds(query, $0) } })
        XCTAssertTrue(words.contains { SearchText.finds("閣", $0) })
        XCTAssertFalse(SearchText.words("銀閣").allSatisfy { query in words.contains { SearchText.finds(query, $0) } })
        XCTAssertEqual(SearchText.words("東京タワー2024年"), ["東京", "京タ", "タワ", "ワー", "ー", "2024", "年"])
        // Beside longer words a lone Latin letter is being typed; a lone character is a word.
        XCTAssertEqual(SearchText.queryWords("golden g"), ["golden"])
        XCTAssertEqual(SearchText.queryWords("寺 temple"), ["寺", "temple"])
        XCTAssertEqual(SearchText.queryWords("金閣寺"), ["金閣", "閣寺"], "the run's last character is in its last pair")
    }

    /// Every photo found by its title's words where the script looks for them, and a query's download
    /// (meta.js, its word files, the first page's photo files) under the budget.
    private func check(_ entries: [SearchIndex.Entry], _ name: String, queries: (SearchIndex.Entry) -> [String]) throws {
        // Taken over ten years, the newest first, numbered as a site numbers them.
        let count = entries.count
        let numbering = SearchNumbering(count: count, date: { Date(timeIntervalSince1970: 1_420_000_000 + Double(count - $0) / Double(count) * 315_000_000) },
                                        identity: { ContentHash.hash(entries[$0].id) }, order: 0)
        let started = Date()
        let index = SearchIndex(entries: entries, numbering: numbering)
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
        for (position, entry) in entries.enumerated() {
            let number = numbering[position]
            for word in entry.titleWords {
                let found = try XCTUnwrap(postings[word], "\(entry.record!.title): no \(word)")
                if looked.insert(word).inserted {
                    XCTAssertTrue(SearchText.wordKeys(for: word, in: keys).contains(found.key), "\(word) is where the script looks")
                }
                XCTAssertTrue(binarySearch(found.numbers, number * 2 + 1), "photo \(number) is found by \(word)")
            }
        }

        // The query as search.js plays it: the files its words need, the best first page of results.
        func play(_ query: String) -> (bytes: Int, found: Set<Int>) {
            let unique = SearchText.queryWords(query)
            var loaded: Set<String> = ["meta.js"]
            var scores: [[Int: Int]] = []
            for word in unique {
                var best: [Int: Int] = [:]
                for key in SearchText.wordKeys(for: word, in: keys) {
                    loaded.insert("t-\(SearchText.fileName(forKey: key)).js")
                    for token in wordsOfFile[key] ?? [] where SearchText.finds(word, token) {
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
            results.sort { $0.score != $1.score ? $0.score > $1.score : $0.number > $1.number }
            for result in results.prefix(Self.firstPage) { loaded.insert("p-\(result.number / shard).js") }
            return (loaded.reduce(0) { $0 + (files[Substring($1)]?.data.count ?? 0) }, Set(results.map(\.number)))
        }
        func bytes(_ query: String) -> Int { play(query).bytes }

        var random = SplitMix64(7)
        var measured: [(query: String, bytes: Int)] = []
        for _ in 0..<40 {
            let position = Int.random(in: 0..<entries.count, using: &random)
            for query in queries(entries[position]) {
                let played = play(query)
                XCTAssertTrue(played.found.contains(numbering[position]), "\"\(query)\" finds photo \(position)")
                measured.append((query, played.bytes))
            }
        }
        // The Favorites or Recents page of a visitor with 50 photos kept: each photo's identifier
        // file, then its photo file.
        let buckets = try XCTUnwrap(meta["buckets"] as? Int)
        var kept: Set<String> = ["meta.js"]
        for _ in 0..<50 {
            let position = Int.random(in: 0..<entries.count, using: &random)
            kept.insert("i-\(SearchText.bucket(entries[position].id, of: buckets)).js")
            kept.insert("p-\(numbering[position] / shard).js")
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
            search index of \(name): \(index.files.count) files, \(index.files.map(\.data.count).reduce(0, +) / 1_048_576) MB, \
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

import FolioCore
import Foundation

/// The search index's words, each with the photos that have it: what its word files (`t-<key>.js`)
/// hold; all of an index's words, or one part of them (`part(of:parts:)`). A build keeps them in
/// the build state a part at a time (`KeptPostings`), so the next one, when its photos are numbered
/// as before (`SearchNumbering`), takes out and puts back only the photos that changed, and
/// remakes only the word files of the words they had or have, rather than work out every photo's
/// words and write every word file again.
package struct SearchPostings: Sendable {
    /// Each word, by its number (the order words were first met in: files are sorted by word).
    private(set) var words: [String] = []
    /// Each word's photos, one word after the other (`spans`, by the word's number): `number * 2 + 1`
    /// where the word is in the photo's title, else `number * 2`, increasing. A word no photo has
    /// any more has none, and is in no file. One array for all, not an array for each word: most of a
    /// library's words (a file's name, a number) are one photo's.
    private var values: [UInt32] = []
    private var spans: [Span] = []
    /// Photos added since the values were last put in order (`add`), a word and a value each.
    /// Every `pendingLimit` of them go to `spilled` while no photo is in order yet, or else
    /// are put in order, so neither every photo's pairs nor the values twice are held at once.
    private var pending: [(word: UInt32, value: UInt32)] = []
    private let pendingLimit: Int
    /// The pairs added before any was put in order, in a file beside the model (`PackedStore`):
    /// a record for each part's (`take(part:)`) every `pendingLimit` pairs, read back twice to put
    /// them in their places, once to count each word's photos and once to place them.
    private var spilled: PackedStore?
    private var spilledRecords: [[Int]]
    /// Each word's number, by the word (`words` holds them).
    private var numbers = NumberTable()
    /// How many parts the words are taken in (`take(part:)`), and each word's part by its number
    /// (`part(of:parts:)`, where there is more than one).
    private let parts: Int
    private var partOfWord: [UInt16] = []
    /// The keys of the word files, sorted, as they were last cut (`SearchIndex.cut`).
    private(set) var keys: [String] = []

    private struct Span {
        var start: UInt32
        var count: UInt32

        var range: Range<Int> { Int(start)..<Int(start + count) }
    }

    /// The words some photo has.
    var wordCount: Int {
        precondition(pending.isEmpty && !hasSpilled, "the postings are read before their photos are put in order")
        return spans.reduce(0) { $0 + ($1.count == 0 ? 0 : 1) }
    }

    private var hasSpilled: Bool { spilledRecords.contains { !$0.isEmpty } }

    /// Postings whose photos added (`add`) go, as they come, into `store` (a new one, that
    /// spills to a file), half a megabyte at a time; or are put in order `1 << 20` words at a
    /// time where there is none (each time, the values made again). Their words are taken in
    /// `parts` parts.
    init(spillingInto store: PackedStore? = nil, pendingLimit: Int? = nil, parts: Int = 1) {
        self.pendingLimit = pendingLimit ?? (store == nil ? 1 << 20 : 1 << 16)
        spilled = store
        self.parts = parts
        spilledRecords = Array(repeating: [], count: parts)
    }

    /// The part, of `parts`, that a word is kept in: its shard key's (`SearchText.shardKey`),
    /// so the words of a word file, and of a group of them, are in one part.
    static func part(of word: String, parts: Int) -> Int {
        parts == 1 ? 0 : Int(ContentHash.hash(SearchText.shardKey(word)) % UInt64(parts))
    }

    /// The word's number, given it the first time it is met.
    mutating func number(of word: String) -> Int {
        if numbers.count == 0, !words.isEmpty {
            let words = self.words
            numbers = NumberTable(count: words.count) { words[$0] }
        }
        if let known = numbers.number(of: word, key: { words[$0] }) { return known }
        words.append(word)
        if parts > 1 { partOfWord.append(UInt16(Self.part(of: word, parts: parts))) }
        numbers.insert(words.count - 1, for: word) { words[$0] }
        spans.append(Span(start: 0, count: 0))
        return words.count - 1
    }

    /// Lets go of the table that finds a word's number: once every photo is in, no word is
    /// asked for again this build, and the table would be held beside the values as they are
    /// put in their places (`wordFiles`). Made again should one be asked for (`number(of:)`).
    mutating func letGoOfWordTable() {
        numbers = NumberTable()
    }

    /// The next photo, by its number: the numbers of its words (`number(of:)`), in any order, any
    /// number of times; `title` those of them its title holds. Photos come in the order of their
    /// numbers.
    mutating func add(photo: Int, words: [Int], title: [Int]) {
        var last = -1
        for word in words.sorted() where word != last {
            last = word
            pending.append((UInt32(word), UInt32(photo * 2 + (title.contains(word) ? 1 : 0))))
        }
        guard pending.count >= pendingLimit else { return }
        if let spilled, values.isEmpty {
            spill(into: spilled)
        } else {
            putInOrder()
        }
    }

    /// The pairs pending written to `store`, a record for each part's, each in the order they came.
    private mutating func spill(into store: PackedStore) {
        var byPart = pending
        // Where each part's pairs start: counted, then each pair put at its part's next place.
        var starts = [Int](repeating: 0, count: parts + 1)
        if parts > 1 {
            for pair in pending { starts[Int(partOfWord[Int(pair.word)]) + 1] += 1 }
            for part in 0..<parts { starts[part + 1] += starts[part] }
            var next = starts
            for pair in pending {
                let part = Int(partOfWord[Int(pair.word)])
                byPart[next[part]] = pair
                next[part] += 1
            }
        } else {
            starts[1] = pending.count
        }
        for part in 0..<parts where starts[part] < starts[part + 1] {
            spilledRecords[part].append(store.append { record in
                byPart[starts[part]..<starts[part + 1]].withUnsafeBytes { record.bytes.append(contentsOf: $0) }
            })
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// The pairs spilled and those pending since, put in their places among no others: each
    /// word's photos counted, then each placed.
    private mutating func placeSpilled() {
        guard let store = spilled else { return }
        spilled = nil
        guard hasSpilled else { return }
        precondition(values.isEmpty, "pairs spilled after some were put in order")
        var counts = [UInt32](repeating: 0, count: spans.count)
        forEachSpilled(in: store) { word, _ in counts[word] += 1 }
        var start: UInt32 = 0
        for word in spans.indices {
            spans[word] = Span(start: start, count: 0)
            start += counts[word]
        }
        counts = []
        values = [UInt32](repeating: 0, count: Int(start))
        forEachSpilled(in: store) { word, value in
            values[Int(spans[word].start + spans[word].count)] = value
            spans[word].count += 1
        }
        (pending, spilledRecords) = ([], Array(repeating: [], count: parts))
    }

    /// Each pair spilled into `store`, then each pending, of one part or all: each word's in the
    /// order they were added.
    private func forEachSpilled(in store: PackedStore, part: Int? = nil, _ body: (_ word: Int, _ value: UInt32) -> Void) {
        store.seal()
        for record in part.map({ spilledRecords[$0] }) ?? Array(spilledRecords.joined()) {
            store.withRecord(at: record) { bytes in
                let pairs = bytes.count / MemoryLayout<(UInt32, UInt32)>.stride
                for at in 0..<pairs {
                    let pair = bytes.loadUnaligned(fromByteOffset: at * MemoryLayout<(UInt32, UInt32)>.stride, as: (UInt32, UInt32).self)
                    body(Int(pair.0), pair.1)
                }
            }
        }
        for (word, value) in pending where part == nil || parts == 1 || Int(partOfWord[Int(word)]) == part {
            body(Int(word), value)
        }
    }

    /// The words of part `part` (`part(of:parts:)`) with their photos in order, numbered among
    /// themselves in the order they were first met. Parts are taken in turn, from the first, once
    /// every photo is in: only one part's photos are ever in their places at once (where they
    /// were spilled, each part's read back alone); the last part taken leaves these postings empty.
    mutating func take(part: Int) -> SearchPostings {
        precondition(part >= 0 && part < parts, "part \(part) of \(parts)")
        var taken = SearchPostings()
        // Each word's number in the part, by its number here; -1 for another part's.
        var local = [Int32](repeating: -1, count: words.count)
        for number in words.indices where parts == 1 || partOfWord[number] == part {
            local[number] = Int32(taken.words.count)
            taken.words.append(words[number])
        }
        let store = hasSpilled ? spilled : nil
        if store == nil { putInOrder() }
        var counts = [UInt32](repeating: 0, count: taken.words.count)
        if let store {
            forEachSpilled(in: store, part: part) { word, _ in counts[Int(local[word])] += 1 }
        } else {
            for number in words.indices where local[number] >= 0 { counts[Int(local[number])] = spans[number].count }
        }
        var start: UInt32 = 0
        taken.spans.reserveCapacity(counts.count)
        for count in counts {
            taken.spans.append(Span(start: start, count: 0))
            start += count
        }
        counts = []
        taken.values = [UInt32](repeating: 0, count: Int(start))
        func place(_ word: Int, _ value: UInt32) {
            let at = Int(local[word])
            taken.values[Int(taken.spans[at].start + taken.spans[at].count)] = value
            taken.spans[at].count += 1
        }
        if let store {
            forEachSpilled(in: store, part: part, place)
        } else {
            for number in words.indices where local[number] >= 0 {
                for at in spans[number].range { place(number, values[at]) }
            }
        }
        if part == parts - 1 { self = SearchPostings(pendingLimit: pendingLimit) }
        return taken
    }

    /// The photos added since (`pending`) put after each word's own, word by word.
    private mutating func putInOrder() {
        placeSpilled()
        guard !pending.isEmpty else { return }
        var counts = spans.map(\.count)
        for (word, _) in pending { counts[Int(word)] += 1 }
        var next: [UInt32] = []
        next.reserveCapacity(values.count + pending.count)
        var placed = [Span](repeating: Span(start: 0, count: 0), count: spans.count)
        for word in spans.indices {
            placed[word] = Span(start: UInt32(next.count), count: spans[word].count)
            next += values[spans[word].range]
            next += repeatElement(0, count: Int(counts[word] - spans[word].count))
        }
        for (word, value) in pending {
            next[Int(placed[Int(word)].start + placed[Int(word)].count)] = value
            placed[Int(word)].count += 1
        }
        (values, spans, pending) = (next, placed, [])
    }

    /// Takes the photos numbered `taken` out and puts `photos` (each one's number and words, as
    /// `add` takes them) back in; returns the numbers of the words whose photos changed: the
    /// words of the word files to make again (`groups(of:)`, `wordFiles(under:touched:each:)`).
    /// A word a photo had and has again, in its title or not as before, did not change: a
    /// retitled photo's place, person and region (each on thousands of photos, in large word
    /// files) are not made again for it.
    mutating func replace(_ taken: Set<Int>, with photos: [(number: Int, words: [Int], title: [Int])]) -> Set<Int> {
        putInOrder()
        // Looked up for every value: a sorted run of numbers (most often one photo's), searched
        // only for values within it.
        let taken = taken.map { UInt32($0) }.sorted()
        let (lowest, highest) = (taken.first ?? 1, taken.last ?? 0)
        func isTaken(_ value: UInt32) -> Bool {
            let number = value >> 1
            return number >= lowest && number <= highest && taken.sortedIndex(of: number) != nil
        }
        var inserted: [Int: [UInt32]] = [:]
        for photo in photos {
            var last = -1
            for word in photo.words.sorted() where word != last {
                last = word
                inserted[word, default: []].append(UInt32(photo.number * 2 + (photo.title.contains(word) ? 1 : 0)))
            }
        }
        // In place, not into a new array beside the old, at the render step's peak: first each
        // word's kept photos moved down over those taken out, word by word; then, from the last
        // word back, each moved up by the photos put in before it, with its own put in after and
        // sorted in.
        var removed: [Int: [UInt32]] = [:]
        var kept = 0
        for word in spans.indices {
            let start = kept
            for at in spans[word].range {
                if isTaken(values[at]) {
                    removed[word, default: []].append(values[at])
                } else {
                    values[kept] = values[at]
                    kept += 1
                }
            }
            spans[word] = Span(start: UInt32(start), count: UInt32(kept - start))
        }
        // Both in the order of the photos (a word's span is sorted; `inserted` sorted here).
        for word in inserted.keys { inserted[word]!.sort() }
        var touched = Set<Int>()
        for (word, values) in removed where inserted[word] != values { touched.insert(word) }
        for (word, values) in inserted where removed[word] != values { touched.insert(word) }
        let added = inserted.values.reduce(0) { $0 + $1.count }
        values.removeLast(values.count - kept)
        values.append(contentsOf: repeatElement(0, count: added))
        var shift = added
        for word in spans.indices.reversed() where shift > 0 {
            let own = inserted[word] ?? []
            shift -= own.count
            let span = spans[word]
            let start = Int(span.start) + shift
            if shift > 0 {
                for at in span.range.reversed() { values[at + shift] = values[at] }
            }
            let end = start + Int(span.count)
            if !own.isEmpty {
                // The word's kept photos and its new ones, in order together.
                for (offset, value) in own.enumerated() { values[end + offset] = value }
                values[start..<(end + own.count)].sort()
            }
            spans[word] = Span(start: UInt32(start), count: UInt32(end + own.count - start))
        }
        return touched
    }

    /// The shard keys (`SearchText.shardKey`) of `words` (numbers): the groups of word files they are in.
    func groups(of words: Set<Int>) -> Set<String> {
        Set(words.map { SearchText.shardKey(self.words[$0]) })
    }

    /// The word files of the words filed under `groups` (shard keys), or of every word, each as
    /// its key and its value, `{"word":[…],…}`, sorted by key; `keys` then names every word file.
    mutating func wordFiles(under groups: Set<String>? = nil) -> [(key: String, value: [UInt8])] {
        var files: [(key: String, value: [UInt8])] = []
        wordFiles(under: groups) { files.append(($0, $1)) }
        return files
    }

    /// As `wordFiles(under:)`, each file handed to `each` as it is made, in the order of their
    /// keys. With `touched` (the words whose photos changed since the files in place were made,
    /// `replace`), a file under `groups` that holds no touched word, and held none that went,
    /// cut where it was cut then, is the file in place: it is not made, and its key is returned.
    /// A group holds every word of a kind (the "ph" of many "photo-…" file names), so one
    /// photo's edit would otherwise make all its files again to write one.
    @discardableResult
    mutating func wordFiles(under groups: Set<String>? = nil, touched: Set<Int>? = nil,
                            each: (_ key: String, _ value: [UInt8]) -> Void) -> [String] {
        putInOrder()
        // The words by their numbers, from which each one's size and entry are had, not looked
        // up again by their text.
        var filed: [Substring: [Int]] = [:]
        // A word's shard key as the text it starts with, no string made: most words are in a
        // file that is not made again.
        let only = groups.map { Set($0.map { Substring($0) }) }
        for (number, word) in words.enumerated() where spans[number].count > 0 {
            let end = word.unicodeScalars.index(word.startIndex, offsetBy: SearchText.startsCJK(word) ? 1 : 2, limitedBy: word.endIndex)
                ?? word.endIndex
            let group = Substring(word.unicodeScalars[..<end])
            if let only, !only.contains(group) { continue }
            filed[group, default: []].append(number)
        }
        let all = self.words
        // Each group sorted in place and cut, taken out of `filed` first; its words' texts held
        // only while it is cut, each file then a run of its numbers.
        var files: [(key: String, numbers: ArraySlice<Int>)] = []
        for group in Array(filed.keys) {
            var numbers = filed.removeValue(forKey: group)!
            numbers.sort { all[$0] < all[$1] }
            // A word past the budget is cut no further however far past: its size is counted to there.
            let sizes = numbers.map { entrySize($0, atMost: SearchIndex.wordFileBudget) + 1 }
            for file in SearchIndex.cut(String(group), words: numbers.map { all[$0] }, sizes: sizes) {
                files.append((file.key, numbers[file.words.indices]))
            }
        }
        files.sort { $0.key < $1.key }
        let last = keys
        if let groups {
            keys = (keys.filter { !groups.contains(SearchText.shardKey($0)) } + files.map(\.key)).sorted()
        } else {
            keys = files.map(\.key)
        }
        // The files a touched word is in, or was in before its last photo went: the file of
        // the longest key it starts with.
        var dirty = Set<String>()
        if let touched {
            let made = Set(files.map(\.key))
            for word in touched.map({ all[$0] }) where only?.contains(Substring(SearchText.shardKey(word))) ?? true {
                let scalars = Array(word.unicodeScalars)
                for length in stride(from: scalars.count, through: 1, by: -1) {
                    let key = String(String.UnicodeScalarView(scalars[..<length]))
                    if made.contains(key) {
                        dirty.insert(key)
                        break
                    }
                }
            }
        }
        var kept: [String] = []
        for (at, file) in files.enumerated() {
            if touched != nil, !dirty.contains(file.key),
               Self.isCut(file.key, in: last) == (at + 1 < files.count && Self.isUnder(files[at + 1].key, file.key)) {
                kept.append(file.key)
                continue
            }
            var value: [UInt8] = [UInt8(ascii: "{")]
            value.reserveCapacity(file.numbers.reduce(2) { $0 + entrySize($1, atMost: SearchIndex.wordFileBudget) + 1 })
            for (at, number) in file.numbers.enumerated() {
                if at > 0 { value.append(UInt8(ascii: ",")) }
                appendEntry(number, to: &value)
            }
            value.append(UInt8(ascii: "}"))
            each(file.key, value)
        }
        return kept
    }

    /// Whether `key` was a file's key among `keys` (sorted) and cut further there: the words
    /// under it were in files of their own (keys that start with it, which follow it).
    /// Nil when it was no file's key.
    private static func isCut(_ key: String, in keys: [String]) -> Bool? {
        guard let at = keys.sortedIndex(of: key) else { return nil }
        return at + 1 < keys.count && isUnder(keys[at + 1], key)
    }

    /// Whether `key` is a longer key that starts with `prefix`, by its characters as a cut takes them.
    private static func isUnder(_ key: String, _ prefix: String) -> Bool {
        key.unicodeScalars.count > prefix.unicodeScalars.count && key.unicodeScalars.starts(with: prefix.unicodeScalars)
    }

    /// A word's entry in its file, `"word":[…]`: its photos, each as the difference from the one before.
    private func appendEntry(_ number: Int, to entry: inout [UInt8]) {
        entry.append(contentsOf: JSONText.string(words[number]).utf8)
        entry.append(contentsOf: ":[".utf8)
        let (values, range) = (self.values, spans[number].range)
        JSONText.appendList(range.lazy.map { Int(values[$0] - ($0 > range.lowerBound ? values[$0 - 1] : 0)) }, to: &entry)
        entry.append(UInt8(ascii: "]"))
    }

    /// The bytes `appendEntry` writes, counted without writing them; counted only until they
    /// pass `limit` (a word file's cut asks whether words pass its budget, and a word of most
    /// photos' entry is a hundred thousand numbers).
    private func entrySize(_ number: Int, atMost limit: Int) -> Int {
        var size = JSONText.string(words[number]).utf8.count + 3
        var previous: UInt32 = 0
        for (at, value) in values[spans[number].range].enumerated() {
            if at > 0 { size += 1 }
            var difference = value - previous
            repeat {
                size += 1
                difference /= 10
            } while difference > 0
            previous = value
            if size > limit { return size }
        }
        return size
    }

    /// The postings as the build state keeps them, one part among others (`KeptPostings`): a line
    /// with the counts of its words and of their photos, its words a line each (none holds a line
    /// break), then each word's count of photos and its photos, as 32-bit little-endian numbers.
    /// Only the words some photo has.
    func encode(into file: inout LedgerWriter) {
        precondition(pending.isEmpty && !hasSpilled, "the postings are kept before their photos are put in order")
        // Looked through three times rather than listed, so no list of the words with photos is
        // held beside them.
        let live = words.indices.lazy.filter { spans[$0].count > 0 }
        let count = live.reduce(0) { $0 + Int(spans[$1].count) }
        file.line.append(contentsOf: "words \(wordCount) photos \(count)".utf8)
        file.endLine()
        for word in live {
            file.line.append(contentsOf: words[word].utf8)
            file.endLine()
        }
        func number(_ value: UInt32) {
            withUnsafeBytes(of: value.littleEndian) { file.line.append(contentsOf: $0) }
            file.spill()
        }
        for word in live { number(spans[word].count) }
        for word in live {
            for value in values[spans[word].range] { number(value) }
        }
    }

    /// The part `encode(into:)` wrote, read from `stream` where it starts, its word files last
    /// cut at `keys`; nil for anything else.
    static func decode(from stream: LedgerStream, keys: [String]) -> SearchPostings? {
        guard let fields = stream.line()?.split(separator: " "), fields.count == 4, fields[0] == "words", fields[2] == "photos",
              let wordCount = Int(fields[1]), wordCount >= 0, wordCount <= stream.size,
              let valueCount = Int(fields[3]), valueCount >= 0, valueCount <= stream.size / 4 else { return nil }
        var postings = SearchPostings()
        postings.keys = keys
        // Room for the words of the photos a build changes: an array grown by one word past
        // its room is made again at twice its size, its spans and table with it.
        let room = wordCount + wordCount / 64 + 1_024
        postings.words.reserveCapacity(room)
        for _ in 0..<wordCount {
            guard let word = stream.line() else { return nil }
            postings.words.append(String(word))
        }
        let words = postings.words
        postings.numbers.reserveCapacity(room) { words[$0] }
        for number in 0..<wordCount { postings.numbers.insert(number, for: words[number]) { words[$0] } }
        var counts: [UInt32] = []
        counts.reserveCapacity(wordCount)
        for _ in 0..<wordCount {
            guard let count = stream.number() else { return nil }
            counts.append(count)
        }
        guard counts.reduce(0, { $0 + Int($1) }) == valueCount else { return nil }
        let limit = UInt32(SearchNumbering.limit * 2)
        // With room for the photos a build puts back in (`replace`, in place).
        postings.values.reserveCapacity(valueCount + valueCount / 64 + 4_096)
        postings.spans.reserveCapacity(room)
        for count in counts {
            guard count > 0 else { return nil }
            let start = postings.values.count
            for _ in 0..<count {
                guard let value = stream.number(), value < limit,
                      postings.values.count == start || postings.values[postings.values.count - 1] < value else { return nil }
                postings.values.append(value)
            }
            postings.spans.append(Span(start: UInt32(start), count: count))
        }
        guard stream.failure == nil, postings.numbers.count == wordCount else { return nil }
        return postings
    }
}

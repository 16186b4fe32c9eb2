import FolioCore
import Foundation

/// The search index's words, each with the photos that have it: what its word files (`t-<key>.js`)
/// hold. A build keeps it in the build state (`BuildState.search`), so the next one, when its photos
/// are numbered as before (`SearchNumbering`), takes out and puts back only the photos that
/// changed, and remakes only the word files of the words they had or have, rather than work out
/// every photo's words and write every word file again.
package struct SearchPostings: Sendable {
    /// The number of each photo indexed, by its position in the order they were numbered in
    /// (`SearchNumbering.numbers`), and the hash of their identities in that order
    /// (`SearchNumbering.order`): which photo had which number, for the next build to take out
    /// the photos that went or moved.
    package private(set) var photoNumbers: [Int32]
    package private(set) var order: UInt64

    /// The photos indexed.
    package var photoCount: Int { photoNumbers.count }
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
    /// The pairs added before any was put in order, a record each `pendingLimit` of them, in
    /// a file beside the model (`PackedStore`): read back twice to put them in their places,
    /// once to count each word's photos and once to place them.
    private var spilled: PackedStore?
    private var spilledRecords: [Int] = []
    /// Each word's number, by the word (`words` holds them).
    private var numbers = NumberTable()
    /// The keys of the word files, sorted, as they were last cut (`SearchIndex.cut`).
    private(set) var keys: [String] = []

    private struct Span {
        var start: UInt32
        var count: UInt32

        var range: Range<Int> { Int(start)..<Int(start + count) }
    }

    /// The words some photo has.
    var wordCount: Int {
        precondition(pending.isEmpty && spilledRecords.isEmpty, "the postings are read before their photos are put in order")
        return spans.reduce(0) { $0 + ($1.count == 0 ? 0 : 1) }
    }

    /// Postings whose photos added (`add`) go, as they come, into `store` (a new one, that
    /// spills to a file), half a megabyte at a time; or are put in order `1 << 20` words at a
    /// time where there is none (each time, the values made again).
    init(numbering: SearchNumbering, spillingInto store: PackedStore? = nil, pendingLimit: Int? = nil) {
        photoNumbers = numbering.numbers
        order = numbering.order
        self.pendingLimit = pendingLimit ?? (store == nil ? 1 << 20 : 1 << 16)
        spilled = store
    }

    /// The word's number, given it the first time it is met.
    mutating func number(of word: String) -> Int {
        if numbers.count == 0, !words.isEmpty {
            let words = self.words
            numbers = NumberTable(count: words.count) { words[$0] }
        }
        if let known = numbers.number(of: word, key: { words[$0] }) { return known }
        words.append(word)
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
            spilledRecords.append(spilled.append { record in
                pending.withUnsafeBytes { record.bytes.append(contentsOf: $0) }
            })
            pending.removeAll(keepingCapacity: true)
        } else {
            putInOrder()
        }
    }

    /// The pairs spilled and those pending since, put in their places among no others: each
    /// word's photos counted, then each placed.
    private mutating func placeSpilled() {
        guard let store = spilled else { return }
        spilled = nil
        guard !spilledRecords.isEmpty else { return }
        precondition(values.isEmpty, "pairs spilled after some were put in order")
        store.seal()
        func each(_ body: (_ word: Int, _ value: UInt32) -> Void) {
            for record in spilledRecords {
                store.withRecord(at: record) { bytes in
                    let pairs = bytes.count / MemoryLayout<(UInt32, UInt32)>.stride
                    for at in 0..<pairs {
                        let pair = bytes.loadUnaligned(fromByteOffset: at * MemoryLayout<(UInt32, UInt32)>.stride, as: (UInt32, UInt32).self)
                        body(Int(pair.0), pair.1)
                    }
                }
            }
            for (word, value) in pending { body(Int(word), value) }
        }
        var counts = [UInt32](repeating: 0, count: spans.count)
        each { word, _ in counts[word] += 1 }
        var start: UInt32 = 0
        for word in spans.indices {
            spans[word] = Span(start: start, count: 0)
            start += counts[word]
        }
        counts = []
        values = [UInt32](repeating: 0, count: Int(start))
        each { word, value in
            values[Int(spans[word].start + spans[word].count)] = value
            spans[word].count += 1
        }
        (pending, spilledRecords) = ([], [])
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
    /// `add` takes them) back in, the photos numbered now as `numbering` says (when given); returns the numbers of the words whose photos changed: the
    /// words of the word files to make again (`groups(of:)`, `wordFiles(under:touched:each:)`).
    /// A word a photo had and has again, in its title or not as before, did not change: a
    /// retitled photo's place, person and region (each on thousands of photos, in large word
    /// files) are not made again for it.
    mutating func replace(_ taken: Set<Int>, with photos: [(number: Int, words: [Int], title: [Int])],
                          numberedAs numbering: SearchNumbering? = nil) -> Set<Int> {
        putInOrder()
        if let numbering { (photoNumbers, order) = (numbering.numbers, numbering.order) }
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

    /// The files these postings were written as: each word file, in the order of their keys, and
    /// `meta.js`, which names every word file (a site with one more has another). A build keeps
    /// the postings with the checksums of these files (`SearchFiles`), to know them for its own.
    package var writtenFiles: [String] {
        keys.map(SearchIndex.wordFile) + [SearchIndex.folder + "meta.js"]
    }

    private static let heading = "folio-search-postings 3"

    /// The postings as kept in the build state, with the stamp of the files written from them
    /// (`SearchFiles.digest(of:in:)`): lines of text (a heading, the counts and the order, the
    /// keys, the words, none of which holds a line break), then each photo's number, each word's
    /// count of photos and its photos, as 32-bit little-endian numbers.
    package func encoded(files: UInt64) -> Data {
        var file = LedgerWriter(capacity: values.count * 4 + words.count * 16)
        encode(files: files, into: &file)
        return file.finish()
    }

    /// `encoded(files:)` handed to `write` a piece at a time (60 kB or so), never made whole.
    package func encode(files: UInt64, to write: @escaping (UnsafeRawBufferPointer) -> Void) {
        var file = LedgerWriter(sink: write)
        encode(files: files, into: &file)
        file.finish()
    }

    private func encode(files: UInt64, into file: inout LedgerWriter) {
        precondition(pending.isEmpty && spilledRecords.isEmpty, "the postings are kept before their photos are put in order")
        // Looked through three times rather than listed, so no list of the words with photos is
        // held beside them.
        let live = words.indices.lazy.filter { spans[$0].count > 0 }
        func line(_ text: String) {
            file.line.append(contentsOf: text.utf8)
            file.endLine()
        }
        func number(_ value: UInt32) {
            withUnsafeBytes(of: value.littleEndian) { file.line.append(contentsOf: $0) }
            file.spill()
        }
        line("\(Self.heading)\nphotos \(photoCount) order \(ContentHash.hexText(order)) files \(ContentHash.hexText(files)) "
             + "keys \(keys.count) words \(wordCount)")
        for key in keys { line(key) }
        for word in live { line(words[word]) }
        for photo in photoNumbers { number(UInt32(photo)) }
        for word in live { number(spans[word].count) }
        for word in live {
            for value in values[spans[word].range] { number(value) }
        }
    }

    /// The postings `encoded` wrote, with the stamp of their word files; nil for anything else.
    package static func decode(_ data: Data) -> (postings: SearchPostings, files: UInt64)? {
        decode(from: LedgerStream(bytes: data))
    }

    /// The same, read from the file as it goes (`LedgerStream`), not mapped or held whole.
    package static func decode(from stream: LedgerStream) -> (postings: SearchPostings, files: UInt64)? {
        guard stream.line() == Substring(heading), let fields = stream.line()?.split(separator: " "), fields.count == 10,
              fields[0] == "photos", let photos = Int(fields[1]), photos >= 0, photos <= stream.size / 4,
              fields[2] == "order", let order = UInt64(fields[3], radix: 16),
              fields[4] == "files", let files = UInt64(fields[5], radix: 16),
              fields[6] == "keys", let keyCount = Int(fields[7]), keyCount >= 0,
              fields[8] == "words", let wordCount = Int(fields[9]), wordCount >= 0, wordCount <= stream.size else { return nil }
        var postings = SearchPostings(numbering: SearchNumbering(count: 0))
        postings.order = order
        for _ in 0..<keyCount {
            guard let key = stream.line() else { return nil }
            postings.keys.append(String(key))
        }
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
        postings.photoNumbers.reserveCapacity(photos)
        for _ in 0..<photos {
            guard let number = stream.number(), number < SearchNumbering.limit else { return nil }
            postings.photoNumbers.append(Int32(number))
        }
        var counts: [UInt32] = []
        counts.reserveCapacity(wordCount)
        for _ in 0..<wordCount {
            guard let count = stream.number() else { return nil }
            counts.append(count)
        }
        let limit = UInt32(SearchNumbering.limit * 2)
        // With room for the photos a build puts back in (`replace`, in place).
        let values = (stream.size - stream.offset) / 4
        postings.values.reserveCapacity(values + values / 64 + 4_096)
        postings.spans.reserveCapacity(room)
        for count in counts {
            guard count > 0, stream.offset + Int(count) * 4 <= stream.size else { return nil }
            let start = postings.values.count
            for _ in 0..<count {
                guard let value = stream.number(), value < limit,
                      postings.values.count == start || postings.values[postings.values.count - 1] < value else { return nil }
                postings.values.append(value)
            }
            postings.spans.append(Span(start: UInt32(start), count: count))
        }
        guard stream.atEnd, stream.failure == nil, stream.offset == stream.size, postings.numbers.count == wordCount else { return nil }
        return (postings, files)
    }
}

import FolioCore
import Foundation

/// The search index's words, each with the photos that have it: what its word files (`t-<key>.js`)
/// hold; all of an index's words, or one part of them (`part(of:parts:)`). A build keeps them in
/// the build state a part at a time (`KeptPostings`), so the next one, when its photos are numbered
/// as before (`SearchNumbering`), takes out and puts back only the photos that changed, and
/// remakes only the word files of the words they had or have, rather than work out every photo's
/// words and write every word file again.
///
/// Its word files and its kept form are made in files of their own (`SearchPostings+WordFiles`,
/// `SearchPostings+Kept`), which is why its storage is not private; nothing else touches it.
package struct SearchPostings: Sendable {
    /// Each word, by its number (the order words were first met in: files are sorted by word),
    /// and the table that finds a word's number while photos are added.
    var words = StringTable()
    /// Each word's photos, one word after the other (`spans`, by the word's number): `number * 2 + 1`
    /// where the word is in the photo's title, else `number * 2`, increasing. A word no photo has
    /// any more has none, and is in no file. One array for all, not an array for each word: most of a
    /// library's words (a file's name, a number) are one photo's.
    var values: [UInt32] = []
    /// Made for every word when the values are put in order (`placeSpilled`): while the pairs
    /// go to `spilled`, words have none, rather than a span each held beside the word table.
    var spans: [Span] = []
    /// Photos added since the values were last put in order (`add`), a word and a value each.
    /// Every `pendingLimit` of them go to `spilled` while no photo is in order yet, or else
    /// are put in order, so neither every photo's pairs nor the values twice are held at once.
    var pending: [(word: UInt32, value: UInt32)] = []
    private let pendingLimit: Int
    /// The pairs added before any was put in order, in a file beside the model (`PackedStore`):
    /// a record for each part's (`take(part:)`) every `pendingLimit` pairs, read back twice to put
    /// them in their places, once to count each word's photos and once to place them.
    private var spilled: PackedStore?
    private var spilledRecords: [[Int]]
    /// How many parts the words are taken in (`take(part:)`), and each word's part by its number
    /// (`part(of:parts:)`, where there is more than one).
    private let parts: Int
    private var partOfWord: [UInt16] = []
    /// The keys of the word files, sorted, as they were last cut (`SearchIndex.cut`).
    var keys: [String] = []

    struct Span {
        var start: UInt32
        var count: UInt32

        var range: Range<Int> { Int(start)..<Int(start + count) }
    }

    /// The words some photo has.
    var wordCount: Int {
        precondition(pending.isEmpty && !hasSpilled, "the postings are read before their photos are put in order")
        return spans.reduce(0) { $0 + ($1.count == 0 ? 0 : 1) }
    }

    var hasSpilled: Bool { spilledRecords.contains { !$0.isEmpty } }

    /// Postings whose photos added (`add`) go, as they come, into `store` (a new one, that
    /// spills to a file, as a spool does), half a megabyte at a time; or are put in order
    /// `1 << 20` words at a time where there is none (each time, the values made again). Their
    /// words are taken in `parts` parts.
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
        let (number, inserted) = words.insert(word)
        guard inserted else { return number }
        if parts > 1 { partOfWord.append(UInt16(Self.part(of: word, parts: parts))) }
        if spilled == nil { spans.append(Span(start: 0, count: 0)) }
        return number
    }

    /// Lets go of the table that finds a word's number: once every photo is in, no word is
    /// asked for again this build, and the table would be held beside the values as they are
    /// put in their places (`wordFiles`). Made again should one be asked for (`number(of:)`).
    mutating func letGoOfWordTable() {
        words.letGoOfTable()
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
        spans = Array(repeating: Span(start: 0, count: 0), count: words.count)
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
            taken.words.append(from: words, at: number)
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
    mutating func putInOrder() {
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
}

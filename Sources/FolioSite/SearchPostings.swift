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
    /// Each word, by its number (the order words were first met in: files are sorted by word).
    var words = StringTable()
    /// Each word's photos, one word after the other (`spans`, by the word's number): `number * 2 + 1`
    /// where the word is in the photo's title, else `number * 2`, increasing. A word no photo has
    /// any more has none, and is in no file. One array for all, not an array for each word: most of a
    /// library's words (a file's name, a number) are one photo's.
    var values: [UInt32] = []
    var spans: [Span] = []
    /// The keys of the word files, sorted, as they were last cut (`SearchIndex.cut`).
    var keys: [String] = []

    struct Span {
        var start: UInt32
        var count: UInt32

        var range: Range<Int> { Int(start)..<Int(start + count) }
    }

    /// Postings with no word: a whole index's are made through a `PostingsSpool`, a part at a
    /// time; a kept part's are read back (`SearchPostings+Kept`).
    init() {}

    /// The words some photo has.
    var wordCount: Int {
        spans.reduce(0) { $0 + ($1.count == 0 ? 0 : 1) }
    }

    /// The part, of `parts`, that a word is kept in: its shard key's (`SearchText.shardKey`),
    /// so the words of a word file, and of a group of them, are in one part.
    static func part(of word: String, parts: Int) -> Int {
        parts == 1 ? 0 : Int(ContentHash.hash(SearchText.shardKey(word)) % UInt64(parts))
    }

    /// The word's number, given it the first time it is met (with no photo yet).
    mutating func number(of word: String) -> Int {
        let (number, inserted) = words.insert(word)
        if inserted { spans.append(Span(start: 0, count: 0)) }
        return number
    }

    /// Lets go of the table that finds a word's number while no word is asked for: made again
    /// should one be (`number(of:)`).
    mutating func letGoOfWordTable() {
        words.letGoOfTable()
    }

    /// Takes the photos numbered `taken` out and puts `photos` (each one's number and words, as
    /// `add` takes them) back in; returns the numbers of the words whose photos changed: the
    /// words of the word files to make again (`groups(of:)`, `wordFiles(under:touched:each:)`).
    /// A word a photo had and has again, in its title or not as before, did not change: a
    /// retitled photo's place, person and region (each on thousands of photos, in large word
    /// files) are not made again for it.
    mutating func replace(_ taken: Set<Int>, with photos: [(number: Int, words: [Int], title: [Int])]) -> Set<Int> {
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

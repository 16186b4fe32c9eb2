import FolioCore
import Foundation

/// A whole search index's words as its photos come, before they are postings: each word a photo
/// has, as its bytes, with the photo's number, written to the part it is kept in
/// (`SearchPostings.part(of:parts:)`), in a store that spills to a file as a spool does. No word
/// is numbered while photos come; a part's words are numbered when the part is taken
/// (`take(part:)`), and only that part's are held then. Most of a library's words are one
/// photo's (a file's name, a number in a title): held all at once, with the table that finds
/// them, they would be the most a large build's pages step holds.
struct PostingsSpool {
    private let store: PackedStore
    private let parts: Int
    /// Each part's pairs not yet in the store: a word's bytes (as a text) then its value
    /// (`SearchPostings.values`).
    private var pending: [PackedWriter]
    /// Each part's records in the store, in the order they were written.
    private var records: [[Int]]
    /// How many bytes of a part's pairs go into one record.
    private let recordSize: Int

    /// A spool into `store` (one kept in memory when nil), for postings taken in `parts` parts.
    init(spillingInto store: PackedStore?, parts: Int = 1, recordSize: Int = 1 << 16) {
        self.store = store ?? PackedStore(spillingInto: nil)
        self.parts = parts
        self.recordSize = recordSize
        pending = Array(repeating: PackedWriter(), count: parts)
        records = Array(repeating: [], count: parts)
    }

    /// The next photo, by its number: its words, in any order, any number of times; `title` those
    /// of them its title holds. Photos come in the order of their numbers. Words are told apart
    /// by their bytes, as the postings number them (`StringTable`), not as `String` compares them.
    mutating func add(photo: Int, words: some Sequence<String>, title: some Collection<String>) {
        var last: String?
        for word in words.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        where !(last?.utf8.elementsEqual(word.utf8) ?? false) {
            last = word
            let part = parts == 1 ? 0 : SearchPostings.part(of: word, parts: parts)
            let inTitle = title.contains { $0.utf8.elementsEqual(word.utf8) }
            pending[part].text(word)
            pending[part].number(Int64(photo * 2 + (inTitle ? 1 : 0)))
            if pending[part].bytes.count >= recordSize { write(part) }
        }
    }

    private mutating func write(_ part: Int) {
        guard !pending[part].bytes.isEmpty else { return }
        let bytes = pending[part].bytes
        records[part].append(store.append { $0.bytes.append(contentsOf: bytes) })
        pending[part].bytes.removeAll(keepingCapacity: true)
    }

    /// The words of part `part` with their photos in order, numbered among themselves in the
    /// order they were first met. Parts are taken in turn, each once, once every photo is in.
    mutating func take(part: Int) -> SearchPostings {
        precondition(part >= 0 && part < parts, "part \(part) of \(parts)")
        if part == 0 {
            for each in 0..<parts { write(each) }
            pending = []
            store.seal()
        }
        // Read twice: once to number the words and count each one's photos, once to put the
        // photos in their places; no list of the pairs is held.
        var taken = SearchPostings()
        var counts: [UInt32] = []
        forEachPair(of: part) { word, _ in
            let (number, inserted) = taken.words.insert(bytes: word)
            if inserted { counts.append(0) }
            counts[number] += 1
        }
        var start: UInt32 = 0
        taken.spans.reserveCapacity(counts.count)
        for count in counts {
            taken.spans.append(SearchPostings.Span(start: start, count: 0))
            start += count
        }
        counts = []
        taken.values = [UInt32](repeating: 0, count: Int(start))
        forEachPair(of: part) { word, value in
            let at = taken.words.number(bytes: word)!
            taken.values[Int(taken.spans[at].start + taken.spans[at].count)] = value
            taken.spans[at].count += 1
        }
        taken.words.letGoOfTable()
        records[part] = []
        return taken
    }

    private func forEachPair(of part: Int, _ body: (_ word: UnsafeBufferPointer<UInt8>, _ value: UInt32) -> Void) {
        for record in records[part] {
            store.withRecord(at: record) { bytes in
                var reader = PackedReader(bytes)
                while reader.position < bytes.count {
                    let length = Int(reader.number())
                    let word = UnsafeBufferPointer(rebasing: bytes.assumingMemoryBound(to: UInt8.self)[reader.position..<(reader.position + length)])
                    reader.skip(length)
                    body(word, UInt32(reader.number()))
                }
            }
        }
    }
}

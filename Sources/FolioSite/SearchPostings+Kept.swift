import FolioCore
import Foundation

/// A part of the postings as the build state keeps it, inside `KeptPostings`' file.
extension SearchPostings {
    /// The postings as the build state keeps them, one part among others (`KeptPostings`): a line
    /// with the counts of its words and of their photos, its words a line each (none holds a line
    /// break), then each word's count of photos and its photos, as 32-bit little-endian numbers.
    /// Only the words some photo has.
    func encode(into file: inout LedgerWriter) {
        // Looked through three times rather than listed, so no list of the words with photos is
        // held beside them.
        let live = words.indices.lazy.filter { spans[$0].count > 0 }
        let count = live.reduce(0) { $0 + Int(spans[$1].count) }
        file.line.append(contentsOf: "words \(wordCount) photos \(count)".utf8)
        file.endLine()
        for word in live {
            words.withBytes(of: word) { file.line.append(contentsOf: $0) }
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
        // (The words' bytes are not counted in the file: they grow as the words are read.)
        postings.words.reserveCapacity(room, byteCount: 0)
        for _ in 0..<wordCount {
            guard let word = stream.line(), postings.words.insert(String(word)).inserted else { return nil }
        }
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
        guard stream.failure == nil else { return nil }
        return postings
    }
}

import FolioCore
import Foundation

/// The search index's postings as a build keeps them for the next (`BuildState.search()`): the
/// number each photo had, the keys of the word files, and the words with their photos in parts
/// (`SearchPostings.part(of:parts:)`). The next build reads a part, updates it and keeps it again
/// before it reads the next (`SiteBuilder.searchIndex(updating:…)`), so a large library's
/// postings are never held whole.
///
/// The file (`MadePostings.encode`): lines of text (a heading; the counts, the order of the
/// photos and the stamp of the files written from them, `SearchFiles.digest`; the keys), each
/// photo's number as a 32-bit little-endian number, then each part (`SearchPostings.encode`),
/// then the hash of all of it (`LedgerWriter.endWithSum()`), checked as the last part is read.
package struct KeptPostings {
    static let heading = "folio-search-postings 5"

    /// The number of each photo indexed, by its position in the order they were numbered in
    /// (`SearchNumbering.numbers`), and the hash of their identities in that order
    /// (`SearchNumbering.order`): which photo had which number, for the next build to take out
    /// the photos that went or moved.
    package let photoNumbers: [Int32]
    package let order: UInt64
    /// The keys of the word files, sorted.
    package let keys: [String]
    package let parts: Int
    /// The stamp of the files written from them (`SearchFiles.digest(of:in:)`).
    package let files: UInt64
    private let stream: LedgerStream
    private var partsRead = 0

    package var photoCount: Int { photoNumbers.count }

    /// The word files these postings were written as: each word file, in the order of their keys,
    /// and `meta.js`, which names every word file (a site with one more has another).
    package var writtenFiles: [String] { Self.writtenFiles(keys: keys) }

    static func writtenFiles(keys: [String]) -> [String] {
        keys.map(SearchIndex.wordFile) + [SearchIndex.folder + "meta.js"]
    }

    /// The postings `MadePostings.encode` wrote, read up to their first part; nil for anything else.
    package init?(from stream: LedgerStream) {
        guard stream.line() == Substring(Self.heading), let fields = stream.line()?.split(separator: " "), fields.count == 10,
              fields[0] == "photos", let photos = Int(fields[1]), photos >= 0, photos <= stream.size / 4,
              fields[2] == "order", let order = UInt64(fields[3], radix: 16),
              fields[4] == "files", let files = UInt64(fields[5], radix: 16),
              fields[6] == "keys", let keyCount = Int(fields[7]), keyCount >= 0, keyCount <= stream.size,
              fields[8] == "parts", let parts = Int(fields[9]), parts >= 1, parts <= UInt16.max else { return nil }
        var keys: [String] = []
        keys.reserveCapacity(keyCount)
        for _ in 0..<keyCount {
            guard let key = stream.line() else { return nil }
            keys.append(String(key))
        }
        var numbers: [Int32] = []
        numbers.reserveCapacity(photos)
        for _ in 0..<photos {
            guard let number = stream.number(), number < SearchNumbering.limit else { return nil }
            numbers.append(Int32(number))
        }
        (photoNumbers, self.order, self.keys, self.parts, self.files, self.stream) = (numbers, order, keys, parts, files, stream)
    }

    /// The same, from bytes (a test's).
    package init?(_ data: Data) {
        self.init(from: LedgerStream(bytes: data))
    }

    /// The next part, its word files last cut at the keys of its words; nil past the last, or
    /// where the file holds anything but a part, or, at the last, when the file's hash is not
    /// the one it ends with (then this build cannot use them).
    package mutating func nextPart() -> SearchPostings? {
        guard partsRead < parts else { return nil }
        let part = partsRead
        partsRead += 1
        let keys = parts == 1 ? self.keys : self.keys.filter { SearchPostings.part(of: $0, parts: parts) == part }
        guard let postings = SearchPostings.decode(from: stream, keys: keys) else { return nil }
        if partsRead == parts, !stream.endsWithSum() || stream.offset != stream.size { return nil }
        return postings
    }
}

/// The postings a build made, to keep (`BuildState.save(search:files:)`, read back as
/// `KeptPostings`): the photos' numbers, the word files' keys, and each part, encoded as it was
/// finished, a piece at a time, in a store that spills to a file past a few megabytes.
package struct MadePostings: Sendable {
    package let photoNumbers: [Int32]
    package let order: UInt64
    package let parts: Int
    /// The keys of the word files, sorted once the last part is added.
    package private(set) var keys: [String] = []
    /// The words some photo has.
    package private(set) var wordCount = 0
    private let encoded: Spool
    private var partsAdded = 0

    /// The postings of the photos numbered by `numbering`, in `parts` parts, those finished held
    /// in a store that spills into `folder` (nil: in memory).
    init(numbering: SearchNumbering, parts: Int, spillingInto folder: String?) {
        photoNumbers = numbering.numbers
        order = numbering.order
        self.parts = parts
        encoded = Spool(spillingInto: folder)
    }

    /// Whether every part is in.
    var isWhole: Bool { partsAdded == parts }

    /// Adds the next part, whose word files are made (`SearchPostings.wordFiles`: its keys are theirs).
    mutating func add(_ part: SearchPostings) {
        precondition(partsAdded < parts, "a part past the \(parts) of the postings")
        var file = LedgerWriter(sink: encoded.write)
        part.encode(into: &file)
        file.finish()
        partsAdded += 1
        keys += part.keys
        wordCount += part.wordCount
        if isWhole { keys.sort() }
    }

    /// The files these postings were written as (`KeptPostings.writtenFiles`).
    package var writtenFiles: [String] { KeptPostings.writtenFiles(keys: keys) }

    /// The postings as `KeptPostings` reads them, with the stamp of the files written from them,
    /// handed to `write` a piece at a time (60 kB or so), never made whole.
    package func encode(files: UInt64, to write: @escaping (UnsafeRawBufferPointer) -> Void) {
        var file = LedgerWriter(sink: write)
        encode(files: files, into: &file)
        file.finish()
    }

    /// The same, made whole (a test's).
    package func encoded(files: UInt64) -> Data {
        var file = LedgerWriter(capacity: 0)
        encode(files: files, into: &file)
        return file.finish()
    }

    private func encode(files: UInt64, into file: inout LedgerWriter) {
        precondition(isWhole, "postings kept with \(partsAdded) of their \(parts) parts")
        file.line.append(contentsOf: """
            \(KeptPostings.heading)
            photos \(photoNumbers.count) order \(ContentHash.hexText(order)) files \(ContentHash.hexText(files)) \
            keys \(keys.count) parts \(parts)
            """.utf8)
        file.endLine()
        for key in keys {
            file.line.append(contentsOf: key.utf8)
            file.endLine()
        }
        for number in photoNumbers {
            withUnsafeBytes(of: UInt32(number).littleEndian) { file.line.append(contentsOf: $0) }
            file.spill()
        }
        encoded.forEachPiece { piece in
            file.line.append(contentsOf: piece)
            file.spill()
        }
        file.endWithSum()
    }
}

/// Bytes written a piece at a time and read back in the order they came: in memory, or past
/// `PackedStore.spoolSpillSize` in a file of no name (`PackedStore`, a record for each piece).
private final class Spool: @unchecked Sendable {
    private let store: PackedStore
    private var pieces: [Int] = []

    init(spillingInto folder: String?) {
        store = PackedStore(spillingInto: folder, at: PackedStore.spoolSpillSize)
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        pieces.append(store.append { $0.bytes.append(contentsOf: bytes) })
    }

    /// Each piece, in order; nothing is written after.
    func forEachPiece(_ body: (UnsafeRawBufferPointer) -> Void) {
        store.seal()
        for piece in pieces { store.withRecord(at: piece, body) }
    }
}

@testable import FolioCore
@testable import FolioPipeline
@testable import FolioSite
import FolioChanges
import FolioTestSupport
import Foundation
import XCTest

/// Build-state files read a buffer at a time (`LedgerStream`) read as the same bytes held whole
/// do, whatever the buffer's size: lines and numbers across the buffer's ends, lines longer than
/// it, a last line with no line feed, the file's hash.
final class LedgerStreamTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func file(_ data: Data, _ name: String = "ledger") throws -> String {
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    func testAFileReadABufferAtATimeIsItsBytes() throws {
        var random = SplitMix64(0x1ED6_E5)
        var text = Data()
        var lines: [String] = []
        for number in 0..<300 {
            let line = String(repeating: "é\(number % 10)", count: Int(random.next() % 40))
            lines.append(line)
            text.append(contentsOf: line.utf8)
            text.append(0x0A)
        }
        let numbers = (0..<200).map { _ in UInt32(truncatingIfNeeded: random.next()) }
        var whole = text
        for number in numbers { withUnsafeBytes(of: number.littleEndian) { whole.append(contentsOf: $0) } }
        whole.append(contentsOf: "last line".utf8)
        let path = try file(whole)
        for size in [1, 3, 4, 7, 64, 1 << 20] {
            let stream = try XCTUnwrap(LedgerStream(path: path, bufferSize: size))
            XCTAssertEqual(stream.size, whole.count)
            for line in lines { XCTAssertEqual(stream.line().map(String.init), line, "buffer of \(size)") }
            XCTAssertEqual(stream.offset, text.count)
            for number in numbers { XCTAssertEqual(stream.number(), number, "buffer of \(size)") }
            XCTAssertFalse(stream.atEnd)
            XCTAssertEqual(stream.line(), "last line", "a last line with no line feed")
            XCTAssertTrue(stream.atEnd)
            XCTAssertNil(stream.line())
            XCTAssertNil(stream.number())
            XCTAssertEqual(stream.digest, ContentHash.hash(whole))
            XCTAssertNil(stream.failure)
        }
        let held = LedgerStream(bytes: whole)
        XCTAssertEqual(held.line().map(String.init), lines[0])
        XCTAssertEqual(held.digest, ContentHash.hash(whole))
        let early = try XCTUnwrap(LedgerStream(path: path, bufferSize: 5))
        XCTAssertEqual(early.digest, ContentHash.hash(whole), "the hash of the whole file, read or not")
        XCTAssertNil(LedgerStream(path: folder.appendingPathComponent("missing").path))
    }

    /// The page manifest and the search postings read from their files as they are from bytes;
    /// a manifest whose hash is not the one its state names is not read.
    func testTheManifestAndThePostingsReadFromTheirFilesAsFromTheirBytes() throws {
        var random = SplitMix64(0xFA11)
        var manifest = PageManifest()
        for number in 0..<2_000 {
            let path = number % 5 == 0 ? "search/data/t-\(random.next() % 1_000_000).js" : "photos/p\(random.next() % 1_000_000)/index.html"
            manifest[path] = PageManifest.Entry(
                checksum: random.next(), input: number % 9 == 0 ? PageManifest.wholeFile : random.next(),
                changed: Date(timeIntervalSince1970: TimeInterval(random.next() % 4_000_000_000)))
        }
        let written = manifest.encoded()
        let path = try file(written, "pages")
        let read = try XCTUnwrap(PageManifest.read(path: path, hash: ContentHash.hex(written)))
        XCTAssertEqual(read.entries, manifest.entries)
        XCTAssertEqual(read.encoded(), written)
        XCTAssertNil(PageManifest.read(path: path, hash: ContentHash.hex(written + Data([0x0A]))), "another hash")
        // One folder's entries alone, the rest not read into it (the search index's, read before the rest).
        let search = try XCTUnwrap(PageManifest.read(path: path, hash: ContentHash.hex(written), under: "search/data/"))
        XCTAssertEqual(search.entries, manifest.only(under: "search/data/").entries)
        XCTAssertEqual(search.count, manifest.entries.keys.filter { $0.hasPrefix("search/data/") }.count)
        XCTAssertGreaterThan(search.count, 300)
        XCTAssertEqual(try XCTUnwrap(PageManifest.read(path: path, hash: ContentHash.hex(written))).count, manifest.count, "and read whole again")
        XCTAssertNil(PageManifest.read(path: folder.appendingPathComponent("missing").path, hash: ContentHash.hex(written)))

        var postings = PostingsSpool(spillingInto: nil, parts: 3)
        for photo in 0..<400 {
            let words = (0..<Int(random.next() % 6)).map { _ in "w\(random.next() % 300)" }
            postings.add(photo: photo, words: words, title: Array(words.prefix(1)))
        }
        // In three parts, each as the state keeps it.
        var made = MadePostings(numbering: SearchNumbering(count: 400), parts: 3, spillingInto: nil)
        func encoded(_ part: SearchPostings) -> Data {
            var file = LedgerWriter(capacity: 0)
            part.encode(into: &file)
            return file.finish()
        }
        var parts: [Data] = []
        for number in 0..<3 {
            var part = postings.take(part: number)
            _ = part.wordFiles()
            parts.append(encoded(part))
            made.add(part)
        }
        let whole = made.encoded(files: 0xABC)
        let postingsPath = try file(whole, "search")
        for size in [1, 5, 1 << 20] {
            var kept = try XCTUnwrap(KeptPostings(from: try XCTUnwrap(LedgerStream(path: postingsPath, bufferSize: size))))
            XCTAssertEqual(kept.files, 0xABC)
            XCTAssertEqual(kept.keys, made.keys)
            XCTAssertEqual(kept.photoNumbers, SearchNumbering(count: 400).numbers)
            for number in 0..<3 {
                XCTAssertEqual(encoded(try XCTUnwrap(kept.nextPart(), "part \(number)")), parts[number], "buffer of \(size)")
            }
            XCTAssertNil(kept.nextPart(), "no part past the last")
        }
        var cut = try XCTUnwrap(KeptPostings(from: try XCTUnwrap(LedgerStream(path: try file(whole.prefix(whole.count - 2), "cut"), bufferSize: 7))))
        XCTAssertNotNil(cut.nextPart())
        XCTAssertNotNil(cut.nextPart())
        XCTAssertNil(cut.nextPart(), "the last part cut short")
    }
}

@testable import FolioCore
import XCTest

/// The store a snapshot packs its photos in: in memory while small, then in a file of no name,
/// mapped once sealed; every record read back where it was written, from any thread.
final class PackedStoreTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Records of many lengths (a few longer than one read takes), each with numbers at the
    /// edges of their range and texts.
    private func fill(_ store: PackedStore, count: Int) -> [Int] {
        (0..<count).map { n in
            store.append { out in
                out.number(Int64(n))
                out.number([Int64.min, -1, 0, 127, 128, Int64.max][n % 6])
                out.bits(UInt64(n) &* 0x9E37_79B9_7F4A_7C15)
                out.text(String(repeating: "é", count: n % 97 == 0 ? 1_500 : n % 40))
                out.text(n % 3 == 0 ? nil : "r\(n)")
                out.flag(n % 2 == 0)
            }
        }
    }

    private static func check(_ store: PackedStore, _ offsets: [Int], file: StaticString = #filePath, line: UInt = #line) {
        for (n, offset) in offsets.enumerated() {
            store.withRecord(at: offset) { bytes in
                var read = PackedReader(bytes)
                XCTAssertEqual(read.number(), Int64(n), file: file, line: line)
                XCTAssertEqual(read.number(), [Int64.min, -1, 0, 127, 128, Int64.max][n % 6], file: file, line: line)
                XCTAssertEqual(read.bits(), UInt64(n) &* 0x9E37_79B9_7F4A_7C15, file: file, line: line)
                XCTAssertEqual(read.text(), String(repeating: "é", count: n % 97 == 0 ? 1_500 : n % 40), file: file, line: line)
                XCTAssertEqual(read.optionalText(), n % 3 == 0 ? nil : "r\(n)", file: file, line: line)
                XCTAssertEqual(read.flag(), n % 2 == 0, file: file, line: line)
            }
        }
    }

    func testRecordsSpilledToAFileAreReadBackFromEveryThread() throws {
        let store = PackedStore(spillingInto: folder.path, at: 1_000)
        let offsets = fill(store, count: 2_000)
        store.seal()
        XCTAssertTrue(store.spills)
        XCTAssertEqual(store.held, 0, "the records written after the last spill go to the file at the seal, and the room they had goes")
        Self.check(store, offsets)
        // The file has no name: nothing is left in the folder, during the build or after it.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            Self.check(store, offsets)
        }
    }

    func testASmallStoreAndOneWithNowhereToSpillKeepTheirRecordsInMemory() throws {
        let small = PackedStore(spillingInto: folder.path)
        let offsets = fill(small, count: 100)
        small.seal()
        XCTAssertFalse(small.spills)
        XCTAssertGreaterThan(small.held, 0)
        Self.check(small, offsets)
        let nowhere = PackedStore(spillingInto: folder.appendingPathComponent("missing").path, at: 100)
        let more = fill(nowhere, count: 500)
        nowhere.seal()
        XCTAssertFalse(nowhere.spills, "a folder that takes no file leaves the records in memory")
        Self.check(nowhere, more)
    }

    /// A piece of a record is the same bytes as that piece of the whole, read from memory or
    /// from the file, at the record's start, in its middle and at its end.
    func testAPieceOfARecordIsThoseBytesOfTheWhole() throws {
        for spillAt in [Int.max, 100] {
            let store = PackedStore(spillingInto: folder.path, at: spillAt)
            // Lengths whose own length takes one, two and three bytes.
            let records = [5, 200, 20_000].map { count in (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ count) } }
            let offsets = records.map { bytes in store.append { $0.bytes.append(contentsOf: bytes) } }
            store.seal()
            XCTAssertEqual(store.spills, spillAt == 100)
            for (bytes, offset) in zip(records, offsets) {
                for part in [0..<0, 0..<1, 0..<bytes.count, 3..<5, (bytes.count - 2)..<bytes.count, (bytes.count / 2)..<bytes.count] {
                    XCTAssertEqual(store.withRecord(at: offset, part: part) { Array($0) }, Array(bytes[part]), "\(part) of \(bytes.count)")
                }
            }
        }
    }
}

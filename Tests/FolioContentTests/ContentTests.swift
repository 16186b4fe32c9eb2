@testable import FolioContent
@testable import FolioCore
@testable import FolioModel
import FolioMetadata
@testable import FolioPipeline
import FolioTestSupport
import Foundation
import XCTest

final class ContentTests: XCTestCase {
    func load(_ site: TestSite) throws -> ContentInventory {
        try ContentLoader(contentRoot: site.content).load()
    }

    func testXMLAndBinaryCatalogsAnywhereUnderContent() throws {
        let site = try TestSite()
        try site.photo("a.jpg")
        try site.photo("trips/b.jpg")
        try site.catalog("FakeData.plist", [["path": "a.jpg", "name": "A", "user": "Josh"]])
        try site.catalog("trips/trips.plist", [[
            "path": "b.jpg", "name": "B", "user": "Al", "description": "About B",
            "place": "Lyon, Auvergne-Rhône-Alpes, France", "region": "Rhône", "latitude": 45.76, "longitude": 4.83,
            "taken": Date(timeIntervalSince1970: 1_700_000_000), "uploaded": "2024-05-01T10:00:00Z",
            "favorite": true, "tags": ["city", "river"],
        ]], format: .binary)
        let inventory = try load(site)
        XCTAssertEqual(inventory.issues, [])
        XCTAssertEqual(inventory.entries.map(\.path), ["a.jpg", "trips/b.jpg"])
        let b = try XCTUnwrap(inventory.entries[1].record)
        XCTAssertEqual(b.location, "content/trips/trips.plist, record 0")
        XCTAssertEqual(b.description, "About B")
        XCTAssertEqual(b.region, "Rhône")
        XCTAssertEqual(b.latitude, 45.76)
        XCTAssertEqual(b.taken, Date(timeIntervalSince1970: 1_700_000_000))
        XCTAssertEqual(b.uploaded, ISO8601DateFormatter().date(from: "2024-05-01T10:00:00Z"))
        XCTAssertTrue(b.favorite)
        XCTAssertEqual(b.tags, ["city", "river"])
    }

    /// A build's load keeps of each record only where it is and its fingerprint; the import
    /// reads again the records of the photos that changed: as the load read them, or as the
    /// catalog says now if it was edited in between (by the path, wherever the record moved).
    func testRecordsLetGoAreReadAgainAsTheCatalogHasThem() throws {
        let site = try TestSite()
        for name in ["a.jpg", "b.jpg", "c.jpg", "d.jpg", "loose.jpg"] { try site.photo("trip/\(name)") }
        let records: [[String: Any]] = ["a", "b", "c", "d"].map { ["path": "\($0).jpg", "name": $0.uppercased(), "user": "Josh", "tags": [$0]] }
        try site.catalog("trip/trip.plist", [["name": "no path"]] + records)
        let whole = try load(site)
        var loader = ContentLoader(contentRoot: site.content)
        loader.keepsRecords = false
        let light = try loader.load()
        XCTAssertEqual(light.entries.map(\.path), whole.entries.map(\.path))
        XCTAssertEqual(light.issues, whole.issues)
        XCTAssertTrue(light.entries.allSatisfy { $0.record == nil }, "no record held")
        XCTAssertEqual(light.entries.map(\.recordFingerprint), whole.entries.map { $0.record?.fingerprintValue })
        XCTAssertEqual(light.entries.map { ImportStep.fingerprint($0, favorites: FavoriteRule(rating: 4)) },
                       whole.entries.map { ImportStep.fingerprint($0, favorites: FavoriteRule(rating: 4)) }, "the import tells them by the same fingerprints")
        let reader = CatalogReader(contentRoot: site.content, files: LocalFileAccess())
        var changed = light.entries.map { ($0, KnownPhoto?.none) }
        XCTAssertEqual(ImportStep.takeBackRecords(&changed, reader: reader).count, 0)
        XCTAssertEqual(changed.map(\.0), whole.entries, "read again, the records the load read")

        // Edited between the load and the import: records moved, one changed, one gone.
        var edited = Array(records.reversed())
        edited[0]["name"] = "D, renamed"
        edited.removeLast()
        try site.catalog("trip/trip.plist", edited)
        changed = light.entries.map { ($0, KnownPhoto?.none) }
        let lost = ImportStep.takeBackRecords(&changed, reader: reader)
        XCTAssertEqual(lost.map(\.0), [.content(path: "trip/a.jpg")])
        XCTAssertEqual(lost.first?.1.path, "content/trip/trip.plist (trip/a.jpg)")
        XCTAssertEqual(changed.map(\.0.path), ["trip/b.jpg", "trip/c.jpg", "trip/d.jpg", "trip/loose.jpg"])
        XCTAssertEqual(changed.map { $0.0.record?.name }, ["B", "C", "D, renamed", nil])
        XCTAssertEqual(changed.map { $0.0.record?.tags }, [["b"], ["c"], ["d"], nil])
    }

    func testImagesNoCatalogListsAreFoundToo() throws {
        let site = try TestSite()
        try site.photo("listed.jpg")
        try site.photo("loose/unlisted.JPG")
        try site.photo(".hidden/secret.jpg")
        try site.write(Data("notes".utf8), to: "content/notes.txt")
        try site.catalog("c.plist", [["path": "listed.jpg", "name": "Listed", "user": "Josh"]])
        let inventory = try load(site)
        XCTAssertEqual(inventory.entries.map(\.path), ["listed.jpg", "loose/unlisted.JPG"])
        XCTAssertNil(inventory.entries[1].record)
    }

    func testBadRecordsAreReportedByCatalogRecordAndKey() throws {
        let site = try TestSite()
        try site.photo("ok.jpg")
        try site.catalog("FakeData.plist", [
            ["path": "ok.jpg", "name": "Fine", "user": "Josh", "colour": "red", "latitude": "north"],
            ["name": "No path"],
            ["path": "missing.jpg", "name": "Gone"],
            ["path": "../../etc/passwd", "name": "Escape"],
            ["path": "/etc/hosts"],
            ["path": "ok.jpg", "name": "Twice"],
        ])
        try site.write(Data("<plist><array><dict><key>path</key>".utf8), to: "content/broken.plist")
        try site.write(try PropertyListSerialization.data(fromPropertyList: ["path": "x"], format: .xml, options: 0),
                       to: "content/notarray.plist")
        let inventory = try load(site)
        XCTAssertEqual(inventory.entries.map(\.path), ["ok.jpg"])
        let messages = inventory.issues.map(\.description)
        let expected = [
            "error: content/broken.plist: not a readable property list",
            "warning: content/FakeData.plist, record 0: unknown key 'colour' ignored",
            "warning: content/FakeData.plist, record 0: key 'latitude' should be a number from -90 to 90",
            "error: content/FakeData.plist, record 1: no 'path' to an image",
            "error: content/FakeData.plist, record 2 (missing.jpg): image file not found",
            "error: content/FakeData.plist, record 3: path '../../etc/passwd' leads outside content/",
            "error: content/FakeData.plist, record 4: path '/etc/hosts' leads outside content/",
            "warning: content/FakeData.plist, record 5: 'ok.jpg' is listed by an earlier record too",
            "error: content/notarray.plist: a catalog must be an array of dictionaries, found a dictionary",
        ]
        for prefix in expected {
            XCTAssertTrue(messages.contains { $0.hasPrefix(prefix) }, "missing: \(prefix)\nin: \(messages.joined(separator: "\n"))")
        }
    }

    func testARecordThatIsNotADictionaryIsReported() throws {
        let site = try TestSite()
        let data = try PropertyListSerialization.data(fromPropertyList: ["just a string"], format: .xml, options: 0)
        try site.write(data, to: "content/odd.plist")
        let inventory = try load(site)
        XCTAssertEqual(inventory.issues.map(\.description), ["error: content/odd.plist, record 0: expected a dictionary, found a string"])
    }

    func testALinkLeadingOutOfContentIsRefused() throws {
        let site = try TestSite()
        let outside = site.root.appendingPathComponent("outside.jpg")
        try Data(contentsOf: TestSite.seedPhoto).write(to: outside)
        try FileManager.default.createSymbolicLink(at: site.content.appendingPathComponent("link.jpg"), withDestinationURL: outside)
        let inventory = try load(site)
        XCTAssertEqual(inventory.entries.count, 0)
        XCTAssertEqual(inventory.issues.map(\.description), ["error: content/link.jpg: is a link that leads outside content/"])
    }

    func testContentPathsNeverClimbOut() {
        XCTAssertEqual(ContentPath.resolve("a/../b.jpg", in: "trips"), "trips/b.jpg")
        XCTAssertEqual(ContentPath.resolve("../b.jpg", in: "trips"), "b.jpg")
        XCTAssertNil(ContentPath.resolve("../../b.jpg", in: "trips"))
        XCTAssertNil(ContentPath.resolve("/b.jpg", in: ""))
    }

    func testXXH64MatchesTheReferenceVectors() {
        XCTAssertEqual(ContentHash.hex(Data()), "ef46db3751d8e999")
        XCTAssertEqual(ContentHash.hex("a"), "d24ec4f1a98c6e5b")
        XCTAssertEqual(ContentHash.hex("abc"), "44bc2cf5ad770999")
        let long = Data((0..<1000).map { UInt8($0 % 251) })
        XCTAssertEqual(ContentHash.hash(long), ContentHash.hash(long))
        XCTAssertNotEqual(ContentHash.hash(long), ContentHash.hash(long.dropLast()))
        // Past one 32-byte stripe, as the hash gave them before it was cut into parts.
        XCTAssertEqual(ContentHash.hex(long), "f306f04aa88b54d3")
        XCTAssertEqual(ContentHash.hex(long.prefix(32)), "cbf59c5116ff32b4")
        XCTAssertEqual(ContentHash.hex(long.prefix(63)), "e26aa9e2a95f8e4f")
        XCTAssertEqual(ContentHash.hex(long.prefix(100), seed: 7), "80653e7e9b887cdd")
    }

    /// Bytes hashed a piece at a time (a file written as it is made) give the hash of them all.
    func testAHashOfPiecesIsTheHashOfTheWhole() {
        var random = SplitMix64(0x5_7AE)
        let bytes = Data((0..<700).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        for count in [0, 1, 31, 32, 33, 64, 65, 700] {
            let whole = bytes.prefix(count)
            for _ in 0..<20 {
                var stream = ContentHash.Stream()
                var at = whole.startIndex
                while at < whole.endIndex {
                    let next = min(whole.endIndex, at + Int(random.next() % 70))
                    whole[at..<next].withUnsafeBytes { stream.add($0) }
                    at = next
                }
                XCTAssertEqual(stream.value, ContentHash.hash(whole), "\(count) bytes")
            }
        }
    }
}

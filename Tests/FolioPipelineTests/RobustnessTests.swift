@testable import FolioModel
@testable import FolioPipeline
import FolioTestSupport
import Foundation
import GRDB
import XCTest

/// What once crashed Folio, lost work or touched what was not its own.
final class RobustnessTests: XCTestCase {
    func testANulInAnyTextIsLeftOutWithAWarningNotACrash() async throws {
        let site = try TestSite()
        try site.photo("a.jpg")
        try site.photo("b.jpg", from: TestSite.repository.appendingPathComponent("content/photo2.jpg"))
        // A binary plist holds a NUL in a string as it is.
        try site.catalog("c.plist", [
            ["path": "a.jpg", "name": "Har\u{0}bour", "user": "Jo\u{0}sh", "place": "Ly\u{0}on, France", "region": "Rh\u{0}ône",
             "description": "Two\u{0}\nlines\u{7}", "tags": ["ta\u{0}g"]],
            ["path": "b.jpg", "name": "Market", "user": "Jo\u{0}sh"],
        ], format: .binary)
        let report = try await site.build()
        XCTAssertTrue(report.succeeded, report.issues.description)
        let warnings = report.warnings.map(\.description)
        for key in ["name", "user", "place", "region", "description", "tags"] {
            XCTAssertTrue(warnings.contains("warning: content/c.plist, record 0: key '\(key)' holds control characters; they are left out"),
                          "\(key): \(warnings)")
        }
        XCTAssertEqual(try site.database.count("person"), 1, "one Josh, with or without the NUL")
        let josh = try site.read("people/josh.html")
        XCTAssertTrue(josh.contains("<h1>Josh</h1>"), josh)
        XCTAssertTrue(josh.contains("Harbour") && josh.contains("Market"))
        XCTAssertTrue(try site.read("places/index.html").contains("Lyon"), "the place is kept, not dropped")
        XCTAssertTrue(try site.read("regions/index.html").contains("Rhône"))
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])
    }

    func testTheModelNeverStoresAControlCharacter() throws {
        let database = try GalleryDatabase.inMemory()
        try database.apply(ImportBatch(upserts: [
            PhotoImport(source: .content(path: "a.jpg"), identifier: "pa", title: "T\u{0}itle", person: "A\u{0}l",
                        place: "P\u{0}aris, France", region: "Î\u{1}le-de-France", uploaded: Date(), width: 4, height: 3, checksum: "c"),
        ]))
        try database.writer.read { db in
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT name FROM person"), ["Al"])
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT name FROM place"), ["Paris, France"])
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT name FROM region"), ["Île-de-France"])
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT title FROM photo"), ["Title"])
        }
    }

    func testSomeoneElsesDatabaseIsRefusedAndLeftUntouched() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-foreign-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("folio.sqlite")
        let other = try DatabaseQueue(path: url.path)
        try other.write { db in
            try db.execute(sql: "CREATE TABLE invoice (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoice (total) VALUES (12.5)")
            // Even one whose tables share names with Folio's.
            try db.execute(sql: "CREATE TABLE person (id INTEGER PRIMARY KEY, email TEXT)")
        }
        try other.close()
        let before = try Data(contentsOf: url)

        XCTAssertThrowsError(try GalleryDatabase.open(at: url)) { error in
            XCTAssertEqual("\(error)", "\(url.path): not a Folio model (it holds the tables 'invoice', 'person'); Folio leaves it as it is")
        }
        XCTAssertEqual(try Data(contentsOf: url), before, "not a byte of it changed")
    }

    func testAModelFromANewerFolioIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-newer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("folio.sqlite")
        _ = try GalleryDatabase.open(at: url)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99: from the future')") }
        try queue.close()
        XCTAssertThrowsError(try GalleryDatabase.open(at: url)) { error in
            XCTAssertTrue("\(error)".contains("made by a newer Folio (it has 'v99: from the future')"), "\(error)")
        }
    }

    func testAFolioModelSaysWhatItIs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-id-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("folio.sqlite")
        _ = try GalleryDatabase.open(at: url)
        let header = try Data(contentsOf: url).subdata(in: 68..<72)  // the application id, big-endian
        XCTAssertEqual(String(decoding: header, as: UTF8.self), "FOLI")
    }

    func testThePublishedSiteAndTheNextOneShareTheirMedia() async throws {
        let site = try TestSite.threePhotos()
        try await site.build()
        let next = site.root.appendingPathComponent(".public.next")
        try site.write(Data(#"{"title": "Again"}"#.utf8), to: "folio.json")
        try await site.build()
        XCTAssertTrue(try site.read("index.html").contains("Again"))
        let old = try String(contentsOf: next.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertFalse(old.contains("Again"), "the tree beside public/ holds the site before")
        let media = try FileManager.default.contentsOfDirectory(atPath: site.publicFolder.appendingPathComponent("media").path)
        XCTAssertFalse(media.isEmpty)
        for name in media where name != "tiles" {
            let published = try FileManager.default.attributesOfItem(atPath: site.publicFolder.appendingPathComponent("media/\(name)").path)
            let kept = try FileManager.default.attributesOfItem(atPath: next.appendingPathComponent("media/\(name)").path)
            XCTAssertEqual(published[.systemFileNumber] as? Int, kept[.systemFileNumber] as? Int, "\(name) is one file in two trees")
        }
    }

    func testABlankPathIsReportedNotPassedOver() async throws {
        let site = try TestSite()
        try site.photo("a.jpg")
        try site.catalog("c.plist", [["path": "  ", "name": "Nowhere"], ["path": 42], ["path": "a.jpg"]])
        let report = try await site.build()
        XCTAssertEqual(report.errors.map(\.description), [
            "error: content/c.plist, record 0: key 'path' is empty",
            "error: content/c.plist, record 1: no 'path' to an image: key 'path' is not a string",
        ])
        XCTAssertEqual(report.photos, 1)
    }

    func testLinksThatAreNotPhotosAreSaidSo() async throws {
        let site = try TestSite()
        try site.photo("sub/a.jpg")
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("folio-outside-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data(contentsOf: TestSite.seedPhoto).write(to: outside.appendingPathComponent("secret.jpg"))
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: site.content.appendingPathComponent("elsewhere").path, withDestinationPath: outside.path)
        try fm.createSymbolicLink(atPath: site.content.appendingPathComponent("again").path, withDestinationPath: "sub")
        try fm.createSymbolicLink(atPath: site.content.appendingPathComponent("gone").path, withDestinationPath: "nothing-here")
        try fm.createSymbolicLink(atPath: site.content.appendingPathComponent("out.plist").path,
                                  withDestinationPath: outside.appendingPathComponent("catalog.plist").path)
        let report = try await site.build()
        let issues = Set(report.issues.map(\.description))
        XCTAssertTrue(issues.contains("error: content/elsewhere: is a link that leads outside content/"), "\(issues)")
        XCTAssertTrue(issues.contains("error: content/out.plist: is a link that leads outside content/"), "\(issues)")
        XCTAssertTrue(issues.contains("warning: content/again: is a link to a folder inside content/: not followed (its photos are found where they are)"), "\(issues)")
        XCTAssertTrue(issues.contains("warning: content/gone: is a link that leads nowhere"), "\(issues)")
        XCTAssertEqual(report.photos, 1, "the photo is found once, where it is")
        XCTAssertFalse(try PublicTreeChecks(root: site.publicFolder).pages.contains { try site.read($0).contains("secret") })
    }


    func testGIFBombsAreRefusedBeforeAnyPixelIsDecoded() async throws {
        let site = try TestSite()
        try site.write(TestInputs.gifBomb(width: 10000, height: 10000), to: "content/huge.gif")
        try site.write(TestInputs.gifBomb(width: 6000, height: 6000), to: "content/large.gif")
        XCTAssertLessThan(TestInputs.gifBomb(width: 10000, height: 10000).count, 50)
        let report = try await site.build()
        XCTAssertEqual(report.errors.map(\.description).sorted(), [
            "error: content/huge.gif: 10000x10000 pixels is over the limit of 40000000 for images decoded whole (fullDecodePixelLimit)",
            "error: content/large.gif: corrupt or truncated GIF data (the first frame's data is cut short, or too little for its size)",
        ])
    }

    func testAPhotoThatCannotFitInTheMemoryLimitIsRefused() async throws {
        let site = try TestSite()
        try site.write(try SamplePhoto(width: 6000, height: 4000, seed: 3).jpeg(), to: "content/big.jpg")
        try site.photo("small.jpg")
        try site.write(Data(#"{"memoryLimit": 64}"#.utf8), to: "folio.json")
        let report = try await site.build()
        XCTAssertEqual(report.errors.count, 1)
        XCTAssertTrue(report.errors[0].description.hasPrefix("error: content/big.jpg: needs about 139 MB to decode, more than memoryLimit (64 MB) allows"),
                      report.errors[0].description)
        XCTAssertEqual(report.photos, 1, "the small one is published")
    }

    func testTheMemoryBudgetHoldsJobsUntilTheyFit() async throws {
        let budget = MemoryBudget(bytes: 100)
        XCTAssertTrue(budget.affords(100))
        XCTAssertFalse(budget.affords(101))
        await budget.acquire(60)
        let order = Order()
        let big = Task { await budget.acquire(95); order.add("big") }
        while await budget.queued < 1 { try await Task.sleep(nanoseconds: 1_000_000) }
        let small = Task { await budget.acquire(10); order.add("small") }
        while await budget.queued < 2 { try await Task.sleep(nanoseconds: 1_000_000) }
        XCTAssertEqual(order.all, [], "95 does not fit beside 60, and the small one, which would, waits its turn behind it")
        await budget.release(60)
        await big.value
        try await Task.sleep(nanoseconds: 20_000_000)
        XCTAssertEqual(order.all, ["big"], "10 does not fit beside 95")
        let stillQueued = await budget.queued
        XCTAssertEqual(stillQueued, 1)
        await budget.release(95)
        await small.value
        XCTAssertEqual(order.all, ["big", "small"])
    }

    final class Order: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String] = []
        func add(_ value: String) { lock.withLock { values.append(value) } }
        var all: [String] { lock.withLock { values } }
    }
}

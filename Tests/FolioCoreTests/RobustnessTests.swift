import Foundation
import FolioTestSupport
import GRDB
import XCTest
@testable import FolioCore

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
}

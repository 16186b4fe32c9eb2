@testable import FolioCore
@testable import FolioModel
import FolioTestSupport
import Foundation
import GRDB
import XCTest

/// A newer Folio opens the model an older one wrote, in place. The fixture is a real file, made
/// by `folio build` as first released (commit 7ca4d0b, schema "v1") on a three-photo site:
/// people "Index" and "Al", places "Palo Alto, …", "Nairobi, Kenya" and "All", one favorite.
final class ModelMigrationTests: XCTestCase {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/folio-v1.sqlite")

    func copyOfTheFixture(_ fixture: URL = ModelMigrationTests.fixture, in folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("folio.sqlite")
        try FileManager.default.copyItem(at: fixture, to: url)
        return url
    }

    func testTheFirstReleasesModelOpensInPlaceWithEverythingKept() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-model-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try copyOfTheFixture(in: folder)
        let old = try DatabaseQueue(path: url.path)
        XCTAssertEqual(try old.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") },
                       ["v1: people, regions, places, photos, thumbnails"], "the fixture is a v1 model")
        try old.close()

        let database = try GalleryDatabase.open(at: url)
        XCTAssertEqual(try database.appliedMigrations(), GalleryDatabase.migrator.migrations, "every migration, in order")
        XCTAssertEqual(try ["photo", "person", "place", "region", "thumbnail"].map { try database.count($0) }, [3, 2, 3, 3, 3])
        try database.writer.read { db in
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT slug FROM person ORDER BY name"), ["al", "index-2"],
                           "a slug that would replace people/index.html moves aside")
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT key FROM person ORDER BY name"), ["name:Al", "name:Index"],
                           "people known by name are keyed by it")
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT slug FROM place WHERE name = 'All'"), "all-2")
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT slug FROM region WHERE name = 'All'"), "all-2")
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photo WHERE favorite"), 1)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photo WHERE lastError IS NOT NULL"), 0)
            XCTAssertEqual(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count, 0)
            XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA integrity_check"), "ok")
        }
        XCTAssertGreaterThan(try database.generation(), 0, "the moved pages make the next build a real one")
    }

    /// No one named was a person called "Unknown" (keyed "name:Unknown" since v4); v19 makes them
    /// no one, with no name, their photos still theirs.
    func testTheUnknownPhotographerBecomesNoOneWithoutAWord() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-model-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try copyOfTheFixture(in: folder)
        let old = try DatabaseQueue(path: url.path)
        let photos = try old.write { db -> [String] in
            try db.execute(sql: "UPDATE person SET name = 'Unknown', slug = 'unknown' WHERE name = 'Index'")
            return try String.fetchAll(db, sql: "SELECT identifier FROM photo JOIN person ON person.id = photo.personId WHERE person.name = 'Unknown'")
        }
        try old.close()
        XCTAssertFalse(photos.isEmpty)

        let database = try GalleryDatabase.open(at: url)
        let snapshot = try database.snapshot()
        XCTAssertEqual(snapshot.photos.filter(\.person.isUnknown).map(\.identifier).sorted(), photos.sorted())
        try database.writer.read { db in
            XCTAssertEqual(try Row.fetchAll(db, sql: "SELECT key, name FROM person ORDER BY key").map { [$0["key"], $0["name"]] as [String] },
                           [["name:Al", "Al"], [Person.nobodyKey, ""]])
            XCTAssertEqual(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count, 0)
        }
        // The next import of no one's photos finds them, not a second no one.
        try database.apply(ImportBatch(upserts: [PhotoImport(source: .content(path: "new.jpg"), identifier: "pnew", person: Person.unknownName,
                                                             uploaded: Date(timeIntervalSince1970: 9), width: 4, height: 3, checksum: "c")]))
        XCTAssertEqual(try database.count("person"), 2)
    }

    /// Tags were one text, a tag a line; v11 makes them the photo's array, stored as JSON.
    func testTagsKeptOneALineAreReadAsTheirArray() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-model-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try copyOfTheFixture(in: folder)
        let old = try DatabaseQueue(path: url.path)
        try old.write { db in
            try db.execute(sql: "UPDATE photo SET tags = ? WHERE source = 'content:p0.jpg'", arguments: ["city\nold town\n\nruin"])
        }
        try old.close()

        let database = try GalleryDatabase.open(at: url)
        let tags = Dictionary(uniqueKeysWithValues: try database.snapshot().photos.map { ($0.photo.source.text, $0.photo.tags) })
        XCTAssertEqual(tags, ["content:p0.jpg": ["city", "old town", "ruin"], "content:p1.jpg": [], "content:p2.jpg": []])
        XCTAssertEqual(try database.writer.read { try String.fetchAll($0, sql: "SELECT tags FROM photo ORDER BY source") },
                       [#"["city","old town","ruin"]"#, "[]", "[]"])
    }

    /// A model from before v14 keeps one SHA-256 of each protected album's password: the
    /// fixture is the model `folio build` of Folio at commit a6834e2 (schema v13) left for the
    /// content in `Fixtures/protected-v13`, its album "family" protected by "hunter2". The digest is dropped (not left in the file's free
    /// space either), and the next build, deriving the key, publishes the album where it was.
    func testAnOldModelsPasswordDigestIsDroppedAndTheNextBuildPublishes() async throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/protected-v13")
        let site = try TestSite()
        try FileManager.default.removeItem(at: site.content)
        try FileManager.default.copyItem(at: fixture.appendingPathComponent("content"), to: site.content)
        let model = try copyOfTheFixture(fixture.deletingLastPathComponent().appendingPathComponent("folio-v13-protected.sqlite"),
                                         in: site.root)
        let digest = SHA256.hex(Data("folio album password\u{0}family\u{0}hunter2".utf8))
        XCTAssertTrue(String(decoding: try Data(contentsOf: model), as: UTF8.self).contains(digest), "the fixture keeps the old digest")

        // Opened as SQLite opens files where it is built not to overwrite what it frees.
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA secure_delete = OFF") }
        let database = try GalleryDatabase(DatabaseQueue(path: model.path, configuration: configuration), path: model.path)
        XCTAssertTrue(try database.appliedMigrations().contains("v14: no password digest in the model"))
        XCTAssertEqual(try database.appliedMigrations(), GalleryDatabase.migrator.migrations, "every migration, in order")
        let overwrites = try await database.writer.read { try Int.fetchOne($0, sql: "PRAGMA secure_delete") }
        XCTAssertEqual(overwrites, 0, "as it was")
        XCTAssertEqual(try database.albums().map(\.passwordSource), ["from an older Folio"])
        XCTAssertEqual(try database.integrityProblems(), [])
        XCTAssertFalse(String(decoding: try Data(contentsOf: model), as: UTF8.self).contains(digest), "nor in the file's free space")

        let report = try await site.build()
        XCTAssertEqual(report.issues.map(\.description), [])
        XCTAssertEqual(report.unlisted.map(\.link), ["unlisted/ad03f415f4179c9b1a792992/index.html"], "where the old Folio published it")
        let page = site.publicFolder.appendingPathComponent(report.unlisted[0].link).path
        XCTAssertNil(try ProtectedPage.decrypt(page, password: "hunter3"))
        XCTAssertTrue(try XCTUnwrap(try ProtectedPage.decrypt(page, password: "hunter2")).contains("Lockedfamily"))
        let source = try XCTUnwrap(try site.database.albums().first?.passwordSource)
        XCTAssertNotEqual(source, "from an older Folio")
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])
    }

    func testASiteWithTheFirstReleasesModelBuilds() async throws {
        let site = try TestSite()
        _ = try copyOfTheFixture(in: site.root)
        for (index, path) in ["p0.jpg", "p1.jpg", "p2.jpg"].enumerated() {
            try site.photo(path, from: TestSite.repository.appendingPathComponent("content/photo\(index + 1).jpg"))
        }
        try site.catalog("catalog.plist", [
            ["path": "p0.jpg", "name": "Harbour", "user": "Index", "place": "Palo Alto, California, United States", "favorite": true],
            ["path": "p1.jpg", "name": "Market", "user": "Al", "place": "Nairobi, Kenya"],
            ["path": "p2.jpg", "user": "Al", "description": "Fields", "place": "All"],
        ])
        let report = try await site.build()
        XCTAssertTrue(report.succeeded, report.issues.description)
        XCTAssertEqual(report.photos, 3)
        XCTAssertEqual(try site.database.count("person"), 2, "the same people, not new ones")
        XCTAssertTrue(try site.read("people/index.html").contains("<h1>People</h1>"))
        XCTAssertTrue(try site.read("people/index-2.html").contains("Harbour"))
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])
    }
}

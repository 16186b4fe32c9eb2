@testable import FolioModel
@testable import FolioSite
import FolioTestSupport
import Foundation
import GRDB
import XCTest

/// A snapshot taken from the file the last build kept, patched with the rows changed since, is
/// the snapshot every row gives; and a file that is not this model's, this Folio's or whole is
/// not used.
final class KeptSnapshotTests: XCTestCase {
    var folder: URL!
    var model: GalleryDatabase!
    var kept: KeptSnapshot.Place!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("kept-\(UUID().uuidString)")
        model = try GalleryDatabase.open(at: folder.appendingPathComponent("folio.sqlite"))
        kept = KeptSnapshot.Place(url: folder.appendingPathComponent("folio-cache/snapshot"), folio: "folio 1")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func photo(_ n: Int, by person: String, at place: String?, favorite: Bool = false) -> PhotoImport {
        PhotoImport(source: .content(path: "album \(n % 4)/\(n).jpg"), identifier: "p\(n)", title: "Photo \(n)", person: person,
                    place: place, uploaded: Date(timeIntervalSince1970: Double(n)), width: 40, height: 30, favorite: favorite,
                    checksum: String(format: "%016llx", UInt64(n) &* 0x9E37_79B9_7F4A_7C15))
    }

    /// Reads the kept snapshot, checks it against every row's, keeps it when it was read whole
    /// (as the plan step does); whether it came from the file.
    @discardableResult
    func readAndCompare(_ why: String, file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
        let read = try model.snapshot(kept: kept)
        let rows = try model.snapshot(halves: .max)
        let byId = { (photos: PhotoRows) in photos.sorted { $0.id < $1.id } }
        let (got, want) = (byId(read.snapshot.photos), byId(rows.photos))
        XCTAssertEqual(got.map(\.photo.identifier), want.map(\.photo.identifier), why, file: file, line: line)
        XCTAssertTrue(got == want, "\(why): photos, people, places, regions", file: file, line: line)
        for (a, b) in zip(got, want) {
            XCTAssertEqual([a.digest, a.mediaDigest], [b.digest, b.mediaDigest], why, file: file, line: line)
            XCTAssertEqual(a.folder, b.folder, why, file: file, line: line)
            XCTAssertEqual(a.favorite, b.favorite, why, file: file, line: line)
            XCTAssertEqual(a.checksumAsNumber, b.checksumAsNumber, why, file: file, line: line)
            XCTAssertEqual(a.taken, b.taken, why, file: file, line: line)
            XCTAssertEqual(a.uploaded, b.uploaded, why, file: file, line: line)
            XCTAssertEqual(a.region?.name, b.region?.name, why, file: file, line: line)
        }
        XCTAssertEqual(read.snapshot.regions, rows.regions, why, file: file, line: line)
        XCTAssertEqual(read.snapshot.topRegions, rows.topRegions, why, file: file, line: line)
        // Read as a large library's are, the same photos as rows (`PhotoRows.Writer`, `Gathering`),
        // sorted the same way.
        let asRows = try model.snapshot(kept: kept, heldUpTo: 0)
        XCTAssertEqual(asRows.readWhole, read.readWhole, why, file: file, line: line)
        XCTAssertTrue(asRows.snapshot.photos.isSpilled || asRows.snapshot.photos.isEmpty, why, file: file, line: line)
        XCTAssertTrue(byId(asRows.snapshot.photos) == want, "\(why): as rows", file: file, line: line)
        var (sorted, sortedRows) = (read.snapshot, asRows.snapshot)
        sorted.photos.sort(by: SiteBuilder.NewestFirst.init)
        sortedRows.photos.sort(by: SiteBuilder.NewestFirst.init)
        XCTAssertTrue(sortedRows.photos == sorted.photos, "\(why): rows sorted as held photos are", file: file, line: line)
        XCTAssertTrue(SiteBuilder.isNewestFirst(sorted.photos), why, file: file, line: line)
        if read.readWhole { model.keep(sorted.photos, revision: read.revision, at: kept) }
        return !read.readWhole
    }

    func testAKeptSnapshotPatchedWithTheRowsChangedIsTheModels() throws {
        try model.apply(ImportBatch(upserts: (0..<400).map { n in
            photo(n, by: "P\(n % 7)", at: n % 5 == 0 ? nil : "Town \(n % 11), Region \(n % 3), Country", favorite: n % 9 == 0)
        }))
        XCTAssertFalse(try readAndCompare("first: no file"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: kept.url.path))
        XCTAssertTrue(try readAndCompare("nothing changed"))
        // A title, through the import.
        var retitled = photo(12, by: "P5", at: "Town 1, Region 0, Country")
        retitled.photo.title = "Another title"
        try model.apply(ImportBatch(upserts: [retitled]))
        XCTAssertTrue(try readAndCompare("a title changed"))
        // A favorite set from the command line, a row written by SQL alone.
        XCTAssertTrue(try model.setFavorite(true, photo: "p13"))
        try model.writer.write { db in try db.execute(sql: "UPDATE photo SET title = 'By hand' WHERE identifier = 'p14'") }
        XCTAssertTrue(try readAndCompare("a favorite and a row by hand"))
        // Photos removed, one added, one moved to another person and place.
        try model.apply(ImportBatch(upserts: [photo(500, by: "New person", at: "Elsewhere, Region 9, Country"),
                                              photo(21, by: "P0", at: "Town 3, Region 2, Country")],
                                    removals: [.content(path: "album 2/2.jpg"), .content(path: "album 3/399.jpg")]))
        XCTAssertTrue(try readAndCompare("removed, added, moved"))
        // A person renamed and a place gone (its photos' placeId set to NULL by the foreign key):
        // names are read again, rows changed by a cascade are read again.
        try model.writer.write { db in
            try db.execute(sql: "UPDATE person SET name = 'Renamed' WHERE name = 'P3'")
            let place = try Int64.fetchOne(db, sql: "SELECT placeId FROM photo WHERE identifier = 'p1'")
            try db.execute(sql: "DELETE FROM place WHERE id = ?", arguments: [place])
        }
        XCTAssertTrue(try readAndCompare("a person renamed, a place deleted"))
        // A whole person deleted: their photos go by the cascade.
        try model.writer.write { db in try db.execute(sql: "DELETE FROM person WHERE name = 'P4'") }
        XCTAssertTrue(try readAndCompare("a person and their photos deleted"))
        // More rows changed than a patch takes: every row is read, and kept again.
        try model.apply(ImportBatch(upserts: (0..<1_200).map { n in photo(1_000 + n, by: "Many", at: nil) }))
        XCTAssertFalse(try readAndCompare("many changed"))
        XCTAssertTrue(try readAndCompare("after many"))
    }

    /// A site's builds: the first keeps the snapshot, the next take it (the file not written
    /// again) and show what changed since, whoever changed it; another Folio keeps its own.
    func testBuildsTakeTheKeptSnapshotAndShowWhatChangedSince() async throws {
        let site = try TestSite.threePhotos()
        try await site.build(identity: "folio a")
        let file = site.paths.keptSnapshot.path
        func inode() throws -> Int { try XCTUnwrap(FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int) }
        let kept = try inode()
        // A title changed in the catalog: the import writes the row.
        try site.catalog("FakeData.plist", [
            ["path": "one.jpg", "name": "A new title", "user": "Josh", "description": "Rubble",
             "place": "Palo Alto, California, United States", "favorite": true],
            ["path": "two.jpg", "user": "Al", "place": "Nairobi, Kenya", "taken": Date(timeIntervalSince1970: 1_700_000_000)],
        ])
        try await site.build(identity: "folio a")
        XCTAssertTrue(try site.read("photos/\(try site.identifier("one.jpg")).html").contains("A new title"))
        XCTAssertEqual(try inode(), kept, "the kept file is taken, not written again")
        // A favorite set from the command line: no import at all.
        let two = try site.identifier("two.jpg")
        XCTAssertFalse(try site.read("favorites/index.html").contains("photos/\(two).html"))
        XCTAssertTrue(try site.database.setFavorite(true, photo: two))
        try await site.build(identity: "folio a")
        XCTAssertTrue(try site.read("favorites/index.html").contains("photos/\(two).html"))
        XCTAssertEqual(try inode(), kept)
        // A photo gone.
        try FileManager.default.removeItem(at: site.content.appendingPathComponent("loose/harbour-at-dawn.jpg"))
        try await site.build(identity: "folio a")
        XCTAssertEqual(try site.database.snapshot().photos.count, 2)
        XCTAssertEqual(try inode(), kept)
        // Another Folio reads every row, and keeps them for itself.
        try await site.build(identity: "folio b")
        XCTAssertNotEqual(try inode(), kept)
        XCTAssertEqual(KeptSnapshot.File(site.paths.keptSnapshot)?.header.count, 2)
    }

    func testAFileNotThisModelsThisFolioOrWholeIsNotUsed() throws {
        try model.apply(ImportBatch(upserts: (0..<50).map { n in photo(n, by: "P\(n % 3)", at: "Town \(n % 4), Region, Country") }))
        let database = folder.appendingPathComponent("folio.sqlite")
        let before = folder.appendingPathComponent("before.sqlite")
        try model.writer.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [before.path]) }
        XCTAssertFalse(try readAndCompare("first"))
        XCTAssertTrue(try readAndCompare("second"))
        // Another Folio packs photos its own way.
        let kept = self.kept!
        self.kept.folio = "folio 2"
        XCTAssertFalse(try readAndCompare("another Folio"))
        XCTAssertTrue(try readAndCompare("the other Folio's file"))
        self.kept = kept
        XCTAssertFalse(try readAndCompare("the first Folio again"))
        // The model restored from a backup taken before the file was kept: changes made since
        // in the other model are not in its rows, and the file is not taken for it.
        var retitled = photo(7, by: "P1", at: "Town 3, Region, Country")
        retitled.photo.title = "Made after the backup"
        try model.apply(ImportBatch(upserts: [retitled]))
        XCTAssertTrue(try readAndCompare("an edit"))
        let file = try Data(contentsOf: self.kept.url)
        model = nil
        try FileManager.default.removeItem(at: database)
        try FileManager.default.copyItem(at: before, to: database)
        model = try GalleryDatabase.open(at: database)
        for _ in 0..<3 { try model.apply(ImportBatch(upserts: [photo(60, by: "P0", at: nil)])) }
        XCTAssertFalse(try readAndCompare("a model restored from a backup"))
        XCTAssertEqual(try model.snapshot(halves: .max).photos.first { $0.identifier == "p7" }?.photo.title, "Photo 7")
        // A file damaged, or cut short.
        try file.write(to: self.kept.url)
        XCTAssertFalse(try readAndCompare("a file of another model"))
        var damaged = try Data(contentsOf: self.kept.url)
        damaged[damaged.count / 2] ^= 0x40
        try damaged.write(to: self.kept.url)
        XCTAssertFalse(try readAndCompare("a damaged file"))
        try Data(contentsOf: self.kept.url).prefix(1_000).write(to: self.kept.url)
        XCTAssertFalse(try readAndCompare("a file cut short"))
        try Data("folio-snapshot 1\n".utf8).write(to: self.kept.url)
        XCTAssertFalse(try readAndCompare("a file of its first line"))
        // A block whose length (damaged) says a terabyte: refused, no room made for it.
        var huge = Data("folio-snapshot 1\n".utf8)
        huge.append(contentsOf: withUnsafeBytes(of: UInt64(1 << 40).littleEndian, Array.init) + [UInt8](repeating: 0, count: 8))
        try huge.write(to: self.kept.url)
        XCTAssertFalse(try readAndCompare("a block's length past the file"))
        XCTAssertTrue(try readAndCompare("kept again"))
    }
}

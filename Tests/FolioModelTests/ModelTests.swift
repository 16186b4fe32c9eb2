@testable import FolioCore
import FolioImaging
@testable import FolioModel
@testable import FolioPipeline
import FolioTestSupport
import Foundation
import GRDB
import XCTest

final class ModelTests: XCTestCase {
    var database: GalleryDatabase!

    override func setUpWithError() throws {
        database = try GalleryDatabase.inMemory()
    }

    func photo(_ n: Int, by person: String, at place: String?, region: String? = nil, favorite: Bool = false,
               checksum: String = "c") -> PhotoImport {
        PhotoImport(source: .content(path: "\(n).jpg"), identifier: "p\(n)", title: "Photo \(n)", person: person,
                    place: place, region: region, uploaded: Date(timeIntervalSince1970: Double(n)),
                    width: 40, height: 30, favorite: favorite, checksum: checksum)
    }

    func testSchemaIsVersionedAndForeignKeysAreOn() throws {
        // Every migration applied, in order; the names of those already shipped never change, as the
        // models people have keep them.
        XCTAssertEqual(try database.appliedMigrations(), GalleryDatabase.migrator.migrations)
        XCTAssertEqual(Array(try database.appliedMigrations().prefix(19)), [
            "v1: people, regions, places, photos, thumbnails", "v2: model generation",
            "v3: failures kept on the photo, reserved page names", "v4: people by key, remote photos, Flickr places",
            "v5: album settings", "v6: the colour of each photo's pixels", "v7: problems kept until fixed",
            "v8: descriptions written in Markdown", "v9: unlisted and protected albums, and the site's secret",
            "v10: whether each photo is transparent or animated", "v11: tags as a JSON array", "v12: videos and Live Photos",
            "v13: which photos changed and which failed, found without a scan", "v14: no password digest in the model",
            "v15: the lens",
            "v16: who is in each photo", "v17: folders that are no album",
            "v18: photos listed in several albums", "v19: no one named is no word",
        ])
        try database.writer.read { db in
            XCTAssertEqual(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys"), true)
            let foreignKeys = try db.foreignKeys(on: "photo").map(\.destinationTable).sorted()
            XCTAssertEqual(foreignKeys, ["person", "place"])
            XCTAssertEqual(try db.foreignKeys(on: "place").map(\.destinationTable), ["region"])
        }
    }

    func testImportBuildsPeoplePlacesRegionsWithInverses() throws {
        try database.apply(ImportBatch(upserts: [
            photo(1, by: "Josh", at: "Palo Alto, California, United States"),
            photo(2, by: "Al", at: "Palo Alto, California, United States"),
            photo(3, by: "Josh", at: "Nairobi, Kenya"),
            photo(4, by: "Al", at: nil),
        ]))
        try database.writer.read { db in
            let josh = try XCTUnwrap(Person.filter(Column("name") == "Josh").fetchOne(db))
            XCTAssertEqual(try josh.request(for: Person.photos).fetchCount(db), 2)
            let paloAlto = try XCTUnwrap(Place.filter(Column("title") == "Palo Alto").fetchOne(db))
            XCTAssertEqual(paloAlto.subtitle, "California, United States")
            XCTAssertEqual(try paloAlto.request(for: Place.region).fetchOne(db)?.name, "California")
            XCTAssertEqual(try paloAlto.request(for: Place.photos).fetchCount(db), 2)
            XCTAssertEqual(try Place.filter(Column("title") == "Nairobi").fetchOne(db)?.subtitle, "Kenya")
            XCTAssertEqual(try Region.order(Column("name")).fetchAll(db).map(\.name), ["California", "Kenya"])
        }
    }

    /// A photo no one is named for (the import's `Person.unknownName`, a catalog's `user`
    /// "Unknown") belongs to no one: a key and no name, no English word the pages would show.
    func testNoOneNamedIsKeptWithoutAWord() throws {
        try database.apply(ImportBatch(upserts: [photo(1, by: Person.unknownName, at: nil), photo(2, by: "Al", at: nil)]))
        try database.apply(ImportBatch(upserts: [photo(3, by: Person.unknownName, at: nil)]))
        let people = try database.writer.read { try Person.order(Column("key")).fetchAll($0) }
        XCTAssertEqual(people.map(\.key), ["name:Al", Person.nobodyKey])
        XCTAssertEqual(people.map(\.name), ["Al", ""])
        XCTAssertEqual(people.map(\.isUnknown), [false, true])
        XCTAssertEqual(people.last?.slug, "nobody")
        let snapshot = try database.snapshot()
        XCTAssertEqual(snapshot.photos.filter(\.person.isUnknown).map(\.identifier).sorted(), ["p1", "p3"])
        try database.writer.read { db in
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM person WHERE name LIKE '%Unknown%' OR key LIKE '%Unknown%'"), 0)
        }
    }

    func testPhotographerCountsAreDistinctAndKeptUpToDate() throws {
        try database.apply(ImportBatch(upserts: [
            photo(1, by: "Josh", at: "Palo Alto, California, United States"),
            photo(2, by: "Josh", at: "San Jose, California, United States"),
            photo(3, by: "Al", at: "San Jose, California, United States"),
            photo(4, by: "Al", at: "Nairobi, Kenya"),
        ]))
        XCTAssertEqual(try counts(), ["California": 2, "Kenya": 1])

        // Josh's second photo moves to Kenya: California keeps Josh (photo 1), Kenya gains him.
        try database.apply(ImportBatch(upserts: [photo(2, by: "Josh", at: "Nairobi, Kenya")]))
        XCTAssertEqual(try counts(), ["California": 2, "Kenya": 2])

        // Josh's only California photo goes: California is down to Al.
        try database.apply(ImportBatch(removals: [.content(path: "1.jpg")]))
        XCTAssertEqual(try counts(), ["California": 1, "Kenya": 2])

        let top = try database.snapshot().topRegions.map(\.name)
        XCTAssertEqual(top, ["Kenya", "California"])
    }

    func counts() throws -> [String: Int] {
        try database.writer.read { db in
            Dictionary(uniqueKeysWithValues: try Region.fetchAll(db).map { ($0.name, $0.photographerCount) })
        }
    }

    /// The records' coding keys are their tables' columns, so the import (which writes the
    /// records' own encoding) fills every column, and a property without its migration, or a
    /// migration without its property, fails here.
    /// Search takes a photo's description as its own words, its tags, lens and who is in it as
    /// names many photos share, and nothing else of its own: not its title (the site's to give),
    /// camera or file.
    func testSearchFindsAPhotoByItsDescriptionTagsLensAndWhoIsInIt() {
        var photo = Photo(identifier: "p1", source: .content(path: "a/IMG_1.jpg"), uploaded: .distantPast, checksum: "c")
        photo.title = "Harbour"
        photo.description = "Boats at dawn"
        photo.tags = ["sea", "boats"]
        photo.lens = "XF23mmF1.4 R"
        photo.camera = "X-T4"
        photo.pictured = ["Ada Lovelace"]
        var prose: [String] = []
        var named: [String] = []
        photo.searchedText(prose: { prose.append($0) }, named: { named.append($0) })
        XCTAssertEqual(prose, ["Boats at dawn"])
        XCTAssertEqual(named, ["XF23mmF1.4 R", "sea", "boats", "Ada Lovelace"])
    }

    func testEveryColumnIsARecordProperty() throws {
        try database.apply(ImportBatch(upserts: [photo(1, by: "Josh", at: "Palo Alto, California, United States")]))
        let item = try XCTUnwrap(try database.snapshot().photos.first)
        let records: [(String, any EncodableRecord)] = [
            ("person", item.person), ("place", try XCTUnwrap(item.place)),
            ("region", try XCTUnwrap(item.region)), ("flickrPlace", FlickrPlace(placeId: "1", name: "A, B", region: "B")),
        ]
        try database.writer.read { db in
            XCTAssertEqual(Set(PhotoImport.Row.columnNames), Set(try db.columns(in: "photo").map(\.name)), "photo")
            for (table, record) in records {
                XCTAssertEqual(Set(try record.databaseDictionary.keys), Set(try db.columns(in: table).map(\.name)), table)
            }
        }
    }

    /// A photo with every property set, each to something other than its default, and one with
    /// none: what tests of a photo's row write and read.
    static func fullAndBare() -> (full: Photo, bare: Photo) {
        var full = everyPropertySet(Photo(identifier: "p1", source: .content(path: "a/ç.heic"),
                                          uploaded: Date(timeIntervalSinceReferenceDate: 9e8 + 0.125), checksum: "0123456789abcdef"))
        (full.title, full.placeId, full.lens) = ("Dawn", 4, "EF 24-70mm")
        (full.pictured, full.alsoListedIn, full.tags) = (["Ann", "Bo/\"C\""], ["trips/2019"], [])
        let bare = Photo(identifier: "p2", source: .flickr(id: "9"), uploaded: Date(timeIntervalSinceReferenceDate: 0), checksum: "")
        return (full, bare)
    }

    /// `photo` with every property a site's snapshot reads set, each to something other than its
    /// default.
    static func everyPropertySet(_ photo: Photo) -> Photo {
        var full = photo
        full.description = "Rubble"
        full.descriptionHTML = "<p>Rubble</p>"
        full.taken = Date(timeIntervalSince1970: 1_700_000_000.25)
        full.favorite = true
        full.catalogFavorite = true
        full.format = .heic
        full.orientation = 6
        full.transparent = true
        full.animated = true
        full.motion = PhotoMotion(kind: .live, duration: 2.5, clip: "IMG_1.MOV", clipChecksum: "c2")
        full.camera = "Canon EOS 5D"
        full.exposure = "1/250 s"
        full.latitude = -33.86
        full.longitude = 151.21
        full.tags = ["sea", "Dawn \"light\""]
        full.lastError = "cannot decode"
        full.remote = RemotePhoto(pageURL: "https://www.flickr.com/photos/a/1", license: "4",
                                  sizes: [RemotePhoto.Size(label: "Small", url: "https://live.staticflickr.com/1_s.jpg", width: 240, height: 180)],
                                  placeID: "abc")
        full.flickrPlaceId = "abc"
        return full
    }

    /// A build's view without some photos counts its regions' photographers as the import
    /// counts the model's: the same photos give the same counts.
    func testASnapshotWithoutSomePhotosCountsPhotographersAsTheImportDoes() throws {
        try database.apply(ImportBatch(upserts: [
            photo(1, by: "Josh", at: "Palo Alto, California, United States"),
            photo(2, by: "Al", at: "San Jose, California, United States"),
            photo(3, by: "Al", at: "Nairobi, Kenya"),
            photo(4, by: "Bea", at: "Nairobi, Kenya"),
        ]))
        let snapshot = try database.snapshot()
        let gone = snapshot.photos.filter { ["content:2.jpg", "content:4.jpg"].contains($0.photo.source.text) }
        let view = snapshot.excluding(Set(gone.map(\.photo.id)))
        // Left out in place, or the rest taken: the same gallery.
        var inPlace = snapshot
        inPlace.remove(Set(gone.map(\.photo.id)))
        let taken = snapshot.filter { !gone.map(\.photo.id).contains($0.id) }
        // A large library's, its photos rows: their offsets alone go.
        var rows = snapshot
        rows.photos = rows.photos.spilled(into: nil)
        rows.remove(Set(gone.map(\.photo.id)))
        XCTAssertTrue(rows.photos.isSpilled)
        for other in [inPlace, taken, rows] {
            XCTAssertEqual(other.photos.map(\.id), view.photos.map(\.id))
            XCTAssertEqual(other.regions, view.regions)
            XCTAssertEqual(other.topRegions, view.topRegions)
        }
        XCTAssertEqual(snapshot.photos.count, 4, "the snapshot left out of is the same")

        try database.apply(ImportBatch(removals: [.content(path: "2.jpg"), .content(path: "4.jpg")]))
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: view.regions.map { ($0.name, $0.photographerCount) }), try counts())
        XCTAssertEqual(try counts(), ["California": 1, "Kenya": 1])
        XCTAssertEqual(view.topRegions.map(\.name), try database.snapshot().topRegions.map(\.name))
    }

    /// A model's photos read in two halves at once, the later by a connection of its own, are
    /// the photos one connection reads: none twice, none missed, whatever ids were freed.
    func testPhotosReadInTwoHalvesAreThePhotosReadInOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("halves-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try GalleryDatabase.open(at: folder.appendingPathComponent("gallery.sqlite"))
        try model.apply(ImportBatch(upserts: (0..<301).map { n in
            photo(n, by: "P\(n % 7)", at: n % 5 == 0 ? nil : "Town \(n % 11), Region \(n % 3), Country", favorite: n % 4 == 0)
        }))
        // Ids freed at the start, in the middle and at the end.
        try model.apply(ImportBatch(removals: [0, 1, 150, 151, 152, 300].map { PhotoSource.content(path: "\($0).jpg") }))
        let whole = try model.snapshot(halves: .max)
        XCTAssertEqual(whole.photos.count, 295)
        for halves in [1, 2, 295] {
            let read = try model.snapshot(halves: halves)
            XCTAssertEqual(read.photos.map(\.photo.identifier), whole.photos.map(\.photo.identifier), "from \(halves)")
            XCTAssertTrue(read.photos == whole.photos, "from \(halves)")
            XCTAssertEqual(read.photos.map(\.place?.name), whole.photos.map(\.place?.name))
            XCTAssertEqual(read.regions, whole.regions)
        }
        // A second connection that sees another model (here another file, one photo retitled
        // since: its generation moved) is not taken at its word: the first reads that half too.
        let other = folder.appendingPathComponent("other.sqlite")
        try FileManager.default.copyItem(at: folder.appendingPathComponent("gallery.sqlite"), to: other)
        var retitled = photo(200, by: "P4", at: "Town 2, Region 2, Country")
        retitled.photo.title = "Another title"
        try GalleryDatabase.open(at: other).apply(ImportBatch(upserts: [retitled]))
        let elsewhere = try model.snapshot(topRegionLimit: 50, halves: 1, beside: { try GalleryDatabase.open(at: other).reader() })
        XCTAssertTrue(elsewhere.photos == whole.photos)
        XCTAssertEqual(elsewhere.photos.first { $0.photo.identifier == "p200" }?.photo.title, "Photo 200")
        // A photo whose person is gone (a model broken by hand) is passed over: the later half
        // closes the gap in the array.
        var unchecked = Configuration()
        unchecked.foreignKeysEnabled = false
        try DatabaseQueue(path: folder.appendingPathComponent("gallery.sqlite").path, configuration: unchecked).write { db in
            try db.execute(sql: "DELETE FROM person WHERE name = 'P3'")
        }
        let fewer = try model.snapshot(halves: .max)
        XCTAssertEqual(fewer.photos.count, 295 - 42)
        XCTAssertTrue(try model.snapshot(halves: 1).photos == fewer.photos)
        // A model in memory has no second connection: one reads it all.
        XCTAssertEqual(try database.snapshot(halves: 1).photos.count, 0)
        try database.apply(ImportBatch(upserts: (0..<3).map { photo($0, by: "Josh", at: nil) }))
        XCTAssertEqual(try database.snapshot(halves: 1).photos.map(\.photo.identifier), ["p0", "p1", "p2"])
    }

    /// Every build asks which photos failed: SQLite finds them by their index, not by reading
    /// every photo's row; and the index answers as the table does.
    func testFailingPhotosAreFoundByAnIndexOfThemAlone() throws {
        try database.apply(ImportBatch(upserts: (0..<50).map { photo($0, by: "P", at: nil) }))
        try database.recordFailures([.content(path: "7.jpg"): "cannot be decoded", .content(path: "3.jpg"): "is empty"], published: [])
        let plan = try database.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT source, lastError FROM photo WHERE lastError IS NOT NULL ORDER BY source")
                .map { $0["detail"] as String }
        }
        XCTAssertEqual(plan, ["SCAN photo USING INDEX photo_failing"])
        XCTAssertEqual(try database.failingPhotos().map(\.source), [.content(path: "3.jpg"), .content(path: "7.jpg")])
        let ids = try database.writer.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM photo WHERE identifier = 'p3'") }
        try database.recordFailures([:], published: ids)
        XCTAssertEqual(try database.failingPhotos().map(\.reason), ["cannot be decoded"])
    }

    func testTopRegionsTieBreakByNameAndStopAtTheLimit() throws {
        var photos: [PhotoImport] = []
        for n in 0..<60 {
            photos.append(photo(n, by: "P\(n)", at: "Town, Region \(String(format: "%02d", 59 - n)), Country"))
        }
        photos.append(photo(100, by: "Extra", at: "Town, Region 30, Country"))
        try database.apply(ImportBatch(upserts: photos))
        let top = try database.snapshot(topRegionLimit: 50).topRegions
        XCTAssertEqual(top.count, 50)
        XCTAssertEqual(top.first?.name, "Region 30")
        XCTAssertEqual(top.first?.photographerCount, 2)
        XCTAssertEqual(Array(top.dropFirst().prefix(3).map(\.name)), ["Region 00", "Region 01", "Region 02"])
    }

    func testHasFavoritesFollowsTheFavoriteFlag() throws {
        try database.apply(ImportBatch(upserts: [
            photo(1, by: "Josh", at: "Palo Alto, California, United States", favorite: true),
            photo(2, by: "Al", at: "Nairobi, Kenya"),
        ]))
        XCTAssertEqual(try favoritePlaces(), ["Palo Alto"])

        XCTAssertTrue(try database.setFavorite(true, photo: "p2"))
        XCTAssertEqual(try favoritePlaces(), ["Nairobi", "Palo Alto"])

        XCTAssertTrue(try database.setFavorite(false, photo: "p1"))
        XCTAssertEqual(try favoritePlaces(), ["Nairobi"])
        XCTAssertFalse(try database.setFavorite(true, photo: "nope"))
    }

    func favoritePlaces() throws -> [String] {
        try database.writer.read { db in
            try Place.filter(Column("hasFavorites")).order(Column("title")).fetchAll(db).map(\.title)
        }
    }

    func testAFavoriteSetByHandSurvivesReimportUntilTheCatalogChangesIt() throws {
        try database.apply(ImportBatch(upserts: [photo(1, by: "Josh", at: "Nairobi, Kenya")]))
        try database.setFavorite(true, photo: "p1")
        var edited = photo(1, by: "Josh", at: "Nairobi, Kenya")
        edited.photo.title = "Edited"
        try database.apply(ImportBatch(upserts: [edited]))
        XCTAssertEqual(try database.photo(identifier: "p1")?.favorite, true)

        try database.apply(ImportBatch(upserts: [photo(1, by: "Josh", at: "Nairobi, Kenya", favorite: true)]))
        try database.apply(ImportBatch(upserts: [photo(1, by: "Josh", at: "Nairobi, Kenya", favorite: false)]))
        XCTAssertEqual(try database.photo(identifier: "p1")?.favorite, false)
    }

    func testReimportingTheSameBatchDuplicatesNothing() throws {
        let batch = ImportBatch(upserts: (0..<30).map { photo($0, by: "P\($0 % 4)", at: "Town \($0 % 5), Region \($0 % 5 % 3), Country") })
        try database.apply(batch)
        let first = try tableCounts()
        try database.apply(batch)
        XCTAssertEqual(try tableCounts(), first)
        XCTAssertEqual(first, [30, 4, 5, 3])
    }

    func tableCounts() throws -> [Int] {
        try ["photo", "person", "place", "region"].map { try database.count($0) }
    }

    func testRemovingTheLastPhotoRemovesOrphansAndCascadesThumbnails() throws {
        try database.apply(ImportBatch(upserts: [photo(1, by: "Josh", at: "Nairobi, Kenya"), photo(2, by: "Al", at: "Lyon, France")]))
        let id = try XCTUnwrap(database.photo(identifier: "p1")?.id)
        try database.replaceThumbnails([Thumbnail(photoId: id, spec: "s", checksum: "c", width: 1, height: 1, bytes: Data([1]))],
                                       keepingSpecs: ["s"])
        XCTAssertEqual(try database.count("thumbnail"), 1)
        try database.apply(ImportBatch(removals: [.content(path: "1.jpg")]))
        XCTAssertEqual(try tableCounts(), [1, 1, 1, 1])
        XCTAssertEqual(try database.count("thumbnail"), 0)
    }

    func testThumbnailsAreOnlyValidForTheChecksumTheyWereMadeFrom() throws {
        try database.apply(ImportBatch(upserts: [photo(1, by: "Josh", at: nil, checksum: "old")]))
        let id = try XCTUnwrap(database.photo(identifier: "p1")?.id)
        try database.replaceThumbnails([Thumbnail(photoId: id, spec: "s", checksum: "old", width: 1, height: 1, bytes: Data([1]))],
                                       keepingSpecs: ["s"])
        XCTAssertEqual(try database.thumbnailKeys(specs: ["s"]).count, 1)
        XCTAssertTrue(try database.thumbnailKeys(specs: ["s"]).contains(ThumbnailKey(photoId: id, spec: "s")))
        XCTAssertFalse(try database.thumbnailKeys(specs: ["s"]).contains(ThumbnailKey(photoId: id + 1, spec: "s")))
        XCTAssertFalse(try database.thumbnailKeys(specs: ["s"]).contains(ThumbnailKey(photoId: id, spec: "t")))
        XCTAssertEqual(try database.thumbnailKeys(specs: ["other"]).count, 0)
        XCTAssertEqual(try database.thumbnailKeys(specs: ["s"], of: [id]).count, 1)
        XCTAssertEqual(try database.thumbnailKeys(specs: ["s"], of: [id + 1]).count, 0, "another photo's")
        try database.apply(ImportBatch(upserts: [photo(1, by: "Josh", at: nil, checksum: "new")]))
        XCTAssertEqual(try database.thumbnailKeys(specs: ["s"]).count, 0)
        // Forgotten when their photo is among those looked at, or all are.
        try database.forgetThumbnails(keepingSpecs: ["s"], of: [id + 1])
        XCTAssertEqual(try database.count("thumbnail"), 1)
        try database.forgetThumbnails(keepingSpecs: ["s"], of: [id])
        XCTAssertEqual(try database.count("thumbnail"), 0)
    }

    /// A checksum comes back as it went in, whether held as its number (sixteen lower-case hex
    /// digits, leading zeros and all) or as text (anything else).
    func testAPhotosChecksumIsReadBackAsWritten() throws {
        let checksums = ["00000000000000ff", "0123456789abcdef", "ffffffffffffffff", "0123456789ABCDEF", "0123456789abcde",
                         "0123456789abcdef0", "c1", "", "+123456789abcdef", "0123456789abcdeg"]
        try database.apply(ImportBatch(upserts: checksums.indices.map { photo($0 + 1, by: "Josh", at: nil, checksum: checksums[$0]) }))
        for (index, checksum) in checksums.enumerated() {
            var photo = try XCTUnwrap(database.photo(identifier: "p\(index + 1)"))
            XCTAssertEqual(photo.checksum, checksum)
            let same = photo
            photo.checksum = checksum
            XCTAssertEqual(photo, same)
            XCTAssertEqual(GalleryPhoto.digest(of: photo), GalleryPhoto.digest(of: same))
        }
    }

    /// The thumbnails a plan looks up, by spec as sorted ids, find what a set of their keys would.
    func testStoredThumbnailsFindWhatASetOfKeysWould() {
        var random = SplitMix64(0x7_4B)
        var stored = StoredThumbnails()
        var keys = Set<ThumbnailKey>()
        for _ in 0..<5_000 {
            let key = ThumbnailKey(photoId: Int64(random.next() % 3_000) - 5, spec: ["a", "b", "thumb 600x600 squareCrop jpeg q82"][Int(random.next() % 3)])
            stored.insert(photoId: key.photoId, spec: key.spec)
            keys.insert(key)
        }
        stored.putInOrder()
        XCTAssertEqual(stored.count, keys.count)
        for id in Int64(-10)..<3_010 {
            for spec in ["a", "b", "thumb 600x600 squareCrop jpeg q82", "c"] {
                XCTAssertEqual(stored.contains(ThumbnailKey(photoId: id, spec: spec)), keys.contains(ThumbnailKey(photoId: id, spec: spec)))
            }
        }
        XCTAssertFalse(StoredThumbnails().contains(ThumbnailKey(photoId: 1, spec: "a")))
    }

    func testABuildsThumbnailsAreStoredABatchAtATimeNotHeldToTheEnd() throws {
        try database.apply(ImportBatch(upserts: (1...3).map { photo($0, by: "Josh", at: nil) }))
        let ids = try (1...3).map { try XCTUnwrap(database.photo(identifier: "p\($0)")?.id) }
        let store = ImagesStep.ThumbnailStore(database: database)
        let small = Thumbnail(photoId: 0, spec: "s", checksum: "c", width: 1, height: 1, bytes: Data([1]))
        store.add([small], for: [ids[0]])
        XCTAssertEqual(try database.count("thumbnail"), 0, "one small thumbnail waits for more")
        // Photos 2 and 3 share their bytes: one job's thumbnail is stored for both, and a batch's
        // worth of bytes is stored at once, with what waited before it.
        let large = Thumbnail(photoId: 0, spec: "s", checksum: "c", width: 1, height: 1,
                              bytes: Data(count: ImagesStep.ThumbnailStore.batchBytes / 2))
        store.add([large], for: [ids[1], ids[2]])
        XCTAssertEqual(try database.count("thumbnail"), 3)
        let more = Thumbnail(photoId: 0, spec: "t", checksum: "c", width: 1, height: 1, bytes: Data([2]))
        store.add([more], for: [ids[2]])
        try store.finish()
        XCTAssertEqual(try database.count("thumbnail"), 4)
        XCTAssertEqual(try database.thumbnails([ThumbnailKey(photoId: ids[2], spec: "s")]).first?.bytes.count,
                       ImagesStep.ThumbnailStore.batchBytes / 2)
    }

    func testEveryPhotoColumnIsReadBackAsWritten() throws {
        var imported = photo(1, by: "Josh", at: "Lyon, France", favorite: true)
        imported.photo.description = "Rubble"
        imported.photo.tags = ["old town", "night"]
        imported.photo.latitude = 45.76
        imported.photo.longitude = 4.83
        imported.photo.camera = "X100"
        imported.photo.motion = PhotoMotion(kind: .video, duration: 3.5)
        try database.apply(ImportBatch(upserts: [imported]))
        let single = try XCTUnwrap(database.photo(identifier: "p1"))
        let snapshot = try XCTUnwrap(database.snapshot().photos.first?.photo)
        XCTAssertEqual(snapshot, single, "the snapshot reads a row as a single fetch does")
        XCTAssertEqual(snapshot.tags, ["old town", "night"])
        XCTAssertEqual(snapshot.motion?.duration, 3.5)
        XCTAssertEqual(snapshot.description, "Rubble")
        XCTAssertEqual(snapshot.latitude, 45.76)
        XCTAssertTrue(snapshot.favorite)
    }

    /// A snapshot keeps its photos packed (`PackedStore`) and holds beside each what every pass
    /// over a library reads (`GalleryPhoto`): each photo unpacked is the model's, and every value
    /// held beside it is its photo's, whichever half of the rows read it: photos with few values
    /// and with many, text checksums, clips, remote photos, folders at any depth.
    func testASnapshotsPhotosArePackedAndReadBackAsTheModelHasThem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-packed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try GalleryDatabase.open(at: folder.appendingPathComponent("folio.sqlite"))
        let count = 600
        try database.apply(ImportBatch(upserts: (1...count).map { n in
            let source: PhotoSource = n % 17 == 0 ? .flickr(id: "\(n)") : .content(path: n % 5 == 0 ? "\(n).jpg" : "trips/day \(n % 7)/\(n).jpg")
            var photo = PhotoImport(
                source: source, identifier: "p\(n)", title: n % 4 == 0 ? nil : "Photo \(n)", description: n % 3 == 0 ? "Seen on day \(n)" : nil,
                person: "P\(n % 11)", place: n % 6 == 0 ? nil : "Town \(n % 13), Country",
                taken: n % 9 == 0 ? nil : Date(timeIntervalSince1970: 1_500_000_000 + Double(n % 50) * 3600),
                uploaded: Date(timeIntervalSince1970: 1_600_000_000 + Double(n)), width: n, height: 2 * n, favorite: n % 8 == 0,
                checksum: n % 10 == 0 ? "text \(n)" : String(format: "%016llx", UInt64(n) &* 0x9E37_79B9_7F4A_7C15),
                orientation: n % 8 + 1, camera: n % 2 == 0 ? "Canon EOS 5D Mark IV" : nil, exposure: n % 3 == 0 ? "1/250 s at f/5.6" : nil,
                latitude: n % 4 == 0 ? nil : Double(n) / 10 - 30, longitude: n % 4 == 0 ? nil : 150 - Double(n) / 7,
                tags: n % 2 == 0 ? ["sea", "dawn light"] : [],
                remote: n % 17 == 0 ? RemotePhoto(pageURL: "https://example.org/\(n)", license: "4",
                                                  sizes: [.init(label: "z", url: "https://example.org/\(n)_z.jpg", width: 640, height: 480)],
                                                  placeID: nil) : nil,
                transparent: n % 11 == 0, animated: n % 13 == 0)
            if n % 12 == 0 { photo.photo.motion = PhotoMotion(kind: .live, duration: 2.5, clip: "trips/\(n).mov", clipChecksum: "0123456789abcdef") }
            if n % 14 == 0 { photo.photo.motion = PhotoMotion(kind: .video, duration: 61) }
            return photo
        }))
        for halves in [Int.max, 100] {
            let items = try database.snapshot(topRegionLimit: 50, halves: halves).photos
            XCTAssertEqual(items.count, count)
            for item in items {
                let photo = item.photo
                let single = try XCTUnwrap(database.photo(identifier: item.identifier))
                XCTAssertEqual(item.digest, GalleryPhoto.digest(of: photo), item.identifier)
                XCTAssertEqual(photo, single, item.identifier)
                XCTAssertEqual(item.id, single.id)
                XCTAssertEqual(item.taken, single.taken)
                XCTAssertEqual(item.uploaded, single.uploaded)
                XCTAssertEqual(item.latitude, single.latitude)
                XCTAssertEqual(item.longitude, single.longitude)
                XCTAssertEqual(item.favorite, single.favorite)
                XCTAssertEqual(item.folder, single.source.folder)
                XCTAssertEqual(item.mediaDigest, GalleryPhoto.mediaDigest(of: single))
                XCTAssertEqual(item.checksumAsNumber.map { ContentHash.hexText($0) }, single.checksum.hasPrefix("text") ? nil : single.checksum)
                XCTAssertEqual(item.hasClip, single.motion?.clip != nil)
            }
            XCTAssertEqual(Set(items.compactMap(\.folder)).count, 7)
        }
    }

    /// Every property a photo has comes back from its packed bytes as it was: all of them set,
    /// and none.
    func testAPhotoPackedIsReadBackWithEveryProperty() throws {
        var full = Self.everyPropertySet(Photo(identifier: "p7", source: .content(path: "a/b/ç.heic"),
                                               uploaded: Date(timeIntervalSinceReferenceDate: 9e8), checksum: "not hex"))
        (full.id, full.personId, full.placeId) = (7, -3, 1 << 40)
        (full.title, full.width, full.height, full.orientation) = ("Tï", Int(Int32.max), 1, 6)
        (full.exposure, full.colour) = ("", .adobeRGB)
        (full.latitude, full.longitude, full.tags) = (-0.0, .infinity, ["", "x y"])
        (full.lens, full.pictured, full.alsoListedIn) = ("EF 24-70mm", ["Ann", "Bo"], ["trips/2019"])
        var bare = Photo(identifier: "", source: .flickr(id: ""), uploaded: Date(timeIntervalSinceReferenceDate: 0), checksum: "0123456789abcdef")
        bare.id = 1
        for photo in [full, bare] {
            var packed = PackedWriter()
            try PackedEncoder.encode(photo, into: &packed)
            let read = try packed.bytes.withUnsafeBytes { bytes in
                var reader = PackedReader(bytes)
                defer { XCTAssertEqual(reader.position, bytes.count, "every byte read") }
                return try PackedDecoder.decode(Photo.self, from: &reader)
            }
            XCTAssertEqual(read, photo)
            XCTAssertEqual(GalleryPhoto.digest(of: read), GalleryPhoto.digest(of: photo))
            XCTAssertEqual(read.latitude?.sign, photo.latitude?.sign)

            // The snapshot's own packing writes the same bytes, and reads them back whole.
            var snapshotPacked = PackedWriter()
            try GalleryPhoto.pack(photo, into: &snapshotPacked)
            XCTAssertEqual(snapshotPacked.bytes, packed.bytes)
            let unpacked = try packed.bytes.withUnsafeBytes { bytes in
                var reader = PackedReader(bytes)
                defer { XCTAssertEqual(reader.position, bytes.count, "every byte read") }
                return try GalleryPhoto.unpack(from: &reader)
            }
            XCTAssertEqual(unpacked, photo)
        }
    }

    /// A photo's source, format and colour are packed as the texts their `Codable` conformances
    /// encode, so a snapshot kept by an earlier build reads back the same; a source that names
    /// no kind of source is an error.
    func testAPhotosNamedValuesPackAsTheirTexts() throws {
        func packed(_ value: some Encodable) throws -> [UInt8] {
            var writer = PackedWriter()
            try PackedEncoder.encode(value, into: &writer)
            return writer.bytes
        }
        for source in [PhotoSource.content(path: "a/ç.jpg"), .flickr(id: "42")] {
            XCTAssertEqual(try packed(source), try packed(source.text))
        }
        XCTAssertEqual(try packed(ImageFormat.heic), try packed("heic"))
        XCTAssertEqual(try packed(SourceColour.adobeRGB), try packed(SourceColour.adobeRGB.rawValue))
        let unknown = try packed("nowhere:1")
        XCTAssertThrowsError(try unknown.withUnsafeBytes { bytes in
            var reader = PackedReader(bytes)
            return try PackedDecoder.decode(PhotoSource.self, from: &reader)
        })
    }

    /// A batch larger than the blocks the rows are encoded in (two whole blocks and part of a
    /// third): every photo written once, with its own values, its person and its place.
    func testABatchOfManyBlocksWritesEveryPhotoWithItsOwnValues() throws {
        let count = GalleryDatabase.encodingBlock * 2 + 276
        try database.apply(ImportBatch(upserts: (0..<count).map { n in
            var photo = photo(n, by: "P\(n % 13)", at: n % 5 == 0 ? nil : "Town \(n % 17), Region \(n % 3), Country",
                              favorite: n % 9 == 0, checksum: "c\(n)")
            photo.photo.tags = n % 4 == 0 ? ["tag \(n)", "every fourth"] : []
            photo.photo.latitude = n % 6 == 0 ? Double(n) / 100 : nil
            photo.photo.taken = n % 7 == 0 ? nil : Date(timeIntervalSince1970: 1_600_000_000 + Double(n) * 61.5)
            return photo
        }))
        let photos = try database.snapshot().photos
        XCTAssertEqual(photos.count, count)
        XCTAssertEqual(try database.count("photo"), count)
        for item in photos {
            let photo = item.photo
            let n = try XCTUnwrap(Int(photo.identifier.dropFirst()))
            XCTAssertEqual(photo.source, .content(path: "\(n).jpg"))
            XCTAssertEqual(photo.title, "Photo \(n)")
            XCTAssertEqual(photo.checksum, "c\(n)")
            XCTAssertEqual(photo.uploaded, Date(timeIntervalSince1970: Double(n)))
            XCTAssertEqual(photo.taken, n % 7 == 0 ? nil : Date(timeIntervalSince1970: 1_600_000_000 + Double(n) * 61.5))
            XCTAssertEqual(photo.favorite, n % 9 == 0)
            XCTAssertEqual(photo.tags, n % 4 == 0 ? ["tag \(n)", "every fourth"] : [])
            XCTAssertEqual(photo.latitude, n % 6 == 0 ? Double(n) / 100 : nil)
            XCTAssertEqual(item.person.name, "P\(n % 13)")
            XCTAssertEqual(item.place?.name, n % 5 == 0 ? nil : "Town \(n % 17), Region \(n % 3), Country")
        }
    }

    func testABatchCostsAHandfulOfStatementsWhateverItsSize() throws {
        let counter = StatementCounter()
        var config = Configuration()
        // Statements Folio runs; a trigger's (`photoChange`), traced as "-- …", is SQLite's work inside them.
        config.prepareDatabase { db in db.trace { event in if !"\(event)".hasPrefix("--") { counter.increment() } } }
        let traced = try GalleryDatabase(DatabaseQueue(configuration: config))
        counter.reset()
        try traced.apply(ImportBatch(upserts: (0..<400).map { photo($0, by: "P\($0 % 7)", at: "Town \($0 % 11), Region \($0 % 5), Country") }))
        // 400 photos in chunks of 40 is 10 photo statements; the rest is a fixed handful.
        XCTAssertLessThan(counter.value, 45, "statements for a 400-photo batch")
        XCTAssertEqual(try traced.count("photo"), 400)
    }

    func testPlaceNamesSplitIntoTitleAndSubtitle() {
        let full = PlaceName("Palo Alto,  California, United States")
        XCTAssertEqual(full.full, "Palo Alto, California, United States")
        XCTAssertEqual(full.title, "Palo Alto")
        XCTAssertEqual(full.subtitle, "California, United States")
        XCTAssertEqual(full.defaultRegion, "California")
        XCTAssertEqual(PlaceName("Nairobi, Kenya").defaultRegion, "Kenya")
        XCTAssertEqual(PlaceName("Antarctica").subtitle, "")
    }
}

final class StatementCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
    func reset() { lock.withLock { count = 0 } }
}

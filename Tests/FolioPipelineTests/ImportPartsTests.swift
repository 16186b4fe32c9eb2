@testable import FolioContent
@testable import FolioCore
@testable import FolioModel
@testable import FolioPipeline
import FolioTestSupport
import Foundation
import GRDB
import XCTest

/// The import reads and applies a few thousand photos at a time, in one transaction: what it
/// makes of a library is what an import of every photo at once made.
final class ImportPartsTests: XCTestCase {
    /// Two catalogs, loose photos, a file that is no photo and a sidecar that is no XMP.
    func library() throws -> TestSite {
        let site = try TestSite()
        let seeds = ["photo1", "photo2", "photo3"].map { TestSite.repository.appendingPathComponent("content/\($0).jpg") }
        for (n, name) in ["a", "b", "c", "d", "e"].enumerated() { try site.photo("trip/\(name).jpg", from: seeds[n % 3]) }
        try site.catalog("trip/trip.plist", ["a", "b", "c", "d", "e"].map {
            ["path": "\($0).jpg", "name": "Trip \($0)", "user": "Josh", "place": "Nairobi, Kenya", "favorite": $0 == "c"]
        })
        for name in ["f", "g", "h"] { try site.photo("city/\(name).jpg", from: seeds[1]) }
        try site.catalog("city/city.plist", ["f", "g", "h"].map {
            ["path": "\($0).jpg", "name": "City \($0)", "user": "Al", "place": "Palo Alto, California, United States"]
        })
        try site.photo("loose/x.jpg", from: seeds[2])
        try site.photo("loose/y.jpg")
        try site.write(Data("not a photo".utf8), to: "content/loose/broken.jpg")
        try site.write(Data("<not xmp".utf8), to: "content/trip/b.jpg.xmp")
        return site
    }

    func imported(_ site: TestSite, partSize: Int) async throws -> ImportResult {
        let run = BuildRun(paths: site.paths, options: BuildOptions(themeFolder: TestSite.theme))
        let configured = try await ConfigureStep().run((), in: run)
        let walk = try await WalkContentStep().run(configured, in: run)
        let inventory = try await LoadContentStep().run((configured, walk), in: run)
        return try await ImportStep(partSize: partSize).run((configured, inventory), in: run)
    }

    /// Each photo as the model has it, by id, its person, place and region by name (a
    /// place's id is the order a batch happened to insert them in).
    func rows(_ site: TestSite) throws -> [String] {
        let photos = try site.database.snapshot().photos.sorted { $0.id < $1.id }
        let known = try site.database.knownPhotos(for: photos.map(\.photo.source))
        return photos.map { item in
            let photo = item.photo
            return [String(item.id), photo.source.description, photo.identifier, photo.title ?? "-", photo.checksum,
                    known[photo.source]?.fileStamp ?? "-", known[photo.source]?.fingerprint ?? "-", "\(photo.favorite)", "\(photo.width)x\(photo.height)", item.person.name,
                    item.place?.name ?? "-", item.region?.name ?? "-"].joined(separator: " | ")
        }
    }

    func testAnImportInPartsMakesTheModelOfOneImportAtOnce() async throws {
        let site = try library()
        let inParts = try await imported(site, partSize: 2)
        let model = try rows(site)
        let problems = try site.database.problems()
        XCTAssertEqual(inParts.imported, 10)
        XCTAssertEqual(inParts.failed.keys.map(\.description), ["content/loose/broken.jpg"])
        XCTAssertEqual(model.count, 10)
        XCTAssertEqual(model.filter { $0.contains("| true |") }.count, 1, "Trip c, the favorite")
        XCTAssertTrue(model.contains { $0.contains("| content/trip/c.jpg |") && $0.contains("| Trip c |") && $0.contains("| true |") })
        XCTAssertTrue(problems.contains { $0.path == "content/trip/b.jpg.xmp" }, "the sidecar's problem is kept: \(problems)")

        try FileManager.default.removeItem(at: site.paths.database)
        let atOnce = try await imported(site, partSize: 1_000)
        XCTAssertEqual(try rows(site), model, "row for row, ids included")
        XCTAssertEqual(try site.database.problems(), problems)
        XCTAssertEqual(atOnce.issues, inParts.issues)
        XCTAssertEqual(atOnce.failed, inParts.failed)

        // Read again: only the file that is no photo. What was wrong with the sidecar still is.
        let again = try await imported(site, partSize: 2)
        XCTAssertEqual(again.imported, 0)
        XCTAssertTrue(again.issues.contains { $0.path == "content/trip/b.jpg.xmp" })
        XCTAssertEqual(try rows(site), model)
        XCTAssertEqual(try site.database.problems(), problems)

        // A photo gone takes its problems with it; one edited is read, and its problems with it.
        try FileManager.default.removeItem(at: site.content.appendingPathComponent("trip/b.jpg.xmp"))
        try FileManager.default.removeItem(at: site.content.appendingPathComponent("loose/broken.jpg"))
        try FileManager.default.removeItem(at: site.content.appendingPathComponent("city/g.jpg"))
        let edited = try await imported(site, partSize: 2)
        XCTAssertEqual(edited.imported, 1, "trip/b.jpg, its sidecar gone")
        XCTAssertEqual(edited.removed, 1)
        XCTAssertEqual(try site.database.problems(), [])
        XCTAssertEqual(try rows(site).count, 9)
    }

    /// Every record edited, every catalogued photo is read again, a part at a time, each part
    /// with what the model knew of its own photos: a file as it was is not hashed again, its
    /// checksum taken from the model, whichever part it is in.
    func testEveryPhotoReadAgainInPartsKeepsWhatTheModelKnewOfIt() async throws {
        let site = try library()
        _ = try await imported(site, partSize: 2)
        // Checksums no file has: only what the model knew gives them back.
        try await site.database.writer.write { db in try db.execute(sql: "UPDATE photo SET checksum = printf('%016x', id + 4096)") }
        try site.catalog("trip/trip.plist", ["a", "b", "c", "d", "e"].map {
            ["path": "\($0).jpg", "name": "Trip \($0) again", "user": "Josh", "place": "Nairobi, Kenya", "favorite": $0 == "c"]
        })
        try site.catalog("city/city.plist", ["f", "g", "h"].map {
            ["path": "\($0).jpg", "name": "City \($0) again", "user": "Al", "place": "Palo Alto, California, United States"]
        })
        let again = try await imported(site, partSize: 2)
        XCTAssertEqual(again.imported, 8, "every catalogued photo read again, in two parts (a catalog each)")
        let photos = try site.database.snapshot().photos.map(\.photo).filter { $0.title?.hasSuffix(" again") == true }
        XCTAssertEqual(photos.count, 8)
        // trip/b.jpg has a sidecar, which may say more of the file: it is hashed again.
        for photo in photos where photo.source != .content(path: "trip/b.jpg") {
            XCTAssertEqual(photo.checksum, String(format: "%016llx", photo.id + 4096), "\(photo.source)")
        }
    }

    func testPartsEndWhereACatalogDoesAndStayBounded() {
        func entry(_ catalog: String?) -> ContentEntry {
            let stamp = FileStamp(size: 1, modified: Date())
            guard let catalog else { return ContentEntry(path: "p.jpg", record: nil, stamp: stamp) }
            let record = CatalogRecord(location: "content/c.plist, record 1", path: "p.jpg", name: nil, user: nil, description: nil,
                                       place: nil, region: nil, latitude: nil, longitude: nil, taken: nil, uploaded: nil,
                                       favorite: false, tags: [])
            return ContentEntry(path: "p.jpg", catalogued: CatalogRecord.Place(catalog: catalog, index: 0, fingerprint: record.fingerprintValue),
                                stamp: stamp)
        }
        // Catalogs of 3, 5 and 20 entries, then 4 loose ones.
        let entries = Array(repeating: "a", count: 3).map(entry) + Array(repeating: "b", count: 5).map(entry)
            + Array(repeating: "c", count: 20).map(entry) + Array(repeating: nil, count: 4).map(entry)
        let parts = ImportStep.parts(of: entries.indices, size: 2, entries: { entries[$0] })
        XCTAssertEqual(parts, [0..<3, 3..<8, 8..<16, 16..<24, 24..<28, 28..<30, 30..<32])
        XCTAssertEqual(ImportStep.parts(of: 0..<0, size: 2, entries: { entries[$0] }), [])
        XCTAssertEqual(ImportStep.parts(of: 5..<6, size: 2, entries: { entries[$0] }), [5..<6])
    }

    /// A batch that fails, or a part that cannot be made, leaves the model as it was: the
    /// parts applied before it are taken back with it.
    func testAFailedPartTakesTheEarlierPartsBackWithIt() throws {
        let database = try GalleryDatabase.inMemory()
        func photo(_ n: Int) -> PhotoImport {
            PhotoImport(source: .content(path: "\(n).jpg"), identifier: "p\(n)", title: "Photo \(n)", description: nil,
                        person: "Josh", place: "Nairobi, Kenya", region: nil, taken: nil, uploaded: Date(timeIntervalSince1970: 0),
                        width: 10, height: 10, favorite: n == 2, checksum: "c\(n)", fileStamp: "s\(n)", fingerprint: "f\(n)")
        }
        try database.apply(ImportBatch(upserts: [photo(1)]))
        let before = try database.snapshot()
        struct Refused: Error {}
        XCTAssertThrowsError(try database.apply(inParts: { parts in
            try parts.add(ImportBatch(upserts: [photo(2), photo(3)], removals: [.content(path: "1.jpg")]))
            throw Refused()
        }))
        let after = try database.snapshot()
        XCTAssertEqual(after.photos, before.photos)
        XCTAssertEqual(after.regions, before.regions)
        XCTAssertEqual(try database.knownPhotos(of: .content).keys.map(\.description), ["content/1.jpg"])

        try database.apply(inParts: { parts in
            try parts.add(ImportBatch(upserts: [photo(2)]))
            try parts.add(ImportBatch())
            try parts.add(ImportBatch(upserts: [photo(3)], removals: [.content(path: "1.jpg")]))
        })
        XCTAssertEqual(try database.knownPhotos(of: .content).keys.map(\.description).sorted(), ["content/2.jpg", "content/3.jpg"])
        XCTAssertEqual(try database.snapshot().photos.map { $0.place?.hasFavorites }, [true, true], "derived values refreshed once, at the end")
    }

    func testAnOrderedConcurrentMapKeepsTheOrderAndCountsOneAtATime() {
        let counts = Counts()
        let squares = orderedConcurrentMap(Array(0..<500), width: 3, onEach: counts.add) { $0 * $0 }
        XCTAssertEqual(squares, (0..<500).map { $0 * $0 })
        XCTAssertEqual(counts.seen, Array(1...500))
        XCTAssertEqual(orderedConcurrentMap([Int](), width: 2) { $0 }, [])
    }

    final class Counts: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Int] = []
        func add(_ count: Int) { lock.withLock { values.append(count) } }
        var seen: [Int] { lock.withLock { values } }
    }
}

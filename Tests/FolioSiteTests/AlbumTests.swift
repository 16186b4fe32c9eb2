@testable import FolioModel
@testable import FolioSite
import FolioTestSupport
import Foundation
import XCTest

/// Folders are albums: nested, titled by their folder or their album.plist, with breadcrumbs,
/// covers, counts and dates, linked from their photos and found by search.
final class AlbumTests: XCTestCase {
    func photo(_ site: TestSite, _ path: String, seed: UInt64, taken: String) throws {
        var sample = SamplePhoto(width: 240, height: 180, seed: seed)
        sample.taken = ISO8601DateFormatter().date(from: taken)
        try site.write(try sample.jpeg(), to: "content/\(path)")
    }

    func testFoldersNestedThreeDeepAreAlbumsWithCrumbsCountsAndDates() async throws {
        let site = try TestSite()
        try photo(site, "top.jpg", seed: 1, taken: "2024-01-01T10:00:00Z")
        try photo(site, "2024_travel/overview.jpg", seed: 2, taken: "2024-03-01T10:00:00Z")
        try photo(site, "2024_travel/japan/tokyo.jpg", seed: 3, taken: "2024-04-02T10:00:00Z")
        try photo(site, "2024_travel/japan/kyoto/gates.jpg", seed: 4, taken: "2024-04-05T10:00:00Z")
        try photo(site, "2024_travel/japan/kyoto/temple.jpg", seed: 5, taken: "2024-04-04T10:00:00Z")
        // A catalog elsewhere describes a photo: it belongs to the album of the photo's folder.
        try photo(site, "only-folders/deeper/cat.jpg", seed: 6, taken: "2025-06-01T10:00:00Z")
        try site.catalog("catalog.plist", [["path": "only-folders/deeper/cat.jpg", "name": "A cat"]])
        try site.write(plist(["title": "Kyoto, April", "description": "Gates & temples", "cover": "temple.jpg"]),
                       to: "content/2024_travel/japan/kyoto/album.plist")

        let report = try await site.build()
        XCTAssertTrue(report.succeeded, report.issues.description)
        XCTAssertEqual(report.issues, [])
        let checks = PublicTreeChecks(root: site.publicFolder)
        XCTAssertEqual(try checks.problems(), [])

        let index = try site.read("albums/index.html")
        let rows = PublicTreeChecks.matches(#"<span class="row-title">([^<]*)</span>"#, in: index)
        XCTAssertEqual(rows, ["2024 travel", "2024 travel › japan", "2024 travel › japan › Kyoto, April", "only folders", "only folders › deeper"],
                       "each album above its sub-albums; folder names cleaned; album.plist's title")
        XCTAssertTrue(index.contains("4 photos · 1 March\u{2009}–\u{2009}5 April 2024"), "counts include sub-albums")
        XCTAssertFalse(site.exists("albums/top.html"), "the top of content/ is no album")

        let kyoto = try site.read("albums/2024-travel-japan-kyoto.html")
        XCTAssertEqual(PublicTreeChecks.matches(#"<li><a href="[^"]*">([^<]*)</a></li>"#, in: kyoto.components(separatedBy: "<nav class=\"crumbs\"")[1]).prefix(3),
                       ["Albums", "2024 travel", "japan"])
        XCTAssertTrue(kyoto.contains("Gates &amp; temples · 2 photos · 4\u{2009}–\u{2009}5 April 2024"))
        let order = PublicTreeChecks.matches(#"<span class="caption-title">([^<]*)</span>"#, in: kyoto)
        XCTAssertEqual(order, ["temple", "gates"], "photos in the order they were taken")

        let japan = try site.read("albums/2024-travel-japan.html")
        XCTAssertTrue(japan.contains(#"<h2 class="section-title">Albums</h2>"#))
        XCTAssertTrue(japan.contains(#"href="../albums/2024-travel-japan-kyoto.html""#))
        XCTAssertTrue(japan.contains(#"<h2 class="section-title">Photos</h2>"#))
        // The cover album.plist names, not the newest photo.
        let temple = try site.identifier("2024_travel/japan/kyoto/temple.jpg")
        let japanRow = japan.components(separatedBy: "albums/2024-travel-japan-kyoto.html")[1].prefix(600)
        let templeThumb = try site.read("photos/\(temple).html")
        XCTAssertTrue(templeThumb.contains(#"href="../albums/2024-travel-japan-kyoto.html">2024 travel › japan › Kyoto, April</a>"#),
                      "the photo's page names its album")
        let thumb = try XCTUnwrap(PublicTreeChecks.matches(#"<img src="\.\./(media/[^"]*)""#, in: String(japanRow)).first)
        let search = try site.database.snapshot()
        let templeId = try XCTUnwrap(search.photos.first { $0.photo.source == .content(path: "2024_travel/japan/kyoto/temple.jpg") }?.photo.checksum)
        XCTAssertTrue(thumb.contains(String(templeId.prefix(8))), "\(thumb) is the temple's thumbnail")

        let cat = try site.read("photos/\(try site.identifier("only-folders/deeper/cat.jpg")).html")
        XCTAssertTrue(cat.contains(#"href="../albums/only-folders-deeper.html""#))
        let home = try site.read("index.html")
        XCTAssertTrue(home.contains(#"href="albums/index.html""#))

        // Album titles find their photos.
        let words = try String(contentsOf: site.publicFolder.appendingPathComponent("search/data/meta.js"), encoding: .utf8)
        XCTAssertTrue(words.contains("\"photos\":6"))
        let shards = try FileManager.default.contentsOfDirectory(atPath: site.publicFolder.appendingPathComponent("search/data").path)
        let text = try shards.filter { $0.hasPrefix("t-") }.map {
            try String(contentsOf: site.publicFolder.appendingPathComponent("search/data/\($0)"), encoding: .utf8)
        }.joined()
        XCTAssertTrue(text.contains("\"kyoto\":"), "the album's title is searchable")
    }

    func testEditingAlbumPlistRebuildsAndMistakesAreSaid() async throws {
        let site = try TestSite()
        try photo(site, "trip/a.jpg", seed: 1, taken: "2024-01-01T10:00:00Z")
        let first = try await site.build()
        XCTAssertTrue(first.succeeded)
        XCTAssertTrue(try site.read("albums/trip.html").contains("<h1>trip</h1>"))

        try site.write(plist(["title": "The trip", "cover": "missing.jpg", "colour": "red", "description": 3]), to: "content/trip/album.plist")
        let report = try await site.build()
        XCTAssertTrue(report.succeeded)
        XCTAssertEqual(report.issues.map(\.description), [
            "warning: content/trip/album.plist: unknown key 'colour' ignored (an album.plist may hold title, description, cover, unlisted, password and passwordVariable)",
            "warning: content/trip/album.plist: key 'description' should be a string; ignored",
            "warning: content/trip/album.plist: cover 'missing.jpg' is not a photo of this folder; the newest photo is the cover",
        ])
        XCTAssertTrue(try site.read("albums/trip.html").contains("<h1>The trip</h1>"))
        XCTAssertTrue(try site.read("albums/index.html").contains("The trip"))

        // An album.plist holding an array is a catalog, as before.
        try site.write(plist([["path": "a.jpg", "name": "Catalogued"]]), to: "content/trip/album.plist")
        let third = try await site.build()
        XCTAssertTrue(third.succeeded)
        XCTAssertTrue(try site.read("albums/trip.html").contains("<h1>trip</h1>"))
        XCTAssertTrue(try site.read("albums/trip.html").contains("Catalogued"))
    }

    /// A photo that does not say when it was taken has no date: the file's (when it was copied,
    /// today) is no date of the photo's.
    func testUndatedPhotosHaveNoDateSortByNameAndAreNotCovers() async throws {
        let site = try TestSite()
        try photo(site, "mixed/b-dated.jpg", seed: 1, taken: "2021-06-01T10:00:00Z")
        try photo(site, "mixed/a-dated.jpg", seed: 2, taken: "2020-01-01T10:00:00Z")
        for (path, seed) in [("mixed/z-undated.jpg", 3), ("mixed/c-undated.jpg", 4), ("undated/y.jpg", 5), ("undated/x.jpg", 6)] {
            try site.write(try SamplePhoto(width: 240, height: 180, seed: UInt64(seed)).jpeg(), to: "content/\(path)")
        }
        let report = try await site.build()
        XCTAssertEqual(report.issues, [])
        let snapshot = try site.database.snapshot()
        func checksum(_ path: String) throws -> String {
            try XCTUnwrap(snapshot.photos.first { $0.photo.source == .content(path: path) }?.photo.checksum)
        }
        XCTAssertNil(snapshot.photos.first { $0.photo.source == .content(path: "mixed/z-undated.jpg") }?.photo.taken)

        let mixed = try site.read("albums/mixed.html")
        XCTAssertTrue(mixed.contains("4 photos · 1 January 2020\u{2009}–\u{2009}1 June 2021"), "the undated add no date")
        XCTAssertEqual(PublicTreeChecks.matches(#"<span class="caption-title">([^<]*)</span>"#, in: mixed),
                       ["a dated", "b dated", "c undated", "z undated"], "as taken, then the undated by name")
        let undated = try site.read("albums/undated.html")
        XCTAssertTrue(undated.contains(#"<p class="subheading">2 photos</p>"#), "no dates at all: none shown")
        XCTAssertEqual(PublicTreeChecks.matches(#"<span class="caption-title">([^<]*)</span>"#, in: undated), ["x", "y"])

        let index = try site.read("albums/index.html")
        func coverThumb(_ album: String) throws -> String {
            let row = try XCTUnwrap(index.components(separatedBy: "albums/\(album).html").dropFirst().first).prefix(600)
            return try XCTUnwrap(PublicTreeChecks.matches(#"<img src="\.\./(media/[^"]*)""#, in: String(row)).first)
        }
        XCTAssertTrue(try coverThumb("mixed").contains(String(try checksum("mixed/b-dated.jpg").prefix(8))),
                      "the newest dated photo is the cover, not an undated one")
        XCTAssertTrue(try coverThumb("undated").contains(String(try checksum("undated/x.jpg").prefix(8))), "none dated: the first by name")
    }

    /// An album's photos taken at one moment, and those that do not say when, go by name (read
    /// from each photo's packed value once, not at each comparison); the cover `album.plist`
    /// names is found among them once, when the tree is made.
    /// The photos last added are chosen a batch at a time: the same, in the same order, as every
    /// photo sorted by when it was added (then identifier, then position), for any count.
    /// A 4×3 photo by person 1, nowhere.
    static func photo(id: Int, identifier: String, path: String, taken: Date?, uploaded: Date) -> Photo {
        var photo = Photo(identifier: identifier, source: .content(path: path), uploaded: uploaded, checksum: "0123456789abcdef")
        (photo.id, photo.personId, photo.taken) = (Int64(id), 1, taken)
        (photo.width, photo.height) = (4, 3)
        return photo
    }

    func testTheLatestAddedAreThoseAFullSortPutsFirst() {
        var random = SplitMix64(0x1A7E_57AD)
        let person = Person(id: 1, key: "al", name: "Al", slug: "al")
        let moment = Date(timeIntervalSince1970: 1_600_000_000)
        let photos = (0..<700).map { number in
            // Few moments and few identifiers: ties at every level.
            GalleryPhoto(photo: Self.photo(id: number + 1, identifier: "p\(random.next() % 300)", path: "a/\(number).jpg", taken: nil,
                                           uploaded: moment.addingTimeInterval(Double(random.next() % 40))),
                         person: person, place: nil, region: nil)
        }
        let sorted = photos.indices.sorted { a, b in
            if photos[a].uploaded != photos[b].uploaded { return photos[a].uploaded > photos[b].uploaded }
            return photos[a].identifier != photos[b].identifier ? photos[a].identifier < photos[b].identifier : a < b
        }
        for count in [0, 1, 3, 50, 349, 350, 351, 700, 1_000] {
            XCTAssertEqual(SiteBuilder.latestAdded(PhotoRows(photos), count: count), Array(sorted.prefix(count)), "\(count)")
        }
        XCTAssertEqual(SiteBuilder.latestAdded(PhotoRows(), count: 50), [])
    }

    func testPhotosTakenAtOneMomentGoByNameAndTheChosenCoverIsFoundOnce() throws {
        let moment = Date(timeIntervalSince1970: 1_600_000_000)
        let person = Person(id: 1, key: "al", name: "Al", slug: "al")
        let files: [(String, Date?)] = [("trip/IMG_10.jpg", moment), ("trip/IMG_9.jpg", moment), ("trip/b.jpg", nil), ("trip/a.jpg", nil),
                                        ("trip/first.jpg", moment.addingTimeInterval(-60))]
        let photos = files.enumerated().map { number, file in
            GalleryPhoto(photo: Self.photo(id: number + 1, identifier: "p\(number)", path: file.0, taken: file.1, uploaded: moment),
                         person: person, place: nil, region: nil)
        }
        let tree = AlbumTree(photos: PhotoRows(photos), settings: ["trip": AlbumInfo(path: "trip", cover: "b.jpg")])
        let album = try XCTUnwrap(tree.albums["trip"])
        XCTAssertEqual(album.photos.map { files[$0].0 }, ["trip/first.jpg", "trip/IMG_9.jpg", "trip/IMG_10.jpg", "trip/a.jpg", "trip/b.jpg"])
        XCTAssertEqual(album.chosenCover.map { files[$0].0 }, "trip/b.jpg")
        let unnamed = AlbumTree(photos: PhotoRows(photos), settings: ["trip": AlbumInfo(path: "trip", cover: "elsewhere.jpg")])
        XCTAssertNil(unnamed.albums["trip"]?.chosenCover, "a cover that is not one of the album's own is no cover")
    }

    func plist(_ value: Any) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: value, format: .xml, options: 0)
    }
}

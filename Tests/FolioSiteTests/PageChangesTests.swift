@testable import FolioCore
@testable import FolioMedia
@testable import FolioModel
@testable import FolioSite
import FolioTestSupport
import Foundation
import XCTest

/// A build makes the keys only of the pages a change can touch (`SiteBuilder.changes(since:to:)`):
/// whatever is edited, every page whose key moved must be among them, or the site would keep a
/// stale page. Edits are drawn at random from a fixed seed, so a failure replays.
final class PageChangesTests: XCTestCase {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let places = ["Palo Alto, California, United States", "Nairobi, Kenya", "Lyon, France", "Kyoto, Japan", "Osaka, Japan",
                         "Tokyo, Japan", nil]
    static let people = ["Josh", "Al", "Maya", "Unknown"]
    static let folders = ["", "travel/", "travel/japan/", "family/", "family/2024/"]

    /// A site with an address and every photo's images, so that pages show what a published
    /// site's do: thumbnails, and link previews with their cover photo.
    func builder(_ database: GalleryDatabase, now: Date, pageSize: Int = 10) throws -> SiteBuilder {
        var settings = SiteSettings()
        settings.pageSize = pageSize
        settings.baseURL = "https://photos.example.org/"
        let snapshot = try database.snapshot()
        var media: [Int64: PhotoMedia] = [:]
        for item in snapshot.photos {
            let name = "media/\(item.photo.checksum)"
            media[item.photo.id] = PhotoMedia(
                thumbnails: RenditionFiles(files: [RenditionFiles.File(path: "\(name)-thumb.jpg", width: 400, height: 300)], format: .jpeg),
                screens: RenditionFiles(files: [RenditionFiles.File(path: "\(name)-screen.jpg", width: 1600, height: 1200)], format: .jpeg))
        }
        return SiteBuilder(snapshot: snapshot, media: media, settings: settings, now: now, basemap: "media/world.svg")
    }

    func testEveryPageWhoseKeyMovedIsAmongThoseAChangeCanTouch() throws {
        try checkEveryPageWhoseKeyMovedIsAmongThoseAChangeCanTouch(pageSize: 10, seed: 0xC4A7_6E5)
    }

    /// Three to a page: every listing runs to pages, and a change to one photo touches only some of them.
    func testEveryNumberedPageWhoseKeyMovedIsAmongThoseAChangeCanTouch() throws {
        try checkEveryPageWhoseKeyMovedIsAmongThoseAChangeCanTouch(pageSize: 3, seed: 0x9A6E_5)
    }

    func checkEveryPageWhoseKeyMovedIsAmongThoseAChangeCanTouch(pageSize: Int, seed: UInt64) throws {
        var random = SplitMix64(seed)
        let database = try GalleryDatabase.inMemory()
        var photos: [PhotoImport] = []
        for n in 0..<60 {
            let folder = Self.folders.randomElement(using: &random)!
            // Some taken within the last day: their "hours ago" sections move as time passes.
            let age = Bool.random(using: &random) ? Double.random(in: 0..<(30 * 3600), using: &random) : Double.random(in: 0..<(90 * 86_400), using: &random)
            var photo = PhotoImport(source: .content(path: "\(folder)p\(n).jpg"), identifier: "p\(n)", title: "Photo \(n)",
                                    person: Self.people.randomElement(using: &random)!, place: Self.places.randomElement(using: &random)!,
                                    taken: start.addingTimeInterval(-age), uploaded: start.addingTimeInterval(-Double(n * 60)),
                                    width: 4, height: 3, favorite: Int.random(in: 0..<3, using: &random) == 0, checksum: "c\(n)")
            if Bool.random(using: &random) { (photo.photo.latitude, photo.photo.longitude) = (Double.random(in: -60...60, using: &random), Double.random(in: -170...170, using: &random)) }
            photos.append(photo)
        }
        try database.apply(ImportBatch(upserts: photos))
        var now = start
        var last = try builder(database, now: now, pageSize: pageSize)
        let drawing = "theme"
        var digest = last.digest(drawing: drawing)
        var narrowed = 0
        var partly = 0
        var (away, added) = ([PhotoImport](), 0)

        for round in 1...60 {
            var done: [String] = []
            var removals: [PhotoSource] = []
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                let at = Int.random(in: 0..<photos.count, using: &random)
                switch Int.random(in: 0..<10, using: &random) {
                case 0: photos[at].photo.title = (photos[at].photo.title ?? "") + " again"; done.append("retitled p\(at)")
                case 1: photos[at].photo.favorite.toggle(); done.append("favorite of p\(at)")
                case 2: photos[at].place = Self.places.randomElement(using: &random)!; done.append("placed p\(at) in \(photos[at].place ?? "none")")
                case 3:
                    photos[at].person = Self.people.randomElement(using: &random)!
                    photos[at].personKey = PhotoImport.key(forName: photos[at].person)
                    done.append("gave p\(at) to \(photos[at].person)")
                case 4:
                    photos[at].photo.latitude = photos[at].photo.latitude == nil ? Double.random(in: -60...60, using: &random) : nil
                    photos[at].photo.longitude = photos[at].photo.latitude == nil ? nil : Double.random(in: -170...170, using: &random)
                    done.append("moved the GPS of p\(at)")
                case 5: photos[at].photo.checksum += "x"; done.append("replaced the file of p\(at)")
                case 6: photos[at].photo.taken = photos[at].photo.taken?.addingTimeInterval(-Double.random(in: 1...3, using: &random) * 86_400); done.append("redated p\(at)")
                case 7 where photos.count > 40:
                    let gone = photos.remove(at: at)
                    removals.append(gone.photo.source)
                    away.append(gone)
                    done.append("took \(gone.photo.identifier) away")
                case 8 where !away.isEmpty:
                    photos.append(away.removeFirst())
                    done.append("put \(photos.last!.photo.identifier) back")
                case 9:
                    var photo = photos[at]
                    added += 1
                    (photo.photo.source, photo.photo.identifier, photo.photo.checksum) = (.content(path: "new/n\(added).jpg"), "n\(added)", "n\(added)")
                    photo.photo.taken = photo.photo.taken?.addingTimeInterval(-60)
                    photos.append(photo)
                    done.append("added n\(added) beside p\(at)")
                default: done.append("nothing")
                }
            }
            if Bool.random(using: &random) {
                now = now.addingTimeInterval(Double.random(in: 60...(5 * 3600), using: &random))
                done.append("an hour or so later")
            }
            try database.apply(ImportBatch(upserts: photos, removals: removals))
            let builder = try builder(database, now: now, pageSize: pageSize)
            let current = builder.digest(drawing: drawing)
            let changes = builder.changes(since: digest, to: current)
            let routes = builder.routes()
            for route in routes where last.key(route) != builder.key(route) {
                XCTAssertTrue(builder.mayDiffer(route, changes), "round \(round), after \(done): \(route.path) changed, unseen")
            }
            if !changes.isEverything {
                narrowed += 1
                // A listing some of whose pages are looked at, not all.
                partly += routes.filter { $0 != $0.firstPage && builder.mayDiffer($0.firstPage, changes) && !builder.mayDiffer($0, changes) }.count
                XCTAssertLessThan(routes.filter { builder.mayDiffer($0, changes) }.count, routes.count, "round \(round), after \(done)")
            }
            (last, digest) = (builder, current)
        }
        XCTAssertGreaterThan(narrowed, 20, "most rounds keep the photos' order: only the pages they touch are looked at")
        if pageSize < 10 { XCTAssertGreaterThan(partly, 0, "a listing's pages that do not show a changed photo are not looked at") }
    }

    /// A listing whose photos are the same, in the same order, on the same days: a change to one
    /// of them is looked for on the page that shows it, the first (its map, its cover), and the
    /// next (whose first section may carry on its day).
    func testAChangedPhotoIsLookedForOnThePagesThatShowIt() throws {
        let database = try GalleryDatabase.inMemory()
        let hour: TimeInterval = 3600
        // Newest first: p0 an hour old, p1 23½ hours, p2 24.2 hours (a day old, the same day as
        // p1), then one a week for the rest: Josh's, in Lyon. Pages of two cut where the photos
        // say are pages of one: page n shows photo n.
        var photos = [1, 23.5, 24.2, 200, 400, 600, 800].enumerated().map { n, age in
            PhotoImport(source: .content(path: "a/p\(n).jpg"), identifier: "p\(n)", title: "Photo \(n)", person: "Josh",
                        place: "Lyon, France", taken: start.addingTimeInterval(-age * hour), uploaded: start,
                        width: 4, height: 3, checksum: "c\(n)")
        }
        try database.apply(ImportBatch(upserts: photos))
        let first = try builder(database, now: start, pageSize: 2)
        let digest = first.digest(drawing: "theme")
        func pages(_ listing: Route) -> [Route] { first.routes().filter { $0.firstPage == listing } }
        func looked(_ builder: SiteBuilder, _ changes: PageChanges, _ listing: Route) -> [Int] {
            pages(listing).indices.filter { builder.mayDiffer(pages(listing)[$0], changes) }
        }
        func moved(_ builder: SiteBuilder, _ listing: Route) -> [Int] {
            pages(listing).indices.filter { first.key(pages(listing)[$0]) != builder.key(pages(listing)[$0]) }
        }
        let person = Route.person(slug: "josh"), place = Route.place(slug: try XCTUnwrap(first.index.places.first).slug)
        XCTAssertEqual(pages(person).count, 7)

        // p4 retitled: its page, and the next and the first are looked at.
        photos[4].photo.title = "Renamed"
        try database.apply(ImportBatch(upserts: photos))
        var builder = try builder(database, now: start, pageSize: 2)
        var changes = builder.changes(since: digest, to: builder.digest(drawing: "theme"))
        XCTAssertEqual(moved(builder, person), [4])
        // Pages 1 and 2 too: p0 and p1 were taken within a day, and the next page might start their section.
        XCTAssertEqual(looked(builder, changes, person), [0, 1, 2, 4, 5])

        // The cover, p0, retitled: only the first page's link preview names it.
        photos[4].photo.title = "Photo 4"
        photos[0].photo.title = "Renamed"
        try database.apply(ImportBatch(upserts: photos))
        builder = try self.builder(database, now: start, pageSize: 2)
        changes = builder.changes(since: digest, to: builder.digest(drawing: "theme"))
        XCTAssertEqual(moved(builder, person), [0])
        XCTAssertEqual(looked(builder, changes, person), [0, 1, 2])

        // Nothing changed, an hour later: p1 is now a day old, in the section of p2's day, and
        // p2's page of the place's timeline says it carries that section on.
        photos[0].photo.title = "Photo 0"
        try database.apply(ImportBatch(upserts: photos))
        builder = try self.builder(database, now: start.addingTimeInterval(hour), pageSize: 2)
        changes = builder.changes(since: digest, to: builder.digest(drawing: "theme"))
        XCTAssertEqual(moved(builder, place), [0, 1, 2], "p0 two hours ago, p1 on p2's day, p2 carrying it on")
        XCTAssertEqual(looked(builder, changes, place), [0, 1, 2])
        XCTAssertEqual(looked(builder, changes, person), [0, 1, 2])

        // p4 given to Al: the region's first page says "by 2 photographers" now, and p4's page its name.
        (photos[4].person, photos[4].personKey) = ("Al", PhotoImport.key(forName: "Al"))
        try database.apply(ImportBatch(upserts: photos))
        builder = try self.builder(database, now: start, pageSize: 2)
        changes = builder.changes(since: digest, to: builder.digest(drawing: "theme"))
        let region = Route.region(slug: try XCTUnwrap(first.snapshot.regions.first).slug)
        XCTAssertEqual(moved(builder, region), [0, 4])
        XCTAssertEqual(looked(builder, changes, region), Array(0..<7))
    }

    func testAnotherDrawingLooksAtEveryPageAndAPhotoAddedAtThoseItTouches() throws {
        let database = try GalleryDatabase.inMemory()
        let photos = (0..<5).map {
            PhotoImport(source: .content(path: "a/p\($0).jpg"), identifier: "p\($0)", person: "Josh",
                        uploaded: start.addingTimeInterval(Double($0) - 10 * 86_400),
                        width: 4, height: 3, checksum: "c\($0)")
        }
        try database.apply(ImportBatch(upserts: photos))
        let first = try builder(database, now: start)
        let digest = first.digest(drawing: "one")
        XCTAssertFalse(first.changes(since: digest, to: first.digest(drawing: "one")).isEverything)
        XCTAssertTrue(first.changes(since: digest, to: first.digest(drawing: "two")).isEverything, "another theme or settings")
        XCTAssertTrue(first.changes(since: nil, to: digest).isEverything, "no digest kept")
        try database.apply(ImportBatch(upserts: [PhotoImport(source: .content(path: "a/p9.jpg"), identifier: "p9", person: "Josh", uploaded: start,
                                                             width: 4, height: 3, checksum: "c9")]))
        // A photo added: the pages it is on and beside, not every page; the photos after it are
        // found by identity, not position.
        let more = try builder(database, now: start)
        let added = more.changes(since: digest, to: more.digest(drawing: "one"))
        XCTAssertFalse(added.isEverything, "a photo added")
        XCTAssertTrue(try XCTUnwrap(added.photoPositions).contains(try XCTUnwrap(more.photoPosition(.photo(identifier: "p9")))))
        XCTAssertTrue(more.mayDiffer(.photo(identifier: "p9"), added))
        XCTAssertTrue(more.mayDiffer(.person(slug: "josh"), added))

        // Nothing changed, and nothing was taken within a day: only the indexes are looked at.
        let same = first.changes(since: digest, to: first.digest(drawing: "one"))
        XCTAssertEqual(first.routes().filter { first.mayDiffer($0, same) }.map(\.path).filter { $0.hasPrefix("photos/") || $0.hasPrefix("albums/a") }, [])
    }

    func testTheDigestReadsBackAsWritten() throws {
        var digest = SiteDigest(structure: 1, made: Date(timeIntervalSince1970: 1_800_000_000),
                                cardDigests: [0, 42, 7], identities: [3, 0xFFFF_FFFF_FFFF_FFFF, 9], listings: ["albums/a b.html": 5],
                                places: ["places/x.html": 0])
        XCTAssertEqual(SiteDigest.decode(digest.encoded()), digest)
        (digest.cardDigests, digest.identities) = ([], [])
        XCTAssertEqual(SiteDigest.decode(digest.encoded()), digest)
        XCTAssertNil(SiteDigest.decode(Data("folio-site-digest 3\nstructure 1\nmade 3\ncards 5\n0 1\n".utf8)), "cut short")
        XCTAssertNil(SiteDigest.decode(Data("something else".utf8)))
        XCTAssertNil(SiteDigest.decode(Data("folio-site-digest 3\nstructure 1\nmade 3\ncards 1\n0g 1\n".utf8)), "not hex")
        XCTAssertNil(SiteDigest.decode(Data("folio-site-digest 3\nstructure 1\nmade 3\ncards 1\n0\n".utf8)), "no identity")
        XCTAssertNil(SiteDigest.decode(Data("folio-site-digest 2\nstructure 1\norder 2\nmade 3\ncards 1\n0\n".utf8)),
                     "an older Folio's: every page is looked at once")
        var random = SplitMix64(17)
        digest.cardDigests = (0..<5_000).map { _ in random.next() >> (random.next() % 64) }
        digest.identities = (0..<5_000).map { _ in random.next() }
        digest.listings = Dictionary(uniqueKeysWithValues: (0..<50).map { ("people/p\($0) é.html", random.next()) })
        XCTAssertEqual(SiteDigest.decode(digest.encoded()), digest)
        // Written a piece at a time (`BuildState.stage(digest:)`): the same bytes, in more than one piece.
        var pieces: [Data] = []
        digest.encode { pieces.append(Data($0)) }
        XCTAssertGreaterThan(pieces.count, 1)
        XCTAssertEqual(pieces.reduce(Data(), +), digest.encoded())
    }
}

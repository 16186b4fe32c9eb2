import Foundation
import XCTest
@testable import FolioCore

/// A build makes the keys only of the pages a change can touch (`SiteBuilder.changes(since:to:)`):
/// whatever is edited, every page whose key moved must be among them, or the site would keep a
/// stale page. Edits are drawn at random from a fixed seed, so a failure replays.
final class PageChangesTests: XCTestCase {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let places = ["Palo Alto, California, United States", "Nairobi, Kenya", "Lyon, France", "Kyoto, Japan", nil]
    static let people = ["Josh", "Al", "Maya", "Unknown"]
    static let folders = ["", "travel/", "travel/japan/", "family/", "family/2024/"]

    func builder(_ database: GalleryDatabase, now: Date) throws -> SiteBuilder {
        var settings = SiteSettings()
        settings.pageSize = 10
        return SiteBuilder(snapshot: try database.snapshot(), media: [:], settings: settings, now: now, basemap: "media/world.svg")
    }

    func testEveryPageWhoseKeyMovedIsAmongThoseAChangeCanTouch() throws {
        var random = SplitMix64(0xC4A7_6E5)
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
            if Bool.random(using: &random) { (photo.latitude, photo.longitude) = (Double.random(in: -60...60, using: &random), Double.random(in: -170...170, using: &random)) }
            photos.append(photo)
        }
        try database.apply(ImportBatch(upserts: photos))
        var now = start
        var last = try builder(database, now: now)
        let drawing = "theme"
        var digest = last.digest(drawing: drawing)
        var narrowed = 0

        for round in 1...60 {
            var done: [String] = []
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                let at = Int.random(in: 0..<photos.count, using: &random)
                switch Int.random(in: 0..<8, using: &random) {
                case 0: photos[at].title = (photos[at].title ?? "") + " again"; done.append("retitled p\(at)")
                case 1: photos[at].favorite.toggle(); done.append("favorite of p\(at)")
                case 2: photos[at].place = Self.places.randomElement(using: &random)!; done.append("placed p\(at) in \(photos[at].place ?? "none")")
                case 3: photos[at].person = Self.people.randomElement(using: &random)!; done.append("gave p\(at) to \(photos[at].person)")
                case 4:
                    photos[at].latitude = photos[at].latitude == nil ? Double.random(in: -60...60, using: &random) : nil
                    photos[at].longitude = photos[at].latitude == nil ? nil : Double.random(in: -170...170, using: &random)
                    done.append("moved the GPS of p\(at)")
                case 5: photos[at].checksum += "x"; done.append("replaced the file of p\(at)")
                case 6: photos[at].taken = photos[at].taken?.addingTimeInterval(-Double.random(in: 1...3, using: &random) * 86_400); done.append("redated p\(at)")
                default: done.append("nothing")
                }
            }
            if Bool.random(using: &random) {
                now = now.addingTimeInterval(Double.random(in: 60...(5 * 3600), using: &random))
                done.append("an hour or so later")
            }
            try database.apply(ImportBatch(upserts: photos))
            let builder = try builder(database, now: now)
            let current = builder.digest(drawing: drawing)
            let changes = builder.changes(since: digest, to: current)
            let routes = builder.routes()
            for route in routes where last.key(route) != builder.key(route) {
                XCTAssertTrue(builder.mayDiffer(route, changes), "round \(round), after \(done): \(route.path) changed, unseen")
            }
            if !changes.isEverything {
                narrowed += 1
                XCTAssertLessThan(routes.filter { builder.mayDiffer($0, changes) }.count, routes.count, "round \(round), after \(done)")
            }
            (last, digest) = (builder, current)
        }
        XCTAssertGreaterThan(narrowed, 20, "most rounds keep the photos' order: only the pages they touch are looked at")
    }

    func testAnyChangeToTheOrderOrTheDrawingLooksAtEveryPage() throws {
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
        let more = try builder(database, now: start)
        XCTAssertTrue(more.changes(since: digest, to: more.digest(drawing: "one")).isEverything, "a photo added")

        // Nothing changed, and nothing was taken within a day: only the indexes are looked at.
        let same = first.changes(since: digest, to: first.digest(drawing: "one"))
        XCTAssertEqual(first.routes().filter { first.mayDiffer($0, same) }.map(\.path).filter { $0.hasPrefix("photos/") || $0.hasPrefix("albums/a") }, [])
    }

    func testTheDigestReadsBackAsWritten() throws {
        var digest = SiteDigest(structure: 1, order: 0xFFFF_FFFF_FFFF_FFFF, made: Date(timeIntervalSince1970: 1_800_000_000),
                                stamps: [0, 42, 7], listings: ["albums/a b.html": 5], places: ["places/x.html": 0])
        XCTAssertEqual(SiteDigest.decode(digest.encoded()), digest)
        digest.stamps = []
        XCTAssertEqual(SiteDigest.decode(digest.encoded()), digest)
        XCTAssertNil(SiteDigest.decode(Data("folio-site-digest 1\nstructure 1\norder 2\nmade 3\nstamps 5\n0\n".utf8)), "cut short")
        XCTAssertNil(SiteDigest.decode(Data("something else".utf8)))
    }
}

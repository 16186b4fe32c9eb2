@testable import FolioCore
@testable import FolioMedia
@testable import FolioModel
@testable import FolioPipeline
@testable import FolioSite
import FolioTestSupport
import Foundation
import XCTest

final class SiteBuilderTests: XCTestCase {
    let now = ISO8601DateFormatter().date(from: "2026-11-22T12:00:00Z")!

    func builder(_ photos: [PhotoImport]) throws -> SiteBuilder {
        let database = try GalleryDatabase.inMemory()
        try database.apply(ImportBatch(upserts: photos))
        return SiteBuilder(snapshot: try database.snapshot(), media: [:], settings: SiteSettings(), now: now)
    }

    func photo(_ n: Int, title: String? = nil, description: String? = nil, by person: String = "Josh",
               at place: String? = "Palo Alto, California, United States", taken: Date? = nil, favorite: Bool = false) -> PhotoImport {
        PhotoImport(source: .content(path: "\(n).jpg"), identifier: "p\(n)", title: title, description: description, person: person,
                    place: place, taken: taken, uploaded: Date(timeIntervalSince1970: Double(n)), width: 4, height: 3,
                    favorite: favorite, checksum: "c\(n)")
    }

    func page(_ pages: [any SitePage], _ path: String) throws -> any SitePage {
        try XCTUnwrap(pages.first { $0.path == path }, "no page \(path)")
    }

    func page<P: SitePage>(_ pages: [any SitePage], _ path: String, as kind: P.Type) throws -> P {
        let found = try page(pages, path)
        return try XCTUnwrap(found as? P, "\(path) is a \(type(of: found)), not a \(P.self)")
    }

    /// A build's pages, photo routes made as they are asked for (`SiteRoutes`), are each
    /// builder's routes in turn, each with its builder's number, its photos' pages in the order
    /// of their paths (as the manifest is: `PageManifest.position(of:after:)`), each with its
    /// photo's position, whose page is the route's; and a photo is found by its identifier
    /// (`SiteBuilder.photoPosition`), not another of the same start.
    func testSiteRoutesAreEachBuildersRoutesInTurnAndPhotosAreFoundByIdentifier() throws {
        let database = try GalleryDatabase.inMemory()
        try database.apply(ImportBatch(upserts: (1...40).map {
            PhotoImport(source: .content(path: "a/\($0).jpg"), identifier: "p\($0)", title: "P\($0)", person: "X",
                        uploaded: Date(timeIntervalSince1970: Double($0)), width: 4, height: 3, checksum: "c\($0)")
        }))
        let snapshot = try database.snapshot()
        let builder = SiteBuilder(snapshot: snapshot, media: [:], settings: SiteSettings(), now: Date())
        let few = SiteBuilder(snapshot: snapshot.excluding(Set(snapshot.photos.dropFirst(3).map(\.photo.id))), media: [:],
                              settings: SiteSettings(), now: Date())
        let builders = [builder, few, builder]
        let routes = SiteRoutes(builders)
        XCTAssertEqual(routes.count, builders.map { $0.routes().count }.reduce(0, +))
        XCTAssertEqual(routes.map(\.route), builders.flatMap { $0.routes() })
        XCTAssertEqual(routes.map(\.builder), builders.indices.flatMap { Array(repeating: $0, count: builders[$0].routes().count) })
        XCTAssertEqual(SiteRoutes().count, 0)
        let photoPaths = builder.routes().filter { if case .photo = $0 { true } else { false } }.map(\.path)
        XCTAssertEqual(photoPaths.count, 40)
        XCTAssertEqual(photoPaths, photoPaths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        XCTAssertEqual(photoPaths.prefix(3), ["photos/p1.html", "photos/p10.html", "photos/p11.html"])
        for (position, item) in builder.ordered.enumerated() {
            XCTAssertEqual(builder.photoPosition(.photo(identifier: item.photo.identifier)), position)
        }
        XCTAssertNil(builder.photoPosition(.photo(identifier: "p41")))
        XCTAssertNil(builder.photoPosition(.photo(identifier: "p")))
        XCTAssertNil(builder.photoPosition(.home))
        var photoPages = 0
        for (at, (route, number)) in routes.enumerated() {
            guard let photo = routes.photo(at: at) else {
                XCTAssertNil(builders[number].photoPosition(route), route.path)
                continue
            }
            photoPages += 1
            XCTAssertEqual(builders[number].photoPosition(route), photo, route.path)
            let page = try XCTUnwrap(builders[number].page(route, photo: photo))
            XCTAssertEqual(page.path, route.path)
            XCTAssertEqual(builders[number].key(route, photo: photo), builders[number].key(route))
        }
        XCTAssertEqual(photoPages, 40 + 3 + 40)
    }

    /// Photos' pages come in the order of their identifiers' bytes where the first eight bytes
    /// (the number they are sorted by first) are the same, and where an identifier is shorter.
    func testPhotoPagesAreInTheOrderOfTheirIdentifiersWhereTheirFirstEightBytesAreOne() throws {
        let identifiers = ["photo-aaaa-2", "photo-aaaa-10", "photo-aa", "photo-aaaa", "photo-a", "Z", "photo-aaaa-1", "photo-aab", "p"]
        let database = try GalleryDatabase.inMemory()
        try database.apply(ImportBatch(upserts: identifiers.enumerated().map { n, identifier in
            PhotoImport(source: .content(path: "\(n).jpg"), identifier: identifier, person: "X",
                        uploaded: Date(timeIntervalSince1970: Double(n)), width: 4, height: 3, checksum: "c\(n)")
        }))
        let builder = SiteBuilder(snapshot: try database.snapshot(), media: [:], settings: SiteSettings(), now: now)
        XCTAssertEqual(builder.photoPageOrder().map { builder.ordered[Int($0)].identifier },
                       identifiers.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        XCTAssertEqual(builder.photoPageOrder().map { builder.ordered[Int($0)].identifier },
                       ["Z", "p", "photo-a", "photo-aa", "photo-aaaa", "photo-aaaa-1", "photo-aaaa-10", "photo-aaaa-2", "photo-aab"])
    }

    func testTitleFallsBackToDescriptionThenUnknown() throws {
        let pages = try builder([
            photo(1, title: "Sunset", description: "Over the bay"),
            photo(2, description: "Only a description"),
            photo(3),
            photo(4, title: "Same", description: "Same"),
        ]).pages()
        let cards = try page(pages, "recents/index.html", as: PhotosPage.self).photoSections[0].photos
        let byId = Dictionary(uniqueKeysWithValues: cards.map { ($0.identifier, $0) })
        XCTAssertEqual(byId["p1"]?.title, "Sunset")
        XCTAssertEqual(byId["p1"]?.subtitle, "Over the bay")
        XCTAssertEqual(byId["p2"]?.title, "Only a description")
        XCTAssertNil(byId["p2"]?.subtitle)
        XCTAssertEqual(byId["p3"]?.title, "Unknown")
        XCTAssertNil(byId["p3"]?.subtitle)
        XCTAssertNil(byId["p4"]?.subtitle)
        XCTAssertEqual(try page(pages, "photos/p3.html", as: PhotoPage.self).photo.title, "Unknown")
    }

    func testPlacesAreAlphabeticalByTitleInLetterSections() throws {
        let pages = try builder([
            photo(1, at: "Zurich, Switzerland"), photo(2, at: "Amsterdam, Netherlands"),
            photo(3, at: "Éze, Provence, France"), photo(4, at: "athens, Greece"), photo(5, at: "10 Downing Street, London, United Kingdom"),
        ]).pages()
        let places = try page(pages, "places/index.html", as: PlacesPage.self)
        XCTAssertEqual(places.rowSections.map(\.title), ["A", "E", "Z", "#"])
        XCTAssertEqual(places.rowSections[0].rows.map(\.title), ["Amsterdam", "athens"])
        XCTAssertEqual(places.rowSections[1].rows[0].subtitle, "Provence, France")
        XCTAssertEqual(places.letters.filter(\.present).map(\.letter), ["A", "E", "Z", "#"])
        XCTAssertEqual(places.letters.count, 27)
    }

    func testAPlaceListsNewestFirstInSectionsHoursAgoThenByDate() throws {
        let pages = try builder([
            photo(1, taken: now.addingTimeInterval(-30 * 60)),
            photo(2, taken: now.addingTimeInterval(-5 * 3600)),
            photo(3, taken: now.addingTimeInterval(-5.5 * 3600)),
            photo(4, taken: ISO8601DateFormatter().date(from: "2026-11-20T09:00:00Z")),
            photo(5, taken: ISO8601DateFormatter().date(from: "2025-01-02T09:00:00Z")),
        ]).pages()
        let place = try page(pages, "places/palo-alto-california-united-states.html", as: PhotosPage.self)
        XCTAssertEqual(place.photoSections.map(\.title), ["Within the last hour", "5 hours ago", "20 November 2026", "2 January 2025"])
        XCTAssertEqual(place.photoSections.flatMap(\.photos).map(\.identifier), ["p1", "p2", "p3", "p4", "p5"])
    }

    func testTopRegionsSaySoManyPhotographers() throws {
        let pages = try builder([
            photo(1, by: "Josh", at: "Palo Alto, California, United States"),
            photo(2, by: "Al", at: "San Jose, California, United States"),
            photo(3, by: "Al", at: "Nairobi, Kenya"),
        ]).pages()
        let regions = try page(pages, "regions/index.html", as: ListPage.self)
        XCTAssertEqual(regions.rows.map(\.title), ["California", "Kenya"])
        XCTAssertEqual(regions.rows.map(\.subtitle), ["2 photographers", "1 photographer"])
        XCTAssertEqual(try page(pages, "regions/california.html", as: PhotosPage.self).photoSections[0].photos.count, 2)
    }

    func testPeopleAreAlphabeticalWithCounts() throws {
        let pages = try builder([photo(1, by: "josh"), photo(2, by: "Al"), photo(3, by: "Al"), photo(4, by: "Zoë")]).pages()
        let people = try page(pages, "people/index.html", as: ListPage.self)
        XCTAssertEqual(people.rows.map(\.title), ["Al", "josh", "Zoë"])
        XCTAssertEqual(people.rows.map(\.subtitle), ["2 photos", "1 photo", "1 photo"])
    }

    func testFavoritesListPlacesWithFavoritesAndTheSwitch() throws {
        let pages = try builder([
            photo(1, at: "Palo Alto, California, United States", favorite: true),
            photo(2, at: "Palo Alto, California, United States"),
            photo(3, at: "Nairobi, Kenya"),
        ]).pages()
        let only = try page(pages, "favorites/index.html", as: ListPage.self)
        // The favorites themselves, under their places' names, leading to each place's favorites.
        XCTAssertEqual(only.photoSections.map(\.title), ["Palo Alto"])
        XCTAssertEqual(only.photoSections.map { $0.photos.map(\.identifier) }, [["p1"]])
        XCTAssertEqual(only.photoSections.first?.subtitle, "California, United States")
        XCTAssertTrue(only.rows.isEmpty)
        XCTAssertEqual(only.favoritesSwitch?.onlyFavorites, true)
        let all = try page(pages, "favorites/all.html", as: ListPage.self)
        XCTAssertEqual(all.rows.map(\.title), ["Nairobi", "Palo Alto"])
        XCTAssertEqual(all.favoritesSwitch?.onlyFavorites, false)
        let there = try page(pages, try XCTUnwrap(only.photoSections.first?.href), as: PhotosPage.self)
        XCTAssertEqual(there.photoSections[0].photos.map(\.identifier), ["p1"])
    }

    func testPhotoPagesLinkPreviousAndNextInNewestFirstOrder() throws {
        let pages = try builder([photo(1, taken: now.addingTimeInterval(-300)), photo(2, taken: now.addingTimeInterval(-200)),
                                 photo(3, taken: now.addingTimeInterval(-100))]).pages()
        let middle = try page(pages, "photos/p2.html", as: PhotoPage.self).photo
        XCTAssertEqual(middle.previous?.href, "photos/p3.html")
        XCTAssertEqual(middle.next?.href, "photos/p1.html")
        XCTAssertNil(try page(pages, "photos/p3.html", as: PhotoPage.self).photo.previous)
        // "Added" is the day a build first met a file of content/: nothing about the photo.
        XCTAssertEqual(middle.facts.map(\.label), ["Photographer", "Place", "Region", "Taken", "Size"])
        XCTAssertNil(middle.sequence, "a photo in no album walks the site, without a count")
    }

    /// Read where they lie (`spill(into:at:)`), a builder's photos and listings make every page as
    /// they did held: each photo made again from its row is the photo spilled, and every page's
    /// value and key is the same (rows read back from the store's file, not only from its buffer).
    func testEveryPageIsTheSameWithItsPhotosReadWhereTheyLie() throws {
        var photos = (1...60).map { n in
            photo(n, title: n % 6 == 0 ? nil : "Photo \(n)", by: ["Josh", "Ann", "Bo"][n % 3],
                  at: n % 5 == 0 ? nil : ["Palo Alto, California, United States", "Lyon, France", "Kyoto, Japan"][n % 3],
                  taken: n % 7 == 0 ? nil : now.addingTimeInterval(Double(-n * 3_600)), favorite: n % 4 == 0)
        }
        for n in photos.indices {
            if n % 3 == 0 { photos[n].photo.source = .content(path: "trip/\(n).jpg") }
            if n % 9 == 0 { photos[n].photo.alsoListedIn = ["other"] }
            if n % 2 == 0 { (photos[n].photo.latitude, photos[n].photo.longitude) = (45.76 + Double(n) / 100, 4.83) }
            if n % 8 == 0 { photos[n].photo.checksum = String(format: "%016x", n) }
        }
        // Pages of eight: a listing's later pages read their positions from the middle of its list.
        let held = try builder(photos, pageSize: 8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rows-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var spilled = held
        spilled.spill(into: folder.path, at: 512)
        XCTAssertTrue(spilled.ordered.isSpilled)
        XCTAssertTrue(spilled.snapshot.photos.isEmpty, "the snapshot's photos are let go")
        XCTAssertTrue(spilled.ordered.rowsInFile, "the rows spilled to a file")
        let lists = [spilled.index.byPlace, spilled.index.byRegion, spilled.index.byPerson, spilled.index.favorites].flatMap(\.values)
            + spilled.albumTree.albums.values.map(\.photos)
        XCTAssertTrue(lists.allSatisfy(\.isSpilled), "the listings are read where they lie")
        XCTAssertGreaterThan(lists.map(\.count).max() ?? 0, 16, "a listing past its first mark")
        XCTAssertEqual(spilled.ordered.count, 60)
        for (made, item) in zip(spilled.ordered, held.ordered) {
            XCTAssertEqual(made, item)
            XCTAssertEqual(made.digest, item.digest)
            XCTAssertEqual(made.mediaDigest, item.mediaDigest)
            XCTAssertEqual(made.folder, item.folder)
            XCTAssertEqual(made.checksumAsNumber, item.checksumAsNumber)
            XCTAssertEqual(made.inOtherAlbums, item.inOtherAlbums)
            XCTAssertEqual(made.latitude, item.latitude)
            XCTAssertEqual(made.taken, item.taken)
        }
        XCTAssertTrue(held.ordered.contains { $0.checksumAsNumber != nil } && held.ordered.contains { $0.place == nil })
        let routes = held.routes()
        XCTAssertEqual(spilled.routes(), routes)
        XCTAssertGreaterThan(routes.count, 70)
        for route in routes {
            XCTAssertEqual(spilled.page(route).map { ValueDigest.of($0) }, held.page(route).map { ValueDigest.of($0) }, route.path)
            XCTAssertEqual(spilled.key(route), held.key(route), route.path)
        }
    }

    func testPhotoPagesFollowTheirAlbumAndSayWhereTheyAre() throws {
        // Newest first the site goes t1 (album b), a3, b2, a1, a2 (album a): the album holds its
        // photos as they were taken, oldest first.
        func dated(_ path: String, _ id: String, _ minutes: Double) -> PhotoImport {
            PhotoImport(source: .content(path: path), identifier: id, title: id, description: nil, person: "Josh",
                        place: nil, taken: now.addingTimeInterval(-minutes * 60), uploaded: now, width: 4, height: 3,
                        favorite: false, checksum: id)
        }
        let pages = try builder([dated("trip/a1.jpg", "a1", 40), dated("trip/a2.jpg", "a2", 50), dated("trip/a3.jpg", "a3", 20),
                                 dated("other/b2.jpg", "b2", 30), dated("other/t1.jpg", "t1", 10)]).pages()
        let first = try page(pages, "photos/a2.html", as: PhotoPage.self).photo
        XCTAssertNil(first.previous)
        XCTAssertEqual(first.next?.href, "photos/a1.html")
        let middle = try page(pages, "photos/a1.html", as: PhotoPage.self).photo
        XCTAssertEqual(middle.previous?.href, "photos/a2.html")
        XCTAssertEqual(middle.next?.href, "photos/a3.html", "the next photo is the album's, not b2, taken between them")
        // Where it is in the album the script says, from the album's list: another photo joining
        // the album changes no other photo's page.
        XCTAssertEqual(middle.sequence, SequencePlace(key: "album/trip", file: "search/data/s-album-trip.js", title: "trip", href: "albums/trip.html",
                                                      html: #"In <a class="sequence-list" href="../albums/trip.html">trip</a>"#))
        XCTAssertNil(try page(pages, "photos/a3.html", as: PhotoPage.self).photo.next)
        XCTAssertEqual(try page(pages, "albums/trip.html").frame.sequence?.file, "search/data/s-album-trip.js")
    }

    func testTheHomePageLeavesOutCountsThatSayNothing() throws {
        // One photographer, one place: no "1 People", no "1 Places"; Favorites and Recents stay,
        // which the visitor's browser adds to.
        let home = try page(try builder([photo(1), photo(2)]).pages(), "index.html", as: HomePage.self)
        XCTAssertEqual(home.stats.map(\.name), ["favorites", "recents"])
        let larger = try page(try builder([photo(1, by: "Al"), photo(2, at: "Nairobi, Kenya")]).pages(), "index.html", as: HomePage.self)
        XCTAssertEqual(larger.stats.map(\.name), ["places", "regions", "people", "favorites", "recents"])
    }

    func testTheFavoritesPageShowsAPlacesFirstFavoritesAndLeadsToTheRest() throws {
        let many = (1...14).map { photo($0, favorite: true) }
        let only = try page(try builder(many).pages(), "favorites/index.html", as: ListPage.self)
        XCTAssertEqual(only.photoSections.count, 1)
        XCTAssertEqual(only.photoSections[0].photos.count, SiteBuilder.favoritesShown)
        XCTAssertEqual(only.photoSections[0].more?.title, "All 14 favorites in Palo Alto")
        XCTAssertEqual(only.photoSections[0].more?.href, "favorites/palo-alto-california-united-states.html")
    }

    func testTheFavoritesPageIsCutIntoPagesByPhotos() throws {
        // 12 of Palo Alto's 14 and Nairobi's 3: 15 cards, 10 a page; Palo Alto carried on to page 2.
        let many = (1...14).map { photo($0, favorite: true) } + (15...17).map { photo($0, at: "Nairobi, Kenya", favorite: true) }
        let builder = try builder(many, pageSize: 10)
        XCTAssertEqual(builder.routes().filter { $0.section == .favorites && $0.path.hasPrefix("favorites/index") }.map(\.path),
                       ["favorites/index.html", "favorites/index/2.html"])
        let pages = builder.pages()
        let first = try page(pages, "favorites/index.html", as: ListPage.self)
        XCTAssertEqual(first.photoSections.map(\.title), ["Nairobi", "Palo Alto"])
        XCTAssertEqual(first.photoSections.map(\.photos.count), [3, 7])
        XCTAssertNil(first.photoSections[1].more, "the way to the rest comes after the place's last card")
        let second = try page(pages, "favorites/index/2.html", as: ListPage.self)
        XCTAssertEqual(second.photoSections.map(\.title), ["Palo Alto"])
        XCTAssertEqual(second.photoSections[0].photos.count, 5)
        XCTAssertTrue(second.photoSections[0].continued)
        XCTAssertEqual(second.photoSections[0].more?.title, "All 14 favorites in Palo Alto")
    }

    func testRowsShowRowRenditionsNotScreenRenditions() throws {
        let set = RenditionSet(SiteSettings())
        let photo = Photo(identifier: "p1", source: .content(path: "trip/1.jpg"), uploaded: now, checksum: "c0ffee")
        let large = set.media(of: photo, width: 4000, height: 3000)
        XCTAssertEqual(large.rows.files.map { [$0.width, $0.height] }, [[693, 520], [347, 260]])
        XCTAssertTrue(large.rows.files.allSatisfy { $0.path.contains("-row") })
        // A small photo's larger row is its screen rendition's size: the screen rendition serves.
        let small = set.media(of: photo, width: 500, height: 375)
        XCTAssertEqual(small.rows.files.map(\.path), [small.screens.files[0].path, large.rows.files[1].path])
        XCTAssertEqual(small.paths.count, Set(small.paths).count, "each file once")

        let database = try GalleryDatabase.inMemory()
        try database.apply(ImportBatch(upserts: [PhotoImport(source: .content(path: "trip/1.jpg"), identifier: "p1", title: "Big", person: "Josh",
                                                             uploaded: now, width: 4000, height: 3000, checksum: "c0ffee")]))
        let snapshot = try database.snapshot()
        let builder = SiteBuilder(snapshot: snapshot, media: [snapshot.photos[0].photo.id: large], settings: SiteSettings(), now: now)
        let album = try page(builder.pages(), "albums/trip.html", as: AlbumPage.self)
        let card = try XCTUnwrap(album.photoSections.first?.photos.first)
        XCTAssertEqual(card.shape?.candidates.map(\.width), [347, 693])
        XCTAssertEqual(card.shapeSizes, "(max-width: 560px) 97px, 346px")
    }

    func testFactsThatSayNothingAreLeftOut() throws {
        let pages = try builder([photo(1, by: Person.unknownName)]).pages()
        let unknown = try page(pages, "photos/p1.html", as: PhotoPage.self)
        XCTAssertEqual(unknown.photo.facts.map(\.label), ["Place", "Region", "Size"])
        XCTAssertEqual(unknown.frame.crumbs.count, 0, "no way to a person no one named")
    }

    func testNoOneNamedIsNotAPersonInPeople() throws {
        // A Flickr account whose display name is "Unknown" is someone: the model keys it apart.
        var account = photo(4, by: Person.unknownName)
        account.personKey = "flickr:12037949754@N01"
        let builder = try builder([photo(1, by: "Josh"), photo(2, by: "Al"), photo(3, by: Person.unknownName), account])
        let person = { (identifier: String) in try XCTUnwrap(builder.snapshot.photos.first { $0.photo.identifier == identifier }?.person) }
        let (nobody, someone) = (try person("p3"), try person("p4"))
        XCTAssertTrue(nobody.isUnknown)
        XCTAssertFalse(someone.isUnknown)
        let pages = builder.pages()
        let people = try page(pages, "people/index.html", as: ListPage.self)
        XCTAssertEqual(people.rows.map(\.title), ["Al", "Josh", "Unknown"])
        XCTAssertEqual(people.rows.map(\.href), ["people/al.html", "people/josh.html", Route.person(slug: someone.slug).path])
        XCTAssertEqual(people.frame.subheading, "3 photographers")
        XCTAssertEqual(try page(pages, "photos/p4.html", as: PhotoPage.self).photo.facts.first?.href, Route.person(slug: someone.slug).path)
        let paths = Set(builder.routes().map(\.path))
        XCTAssertTrue(paths.contains(Route.person(slug: someone.slug).path))
        XCTAssertFalse(paths.contains(Route.person(slug: nobody.slug).path), "no page for no one")
        XCTAssertNil(builder.page(.person(slug: nobody.slug)))
        XCTAssertEqual(try page(pages, "index.html", as: HomePage.self).stats.first { $0.name == "people" }?.count, 3)
        let files = builder.searchIndex().files
        XCTAssertFalse(files.contains { $0.path == "search/data/s-person-\(nobody.slug).js" }, "no list of no one's to walk")
        XCTAssertTrue(files.contains { $0.path == "search/data/s-person-\(someone.slug).js" })
        // No one's photo is still everywhere else a photo is.
        XCTAssertNotNil(builder.page(.photo(identifier: "p3")))
        XCTAssertTrue(paths.contains("photos/p3.html"))
    }

    func testNoOneNamedIsNotSaidOnCardsOrInAltText() throws {
        let builder = try builder([photo(1, by: Person.unknownName), photo(2, by: "Al")])
        let (nobody, al) = (builder.snapshot.photos.first { $0.photo.identifier == "p1" }!, builder.snapshot.photos.first { $0.photo.identifier == "p2" }!)
        XCTAssertEqual(PhotoText.alt(nobody, .defaultTheme), "Photo in Palo Alto")
        XCTAssertEqual(PhotoText.alt(al, .defaultTheme), "Photo by Al in Palo Alto")
        // Titled by a file name of punctuation alone, by no one, nowhere: still "Photo", never empty.
        var bare = nobody
        bare.photo.title = ""
        bare.place = nil
        XCTAssertEqual(PhotoText.alt(bare, .defaultTheme), "Photo")
        XCTAssertNil(builder.record(nobody, title: "Unknown").person, "the script's cards say no one, as photo pages do")
        XCTAssertEqual(builder.record(al, title: "Unknown").person, "Al")
        let rows = builder.searchIndex().files.map { String(decoding: $0.data, as: UTF8.self) }.joined()
        XCTAssertFalse(rows.contains(#""Unknown","Palo Alto""#), "no person named Unknown before the place")
    }

    func testEveryListAVisitorWalksIsWrittenAsPhotoNumbers() throws {
        let builder = try builder([photo(1, at: "Nairobi, Kenya", favorite: true), photo(2, by: "Al"), photo(3, at: "Nairobi, Kenya")])
        let files = Dictionary(uniqueKeysWithValues: builder.searchIndex().files.map { ($0.path, String(decoding: $0.data, as: UTF8.self)) })
        // Each list newest first (by upload here), its photos as their numbers in the search index.
        let numbering = builder.searchNumbering()
        let number = { (identifier: String) in numbering[builder.photoPosition(.photo(identifier: identifier))!] }
        let (p1, p2, p3) = (number("p1"), number("p2"), number("p3"))
        XCTAssertTrue(p1 < p2 && p2 < p3, "the newest the highest")
        XCTAssertEqual(files["search/data/s-place-nairobi-kenya.js"], "folioData(\"s\",\"place/nairobi-kenya\",[\(p3),\(p1)]);\n")
        XCTAssertEqual(files["search/data/s-person-al.js"], "folioData(\"s\",\"person/al\",[\(p2)]);\n")
        XCTAssertEqual(files["search/data/s-favorites-nairobi-kenya.js"], "folioData(\"s\",\"favorites/nairobi-kenya\",[\(p1)]);\n")
        let pages = builder.pages()
        XCTAssertEqual(try page(pages, "places/nairobi-kenya.html").frame.sequence?.file, "search/data/s-place-nairobi-kenya.js")
        XCTAssertEqual(try page(pages, "people/al.html").frame.sequence?.title, "Al")
        for page in pages {
            guard let file = page.frame.sequence?.file else { continue }
            XCTAssertNotNil(files[file], "\(page.path) names \(file), which the build does not write")
        }
    }

    // MARK: - Listings cut into pages

    func builder(_ photos: [PhotoImport], pageSize: Int) throws -> SiteBuilder {
        let database = try GalleryDatabase.inMemory()
        try database.apply(ImportBatch(upserts: photos))
        var settings = SiteSettings()
        settings.pageSize = pageSize
        return SiteBuilder(snapshot: try database.snapshot(), media: [:], settings: settings, now: now)
    }

    func testALongListingIsCutIntoPagesNamedForTheirDays() throws {
        let builder = try builder((1...40).map { photo($0, taken: now.addingTimeInterval(-Double($0) * 86_400 * 40)) }, pageSize: 4)
        let paths = builder.routes().map(\.path).filter { $0.hasPrefix("people/josh") }
        XCTAssertEqual(paths.first, "people/josh.html")
        XCTAssertGreaterThan(paths.count, 4)
        XCTAssertEqual(builder.routes().map(\.path).filter { $0.hasPrefix("people/index") }, ["people/index.html"], "one person: one page")

        // Page after page, newest first, each photo once; each page past the first named for the
        // day of its oldest photo, its title saying its days.
        var route: Route? = .person(slug: "josh")
        var seen: [String] = []
        var previous: String?
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        while let here = route {
            let page = try XCTUnwrap(builder.page(here) as? PhotosPage, here.path)
            let shown = page.photoSections.flatMap(\.photos).map(\.identifier)
            XCTAssertTrue((2...8).contains(shown.count), "\(here.path): \(shown.count) photos")
            XCTAssertEqual(page.photoSections[0].photos.first?.eager, true, "each page's first screen loads at once")
            XCTAssertEqual(page.frame.paging?.previous, previous)
            XCTAssertNil(page.frame.paging?.number, "no page says how many there are")
            if case .person(_, let name?) = here {
                let oldest = Int(shown.last!.dropFirst())!
                XCTAssertTrue(name.hasPrefix(day.string(from: now.addingTimeInterval(-Double(oldest) * 86_400 * 40))), name)
                XCTAssertTrue(page.frame.title.hasPrefix("Josh, "), page.frame.title)
                XCTAssertNil(page.frame.subheading, "the count is the first page's")
            } else {
                XCTAssertEqual(page.frame.title, "Josh")
                XCTAssertEqual(page.frame.subheading, "40 photos")
            }
            seen += shown
            previous = here.path
            route = page.frame.paging?.next.map { next in
                XCTAssertTrue(paths.contains(next))
                return .person(slug: "josh", page: String(next.dropFirst("people/josh/".count).dropLast(".html".count)))
            }
        }
        XCTAssertEqual(seen, (1...40).map { "p\($0)" })
        XCTAssertEqual(seen.count, 40)

        let second = try XCTUnwrap(builder.page(.person(slug: "josh", page: String(paths[1].dropFirst(12).dropLast(5)))) as? PhotosPage)
        let html = try render(second)
        XCTAssertTrue(html.contains(#"<link rel="prev" href="../../people/josh.html">"#), html)
        XCTAssertTrue(html.contains(#"<link rel="stylesheet" href="../../assets/style.css">"#))
        XCTAssertNil(builder.page(.person(slug: "josh", page: "1999-01-01")))
        XCTAssertNil(try XCTUnwrap(builder.page(.person(slug: "josh")) as? PhotosPage).frame.paging?.previous)
    }

    func testAnAlbumShowsItsFoldersOnItsFirstPageThenItsPhotos() throws {
        // "library" holds five folders of one photo each, and two photos of its own.
        var photos = (1...5).map { n -> PhotoImport in
            var photo = photo(n)
            photo.photo.source = .content(path: "library/f\(n)/\(n).jpg")
            return photo
        }
        for n in 6...7 {
            var own = photo(n, taken: now.addingTimeInterval(-Double(n) * 86_400))
            own.photo.source = .content(path: "library/\(n).jpg")
            photos.append(own)
        }
        let builder = try builder(photos, pageSize: 3)
        XCTAssertEqual(builder.routes().map(\.path).filter { $0.hasPrefix("albums/library") && !$0.hasPrefix("albums/library-") },
                       ["albums/library.html"])
        let page = try XCTUnwrap(builder.page(.album(slug: "library")) as? AlbumPage)
        // A page's worth of its folders, then a link to where the Albums page lists them all.
        XCTAssertEqual(page.rows.map(\.title), ["f1", "f2", "f3"])
        XCTAssertEqual(page.rowsTitle, "Albums")
        let more = try XCTUnwrap(page.rowsMore)
        XCTAssertEqual(more.title, "All 5 albums")
        let listed = try XCTUnwrap(builder.routes().first { $0.path == more.href })
        let index = builder.routes().filter { $0.firstPage == Route.albums() }
        let from = try XCTUnwrap(index.firstIndex(of: listed))
        let rows = try index[from...].flatMap { try XCTUnwrap(builder.page($0) as? ListPage).rows.map(\.title) }
        XCTAssertEqual(Array(rows.drop { $0 != "library" }.prefix(6)), ["library", "library › f1", "library › f2", "library › f3", "library › f4", "library › f5"])
        let html = try render(page)
        XCTAssertTrue(html.contains(#"<p class="section-more"><a href="../albums/index.html">All 5 albums ›</a></p>"#), html)
        XCTAssertEqual(page.photoSections.flatMap(\.photos).map(\.identifier), ["p7", "p6"], "oldest first")
        XCTAssertEqual(page.photoSections.first?.title, "Photos", "photos after folders are said to be photos")
        XCTAssertEqual(page.frame.title, "library")
        let photoPage = try XCTUnwrap(builder.page(.photo(identifier: "p6")) as? PhotoPage)
        XCTAssertEqual(photoPage.photo.sequence?.file, "search/data/s-album-library.js", "its count among its album's own photos, from their list")
    }

    func testAPageListLeavesOutPagesFarFromThisOne() {
        let pages = Paging(.people(), number: 10, count: 40)!.pages
        XCTAssertEqual(pages.map { $0.gap ? 0 : $0.number }, [1, 0, 8, 9, 10, 11, 12, 0, 40])
        XCTAssertEqual(pages.first { $0.current }?.href, "people/index/10.html")
        XCTAssertNil(Paging(.people(), number: 1, count: 1))
    }

    func testATimeSectionCarriedOverAPageBreakSaysSo() throws {
        let day = ISO8601DateFormatter().date(from: "2025-01-02T10:00:00Z")!
        // Four photos a day: page breaks fall inside days.
        let builder = try builder((1...40).map { photo($0, taken: day.addingTimeInterval(-Double($0 / 4) * 86_400 - Double($0) * 60)) }, pageSize: 3)
        let place = Route.place(slug: "palo-alto-california-united-states")
        let routes = builder.routes().filter { $0.firstPage == place }
        let pages = try routes.map { try XCTUnwrap(builder.page($0) as? PhotosPage) }
        XCTAssertEqual(pages[0].photoSections.first?.continued, false)
        var carried = 0
        for (before, page) in zip(pages, pages.dropFirst()) {
            let sameDay = before.photoSections.last?.title == page.photoSections.first?.title
            XCTAssertEqual(page.photoSections.first?.continued, sameDay, page.path)
            XCTAssertEqual(page.photoSections.dropFirst().map(\.continued), page.photoSections.dropFirst().map { _ in false })
            if sameDay {
                carried += 1
                XCTAssertTrue(try render(page).contains(#"<span class="continued">(continued)</span>"#))
            }
        }
        XCTAssertGreaterThan(carried, 0, "some page carries on a day")
    }

    func testAPlacesIndexLongerThanAPageHasPagesPerLetter() throws {
        let builder = try builder([photo(1, at: "Amsterdam, Netherlands"), photo(2, at: "Athens, Greece"), photo(3, at: "Berlin, Germany"),
                                   photo(4, at: "Cairo, Egypt")], pageSize: 3)
        XCTAssertEqual(builder.routes().map(\.path).filter { $0.hasPrefix("places/index") },
                       ["places/index.html", "places/index/b.html", "places/index/c.html"])
        let first = try XCTUnwrap(builder.page(.places()) as? PlacesPage)
        XCTAssertEqual(first.rowSections.map(\.title), ["A"])
        XCTAssertEqual(first.letters.filter(\.present).map(\.href), ["../places/index.html", "../places/index/b.html", "../places/index/c.html"])
        let b = try XCTUnwrap(builder.page(.places(letter: "B")) as? PlacesPage)
        XCTAssertEqual(b.rowSections.flatMap(\.rows).map(\.title), ["Berlin"])
        XCTAssertEqual(b.letters.first { $0.current }?.letter, "B")
        XCTAssertEqual(b.letters.first?.href, "../../places/index.html")
        // A short index is one page, its letters leading to its own sections.
        let short = try XCTUnwrap(try self.builder([photo(1, at: "Berlin, Germany")], pageSize: 3).page(.places()) as? PlacesPage)
        XCTAssertEqual(short.letters.filter(\.present).map(\.href), ["#letter-B"])
    }

    // MARK: - What the theme's scripts need

    func render(_ page: any SitePage) throws -> String {
        let theme = try Theme.load(defaultFolder: TestSite.theme, siteFolder: nil)
        return try PageRenderer(theme: theme, settings: SiteSettings()).render(page)
    }

    func testSearchIsAPageInTheNavigationWithABoxInEveryHeader() throws {
        let pages = try builder([photo(1, title: "Sunset")]).pages()
        let search = try page(pages, "search/index.html")
        XCTAssertEqual(search.frame.section, .search)
        let html = try render(search)
        XCTAssertTrue(html.contains(#"<a href="../search/index.html" aria-current="page">Search</a>"#), html)
        XCTAssertTrue(html.contains(#"id="search-q""#))
        // One classic script per concern, the namespace first and the page's own last.
        let scripts = html.components(separatedBy: #"<script src="../assets/"#).dropFirst().map { $0.prefix { $0 != "\"" } }
        XCTAssertEqual(scripts.first, "folio.js")
        XCTAssertLessThan(try XCTUnwrap(scripts.firstIndex(of: "search.js")), try XCTUnwrap(scripts.firstIndex(of: "search-page.js")))
        XCTAssertTrue(html.contains(#"<script src="../assets/search.js" defer></script>"#))
        // folio.js loads the same list for a site whose own layout.mustache names it alone.
        let folio = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../templates/assets/folio.js").standardizedFileURL, encoding: .utf8)
        let listed = try XCTUnwrap(folio.components(separatedBy: "var SCRIPTS = [").dropFirst().first?.components(separatedBy: "]").first)
            .components(separatedBy: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { $0.element + ".js" }
        XCTAssertEqual(scripts.map(String.init), ["folio.js"] + listed)
        let home = try render(try page(pages, "index.html"))
        XCTAssertTrue(home.contains(#"<form class="site-search" role="search" action="search/index.html">"#))
        XCTAssertFalse(home.contains("hero-search"), "one search box on the home page: the header's")
        XCTAssertTrue(home.contains(#"data-root="""#))
    }

    func testAPhotoPageCarriesWhatTheViewerNeeds() throws {
        let database = try GalleryDatabase.inMemory()
        try database.apply(ImportBatch(upserts: [PhotoImport(source: .content(path: "1.jpg"), identifier: "p1", title: "Big", person: "Josh",
                                                             uploaded: now, width: 6000, height: 4000, checksum: "c1")]))
        let snapshot = try database.snapshot()
        let zoom = TilePyramid(width: 6000, height: 4000, tileSize: 256, overlap: 1, format: "jpg", minLevel: 11, maxLevel: 13,
                               tilesBase: "media/tiles/c1-abc/")
        let screens = RenditionFiles(files: [
            RenditionFiles.File(path: "media/c1-screen.jpg", width: 1600, height: 1067),
            RenditionFiles.File(path: "media/c1-w800.jpg", width: 800, height: 533),
        ], format: .jpeg)
        let none = RenditionFiles(files: [], format: .jpeg)
        let media = [snapshot.photos[0].photo.id: PhotoMedia(thumbnails: none, screens: screens, tiles: zoom)]
        let pages = SiteBuilder(snapshot: snapshot, media: media, settings: SiteSettings(), now: now).pages()
        let detail = try page(pages, "photos/p1.html", as: PhotoPage.self).photo
        XCTAssertEqual([detail.originalWidth, detail.originalHeight], [6000, 4000])
        XCTAssertEqual(detail.fillSizes, "(min-aspect-ratio: 6000/4000) 100vw, 150vh")
        let html = try render(try page(pages, "photos/p1.html"))
        XCTAssertTrue(html.contains(#"data-width="6000" data-height="4000" data-tiles="../media/tiles/c1-abc/" data-pyramid=""#), html)
        // The grid, as one JSON value the viewer and the browser tests read (they work nothing out).
        let attribute = try XCTUnwrap(html.components(separatedBy: #"data-pyramid=""#).dropFirst().first?.components(separatedBy: "\"").first)
        let descriptor = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(attribute.replacingOccurrences(of: "&quot;", with: "\"").utf8)) as? [String: Any])
        XCTAssertEqual(descriptor["tileSize"] as? Int, 256)
        XCTAssertEqual(descriptor["overlap"] as? Int, 1)
        XCTAssertEqual(descriptor["format"] as? String, "jpg")
        XCTAssertEqual(descriptor["minLevel"] as? Int, 11)
        XCTAssertEqual(descriptor["maxLevel"] as? Int, 13)
        let levels = try XCTUnwrap(descriptor["levels"] as? [[String: Int]])
        XCTAssertEqual(levels, [
            ["level": 11, "width": 1500, "height": 1000, "columns": 6, "rows": 4],
            ["level": 12, "width": 3000, "height": 2000, "columns": 12, "rows": 8],
            ["level": 13, "width": 6000, "height": 4000, "columns": 24, "rows": 16],
        ])
        XCTAssertTrue(html.contains(#"srcset="../media/c1-w800.jpg 800w, ../media/c1-screen.jpg 1600w" sizes="(min-aspect-ratio: 6000/4000) 100vw, 150vh""#), html)
        XCTAssertTrue(html.contains(#"<script src="../assets/viewer.js" defer></script>"#))
        XCTAssertTrue(html.contains(#"<button class="favorite-toggle" type="button" aria-pressed="false" hidden>"#))
        // Without tiles, the figure says nothing of them and the viewer keeps to the screen rendition.
        let plain = SiteBuilder(snapshot: snapshot, media: [snapshot.photos[0].photo.id: PhotoMedia(thumbnails: none, screens: screens)],
                                settings: SiteSettings(), now: now).pages()
        XCTAssertFalse(try render(try page(plain, "photos/p1.html")).contains("data-tiles"))
    }

    func testAPlacesFavoritesPageNamesItsPlaceForTheVisitorsOwn() throws {
        let pages = try builder([photo(1, at: "Palo Alto, California, United States", favorite: true)]).pages()
        let there = try page(pages, "favorites/palo-alto-california-united-states.html", as: PhotosPage.self)
        XCTAssertEqual(there.frame.placeSlug, "palo-alto-california-united-states")
        XCTAssertTrue(try render(there).contains(#"data-place="palo-alto-california-united-states""#))
        XCTAssertNil(try page(pages, "favorites/index.html").frame.placeSlug)
    }
}

extension SiteBuilder {
    /// Every page of the site, made at once: small test sites only (a build makes them a chunk at a time).
    func pages() -> [any SitePage] {
        listingRoutes().compactMap { page($0) } + photoPageOrder().compactMap { page(route(of: ordered[Int($0)]), photo: Int($0)) }
    }
}

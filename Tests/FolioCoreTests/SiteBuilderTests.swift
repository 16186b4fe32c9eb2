import Foundation
import XCTest
@testable import FolioCore

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

    func page(_ pages: [Page], _ path: String) throws -> Page {
        try XCTUnwrap(pages.first { $0.path == path }, "no page \(path)")
    }

    func testTitleFallsBackToDescriptionThenUnknown() throws {
        let pages = try builder([
            photo(1, title: "Sunset", description: "Over the bay"),
            photo(2, description: "Only a description"),
            photo(3),
            photo(4, title: "Same", description: "Same"),
        ]).pages()
        let cards = try page(pages, "recents/index.html").photoSections![0].photos
        let byId = Dictionary(uniqueKeysWithValues: cards.map { ($0.identifier, $0) })
        XCTAssertEqual(byId["p1"]?.title, "Sunset")
        XCTAssertEqual(byId["p1"]?.subtitle, "Over the bay")
        XCTAssertEqual(byId["p2"]?.title, "Only a description")
        XCTAssertNil(byId["p2"]?.subtitle)
        XCTAssertEqual(byId["p3"]?.title, "Unknown")
        XCTAssertNil(byId["p3"]?.subtitle)
        XCTAssertNil(byId["p4"]?.subtitle)
        XCTAssertEqual(try page(pages, "photos/p3.html").photo?.title, "Unknown")
    }

    func testPlacesAreAlphabeticalByTitleInLetterSections() throws {
        let pages = try builder([
            photo(1, at: "Zurich, Switzerland"), photo(2, at: "Amsterdam, Netherlands"),
            photo(3, at: "Éze, Provence, France"), photo(4, at: "athens, Greece"), photo(5, at: "10 Downing Street, London, United Kingdom"),
        ]).pages()
        let places = try page(pages, "places/index.html")
        XCTAssertEqual(places.rowSections!.map(\.title), ["A", "E", "Z", "#"])
        XCTAssertEqual(places.rowSections![0].rows.map(\.title), ["Amsterdam", "athens"])
        XCTAssertEqual(places.rowSections![1].rows[0].subtitle, "Provence, France")
        XCTAssertEqual(places.letters!.filter(\.present).map(\.letter), ["A", "E", "Z", "#"])
        XCTAssertEqual(places.letters!.count, 27)
    }

    func testAPlaceListsNewestFirstInSectionsHoursAgoThenByDate() throws {
        let pages = try builder([
            photo(1, taken: now.addingTimeInterval(-30 * 60)),
            photo(2, taken: now.addingTimeInterval(-5 * 3600)),
            photo(3, taken: now.addingTimeInterval(-5.5 * 3600)),
            photo(4, taken: ISO8601DateFormatter().date(from: "2026-11-20T09:00:00Z")),
            photo(5, taken: ISO8601DateFormatter().date(from: "2025-01-02T09:00:00Z")),
        ]).pages()
        let place = try page(pages, "places/palo-alto-california-united-states.html")
        XCTAssertEqual(place.photoSections!.map(\.title), ["Within the last hour", "5 hours ago", "20 November 2026", "2 January 2025"])
        XCTAssertEqual(place.photoSections!.flatMap(\.photos).map(\.identifier), ["p1", "p2", "p3", "p4", "p5"])
    }

    func testTopRegionsSaySoManyPhotographers() throws {
        let pages = try builder([
            photo(1, by: "Josh", at: "Palo Alto, California, United States"),
            photo(2, by: "Al", at: "San Jose, California, United States"),
            photo(3, by: "Al", at: "Nairobi, Kenya"),
        ]).pages()
        let regions = try page(pages, "regions/index.html")
        XCTAssertEqual(regions.rows!.map(\.title), ["California", "Kenya"])
        XCTAssertEqual(regions.rows!.map(\.subtitle), ["2 photographers", "1 photographer"])
        XCTAssertEqual(try page(pages, "regions/california.html").photoSections![0].photos.count, 2)
    }

    func testPeopleAreAlphabeticalWithCounts() throws {
        let pages = try builder([photo(1, by: "josh"), photo(2, by: "Al"), photo(3, by: "Al"), photo(4, by: "Zoë")]).pages()
        let people = try page(pages, "people/index.html")
        XCTAssertEqual(people.rows!.map(\.title), ["Al", "josh", "Zoë"])
        XCTAssertEqual(people.rows!.map(\.subtitle), ["2 photos", "1 photo", "1 photo"])
    }

    func testFavoritesListPlacesWithFavoritesAndTheSwitch() throws {
        let pages = try builder([
            photo(1, at: "Palo Alto, California, United States", favorite: true),
            photo(2, at: "Palo Alto, California, United States"),
            photo(3, at: "Nairobi, Kenya"),
        ]).pages()
        let only = try page(pages, "favorites/index.html")
        XCTAssertEqual(only.rows!.map(\.title), ["Palo Alto"])
        XCTAssertEqual(only.favoritesSwitch?.onlyFavorites, true)
        let all = try page(pages, "favorites/all.html")
        XCTAssertEqual(all.rows!.map(\.title), ["Nairobi", "Palo Alto"])
        XCTAssertEqual(all.favoritesSwitch?.onlyFavorites, false)
        let there = try page(pages, only.rows![0].href)
        XCTAssertEqual(there.photoSections![0].photos.map(\.identifier), ["p1"])
    }

    func testPhotoPagesLinkPreviousAndNextInNewestFirstOrder() throws {
        let pages = try builder([photo(1, taken: now.addingTimeInterval(-300)), photo(2, taken: now.addingTimeInterval(-200)),
                                 photo(3, taken: now.addingTimeInterval(-100))]).pages()
        let middle = try page(pages, "photos/p2.html").photo!
        XCTAssertEqual(middle.previous?.href, "photos/p3.html")
        XCTAssertEqual(middle.next?.href, "photos/p1.html")
        XCTAssertNil(try page(pages, "photos/p3.html").photo!.previous)
        XCTAssertEqual(middle.facts.map(\.label), ["Photographer", "Place", "Region", "Taken", "Added", "Size"])
    }

    // MARK: - What the theme's scripts need

    func render(_ page: Page) throws -> String {
        let theme = try Theme.load(defaultFolder: TestSite.theme, siteFolder: nil)
        return try PageRenderer(theme: theme, settings: SiteSettings()).render(page)
    }

    func testSearchIsAPageInTheNavigationWithABoxInEveryHeader() throws {
        let pages = try builder([photo(1, title: "Sunset")]).pages()
        let search = try page(pages, "search/index.html")
        XCTAssertEqual(search.section, .search)
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
        XCTAssertTrue(home.contains(#"<form class="hero-search" role="search" action="search/index.html">"#))
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
        let media = [snapshot.photos[0].photo.id!: PhotoMedia(thumbnails: none, screens: screens, tiles: zoom)]
        let pages = SiteBuilder(snapshot: snapshot, media: media, settings: SiteSettings(), now: now).pages()
        let detail = try XCTUnwrap(try page(pages, "photos/p1.html").photo)
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
        let plain = SiteBuilder(snapshot: snapshot, media: [snapshot.photos[0].photo.id!: PhotoMedia(thumbnails: none, screens: screens)],
                                settings: SiteSettings(), now: now).pages()
        XCTAssertFalse(try render(try page(plain, "photos/p1.html")).contains("data-tiles"))
    }

    func testAPlacesFavoritesPageNamesItsPlaceForTheVisitorsOwn() throws {
        let pages = try builder([photo(1, at: "Palo Alto, California, United States", favorite: true)]).pages()
        let there = try page(pages, "favorites/palo-alto-california-united-states.html")
        XCTAssertEqual(there.placeSlug, "palo-alto-california-united-states")
        XCTAssertTrue(try render(there).contains(#"data-place="palo-alto-california-united-states""#))
        XCTAssertNil(try page(pages, "favorites/index.html").placeSlug)
    }
}

@testable import FolioCore
@testable import FolioModel
@testable import FolioPipeline
@testable import FolioSite
import FolioChanges
import FolioTestSupport
import Foundation
import XCTest

/// The Map and the smaller maps: where the projection puts places, how coordinates are rounded
/// and centred, which sites have a map, what its markers say, and that no photo's own GPS is
/// published. The browser tests (Tests/Browser/test_map.py) check the drawn map itself.
final class MapTests: XCTestCase {
    let now = ISO8601DateFormatter().date(from: "2026-11-22T12:00:00Z")!

    func builder(_ photos: [PhotoImport], settings: SiteSettings = SiteSettings()) throws -> SiteBuilder {
        let database = try GalleryDatabase.inMemory()
        try database.apply(ImportBatch(upserts: photos))
        return SiteBuilder(snapshot: try database.snapshot(), media: [:], settings: settings, now: now, basemap: "media/world-test.svg")
    }

    func photo(_ n: Int, at place: String? = "Palo Alto, California, United States", region: String? = nil,
               latitude: Double? = nil, longitude: Double? = nil) -> PhotoImport {
        PhotoImport(source: .content(path: "\(n).jpg"), identifier: "p\(n)", title: "Photo \(n)", person: "Josh", place: place,
                    region: region, uploaded: Date(timeIntervalSince1970: Double(n)), width: 4, height: 3, checksum: "c\(n)",
                    latitude: latitude, longitude: longitude)
    }

    /// The Natural Earth projection written out term by term as its authors publish it, apart
    /// from the factored form `MapProjection` computes.
    func published(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
        let x = lambda * (0.870700 - 0.131979 * pow(phi, 2) - 0.013791 * pow(phi, 4) + 0.003971 * pow(phi, 10) - 0.001529 * pow(phi, 12))
        let y = phi * (1.007226 + 0.015085 * pow(phi, 2) - 0.044475 * pow(phi, 6) + 0.028874 * pow(phi, 8) - 0.005916 * pow(phi, 10))
        let scale = 1000 / (2 * .pi * 0.870700)
        let pole = Double.pi / 2
        let top = pole * (1.007226 + 0.015085 * pow(pole, 2) - 0.044475 * pow(pole, 6) + 0.028874 * pow(pole, 8) - 0.005916 * pow(pole, 10))
        return (500 + x * scale, top * scale - y * scale)
    }

    func testTheProjectionPutsPlacesWhereItsPublishedFormulaDoes() {
        for (latitude, longitude) in [(64.1466, -21.9426), (-33.8688, 151.2093), (-0.1807, -78.4678), (78.2232, 15.6267),
                                      (-77.85, 166.67), (0, 0), (90, 180), (-90, -180)] {
            let (x, y) = MapProjection.point(latitude: latitude, longitude: longitude)
            let expected = published(latitude: latitude, longitude: longitude)
            XCTAssertEqual(x, expected.x, accuracy: 1e-9, "\(latitude), \(longitude)")
            XCTAssertEqual(y, expected.y, accuracy: 1e-9, "\(latitude), \(longitude)")
        }
        XCTAssertEqual(MapProjection.point(latitude: 0, longitude: 0).x, 500, accuracy: 1e-9)
        XCTAssertEqual(MapProjection.point(latitude: 0, longitude: 180).x, 1000, accuracy: 1e-9)
        XCTAssertEqual(MapProjection.point(latitude: 90, longitude: 0).y, 0, accuracy: 1e-9)
        XCTAssertEqual(MapProjection.point(latitude: -90, longitude: 0).y, MapProjection.height, accuracy: 1e-9)
        // The world is about 1.92 times as wide as it is high in this projection.
        XCTAssertEqual(MapProjection.width / MapProjection.height, 1.923, accuracy: 0.001)
    }

    func testLongitudesPastTheAntimeridianComeRoundAndLatitudesStayOnTheEarth() {
        XCTAssertEqual(MapProjection.wrapped(190), -170)
        XCTAssertEqual(MapProjection.wrapped(-190), 170)
        XCTAssertEqual(MapProjection.wrapped(540), 180)
        XCTAssertEqual(MapProjection.wrapped(-180), -180)
        XCTAssertEqual(MapProjection.wrapped(.nan), 0)
        let past = MapProjection.point(latitude: 10, longitude: 181)
        let before = MapProjection.point(latitude: 10, longitude: -179)
        XCTAssertEqual(past.x, before.x, accuracy: 1e-9)
        XCTAssertEqual(MapProjection.point(latitude: 95, longitude: 3).y, 0, accuracy: 1e-9)
    }

    func testCoordinatesAreRoundedToAGridAsWideAsTheSiteSays() {
        let exact = (latitude: 48.858370, longitude: 2.294481)
        let rounded = MapCoordinate.rounded(latitude: exact.latitude, longitude: exact.longitude, kilometres: 1)
        XCTAssertNotEqual(rounded.latitude, exact.latitude)
        let step = 1 / 111.32
        XCTAssertEqual((rounded.latitude / step).rounded() * step, rounded.latitude, accuracy: 1e-6, "a whole number of steps")
        // Within half a step either way: about half a kilometre north-south and east-west.
        XCTAssertLessThanOrEqual(abs(rounded.latitude - exact.latitude) * 111.32, 0.5 + 1e-6)
        XCTAssertLessThanOrEqual(abs(rounded.longitude - exact.longitude) * 111.32 * cos(rounded.latitude * .pi / 180), 0.5 + 1e-3)
        let coarse = MapCoordinate.rounded(latitude: exact.latitude, longitude: exact.longitude, kilometres: 50)
        XCTAssertGreaterThan(abs(coarse.latitude - exact.latitude) + abs(coarse.longitude - exact.longitude), 0.01)
        let kept = MapCoordinate.rounded(latitude: exact.latitude, longitude: exact.longitude, kilometres: 0)
        XCTAssertEqual(kept.latitude, exact.latitude)
        XCTAssertEqual(kept.longitude, exact.longitude)
        // At the pole, a longitude says nothing more.
        XCTAssertEqual(MapCoordinate.rounded(latitude: 89.9999, longitude: 123, kilometres: 1).latitude, 90, accuracy: 0.01)
    }

    func testAPlaceAcrossTheAntimeridianIsCentredThereNotOnTheFarSideOfTheEarth() {
        var centre = MapCoordinate.Centre()
        centre.add(latitude: -16.5, longitude: 179.9)
        centre.add(latitude: -16.5, longitude: -179.9)
        let middle = try! XCTUnwrap(centre.median())
        XCTAssertEqual(abs(middle.longitude), 180, accuracy: 1e-6)
        XCTAssertEqual(middle.latitude, -16.5, accuracy: 0.01)
        var poles = MapCoordinate.Centre()
        poles.add(latitude: 90, longitude: 0)
        poles.add(latitude: -90, longitude: 0)
        XCTAssertNil(poles.median(), "two points that cancel out have no centre")
        var nothing = MapCoordinate.Centre()
        nothing.add(latitude: .nan, longitude: 3)
        XCTAssertNil(nothing.median())
        var one = MapCoordinate.Centre()
        one.add(latitude: 37.4419, longitude: -122.143)
        let alone = try! XCTUnwrap(one.median())
        XCTAssertEqual(alone.latitude, 37.4419, accuracy: 1e-9, "a place of one photo is where it is")
        XCTAssertEqual(alone.longitude, -122.143, accuracy: 1e-9)
    }

    /// The median, found by selection, is the sort's middle value (of an even count, the mean of
    /// the middle two), whatever the order and however many values are the same.
    func testTheMedianIsTheMiddleOfTheSortedValues() {
        var random = SplitMix64(0x3ED1A4)
        for count in [1, 2, 3, 4, 5, 8, 13, 100, 101, 1000] {
            for round in 0..<20 {
                let spread = round % 3 == 0 ? 4 : 1_000_000
                var values = (0..<count).map { _ in Double(random.next() % UInt64(spread)) / 7 }
                let sorted = values.sorted()
                let expected = count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
                XCTAssertEqual(MapCoordinate.Centre.median(&values), expected, "\(count) values, round \(round)")
                XCTAssertEqual(values.sorted(), sorted, "the same values, reordered")
            }
        }
    }

    /// A place is where most of its photos are: one photo whose GPS is a continent away (or
    /// filed under the place by mistake, then corrected) does not move it on the map, nor the
    /// marker every photo page of the place shows.
    func testAStrayPhotoDoesNotMoveItsPlace() throws {
        let town = (0..<11).map { photo($0, latitude: 37.44 + Double($0) * 0.0001, longitude: -122.14 - Double($0) * 0.0001) }
        let before = try builder(town)
        let after = try builder(town + [photo(11, latitude: 64.1466, longitude: -21.9426)])
        let place = try XCTUnwrap(before.index.places.first)
        let centre = try XCTUnwrap(before.index.coordinates[place.id])
        XCTAssertEqual(after.index.coordinates[place.id], centre, "the same place on the map")
        XCTAssertEqual(centre.latitude, 37.4405, accuracy: 0.01)
        XCTAssertEqual(centre.longitude, -122.1405, accuracy: 0.02)
        let photo3 = try XCTUnwrap(after.ordered.first { $0.identifier == "p3" })
        XCTAssertEqual(after.locatorCoordinate(photo3), centre, "a photo page of the place, its locator where it was")
    }

    func testAGalleryWithoutCoordinatesHasNoMapAndNoMapLink() throws {
        let site = try builder([photo(1), photo(2, at: nil)])
        XCTAssertFalse(site.routes().contains(.map))
        XCTAssertNil(site.page(.map))
        let home = try XCTUnwrap(site.page(.home))
        XCTAssertFalse(home.frame.hasMap)
        let renderer = PageRenderer(theme: try Theme.load(defaultFolder: TestSite.theme, siteFolder: nil), settings: SiteSettings())
        let html = try renderer.render(home)
        XCTAssertFalse(html.contains("map/index.html"), "no link to a map that is not there")
        XCTAssertTrue(html.contains("regions/index.html"))
        XCTAssertNil((site.page(.place(slug: "palo-alto-california-united-states")) as? PhotosPage)?.map)
        XCTAssertNil(site.mapData())
    }

    func testTheSettingHidesTheMapAltogether() throws {
        var settings = SiteSettings()
        settings.map = false
        let site = try builder([photo(1, latitude: 37.44, longitude: -122.14)], settings: settings)
        XCTAssertFalse(site.routes().contains(.map))
        XCTAssertFalse(try XCTUnwrap(site.page(.home)).frame.hasMap)
        XCTAssertNil((site.page(.photo(identifier: "p1")) as? PhotoPage)?.map)
        XCTAssertNil(site.mapData())
    }

    func testTheMapIsInTheNavigationAndItsMarkersArePlacesLinksNamedInWords() throws {
        let site = try builder([
            photo(1, latitude: 37.4419, longitude: -122.1430), photo(2, latitude: 37.4420, longitude: -122.1431),
            photo(3, at: "Reykjavík, Capital Region, Iceland", region: "Iceland", latitude: 64.1466, longitude: -21.9426),
            photo(4, at: "Nowhere Known"),
        ])
        XCTAssertTrue(site.routes().contains(.map))
        let map = try XCTUnwrap(site.page(.map) as? MapPage)
        XCTAssertTrue(map.frame.hasMap)
        XCTAssertEqual(map.places.map(\.title), ["Palo Alto", "Reykjavík"], "most photos first; a place without GPS is not on it")
        XCTAssertEqual(map.places.map(\.photos), ["2 photos", "1 photo"])
        XCTAssertTrue(map.map.svg.contains(#"href="../places/palo-alto-california-united-states.html" aria-label="Palo Alto, California, United States: 2 photos""#),
                      map.map.svg)
        XCTAssertTrue(map.map.svg.contains(#"aria-label="Reykjavík, Capital Region, Iceland: 1 photo""#))
        XCTAssertTrue(map.map.svg.contains(#"href="../media/world-test.svg""#))
        let reykjavik = MapCoordinate.rounded(latitude: 64.1466, longitude: -21.9426, kilometres: 1)
        XCTAssertTrue(map.map.svg.contains(#"cx="\#(MapFigure.number(reykjavik.x))" cy="\#(MapFigure.number(reykjavik.y))""#),
                      "the marker where the projection puts it")
        XCTAssertEqual(map.mapData, site.mapData()?.path)
        XCTAssertTrue(try XCTUnwrap(map.mapData).hasPrefix("media/map-places-"))
        // The place's page and a photo's page show where it is; the region's its places.
        let place = try XCTUnwrap(site.page(.place(slug: "palo-alto-california-united-states")) as? PhotosPage)
        XCTAssertEqual(place.map?.kind, "locator")
        XCTAssertTrue(try XCTUnwrap(place.map).svg.contains(#"href="../places/palo-alto-california-united-states.html""#))
        let photoPage = try XCTUnwrap(site.page(.photo(identifier: "p3")) as? PhotoPage)
        XCTAssertEqual(photoPage.map?.kind, "locator")
        let region = try XCTUnwrap(site.page(.region(slug: "iceland")) as? PhotosPage)
        XCTAssertEqual(region.map?.kind, "region")
        XCTAssertTrue(try XCTUnwrap(region.map).svg.contains("Reykjavík"))
    }

    func testNoPhotosOwnPositionIsPublished() throws {
        let site = try builder([photo(1, latitude: 37.441883, longitude: -122.143019)])
        let exact = MapProjection.point(latitude: 37.441883, longitude: -122.143019)
        let shown = try XCTUnwrap(site.index.coordinates.values.first)
        XCTAssertNotEqual(shown.latitude, 37.441883)
        XCTAssertLessThan(abs(shown.latitude - 37.441883) * 111.32, 0.51, "but within half a kilometre")
        let renderer = PageRenderer(theme: try Theme.load(defaultFolder: TestSite.theme, siteFolder: nil), settings: SiteSettings())
        var published = try XCTUnwrap(site.mapData()).data
        for route in site.routes() {
            published += Data(try renderer.render(try XCTUnwrap(site.page(route))).utf8)
        }
        let text = String(decoding: published, as: UTF8.self)
        XCTAssertEqual(shown.x, exact.x, accuracy: 0.05, "the place's marker is where its photo was taken, to a kilometre")
        for secret in ["37.441883", "37.44188", "122.143019", "122.14302"] {
            XCTAssertFalse(text.contains(secret), "\(secret) published")
        }
    }

    func testAPhotosPageIsDrawnAgainWhenAnotherPhotoMovesItsPlace() throws {
        let before = try builder([photo(1, latitude: 10, longitude: 10), photo(2, latitude: 10, longitude: 10)])
        let after = try builder([photo(1, latitude: 10, longitude: 10), photo(2, latitude: 30, longitude: 10)])
        XCTAssertNotEqual(before.key(.photo(identifier: "p1")), after.key(.photo(identifier: "p1")))
        XCTAssertNotEqual(before.key(.place(slug: "palo-alto-california-united-states")),
                          after.key(.place(slug: "palo-alto-california-united-states")))
        XCTAssertNotEqual(before.key(.map), after.key(.map))
        // Another photo of the place, where the others are: its locator is as it was (no count on it).
        let more = try builder([photo(1, latitude: 10, longitude: 10), photo(2, latitude: 10, longitude: 10), photo(3, latitude: 10, longitude: 10)])
        XCTAssertEqual(before.key(.photo(identifier: "p1")), more.key(.photo(identifier: "p1")))
        XCTAssertFalse(try XCTUnwrap((more.page(.photo(identifier: "p1")) as? PhotoPage)?.map).svg.contains("photos"))
        let none = try builder([photo(1), photo(2)])
        XCTAssertNotEqual(none.key(.photo(identifier: "p1")), try builder([photo(1), photo(2, at: "Elsewhere", latitude: 1, longitude: 1)])
            .key(.photo(identifier: "p1")), "the first coordinates anywhere bring the Map link to every page")
    }

    func testMarkersThatWouldOverlapAreOneClusterLedByThePlaceWithTheMostPhotos() {
        func pin(_ x: Double, _ photos: Int, _ name: String) -> MapFigure.Pin {
            var coordinate = MapCoordinate(latitude: 0, longitude: 0)
            coordinate.x = x
            coordinate.y = 100
            return MapFigure.Pin(coordinate: coordinate, photos: photos, title: name, subtitle: "", name: name, slug: name, href: "places/\(name).html")
        }
        let clusters = MapFigure.clusters([pin(100, 1, "a"), pin(105, 9, "b"), pin(300, 2, "c"), pin(112, 3, "d")], radius: 14)
        XCTAssertEqual(clusters.map(\.lead.title), ["b", "c"])
        XCTAssertEqual(clusters[0].pins.map(\.title), ["b", "d", "a"])
        XCTAssertEqual(clusters[0].photos, 13)
        XCTAssertEqual(MapFigure.name(clusters[0], .defaultTheme), "b and 2 more places: 13 photos")
        XCTAssertEqual(MapFigure.name(clusters[1], .defaultTheme), "c: 2 photos")
        XCTAssertEqual(MapFigure.clusters([pin(100, 1, "a"), pin(105, 9, "b")], radius: 0).count, 2)
    }

    func testTheThemesBasemapIsTheWorldAndABrokenOneIsNamedByFileAndLine() throws {
        let text = try String(contentsOf: TestSite.theme.appendingPathComponent(WorldBasemap.source), encoding: .utf8)
        let basemap = try WorldBasemap(text: text)
        let svg = String(decoding: basemap.svg, as: UTF8.self)
        XCTAssertTrue(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1000 "))
        XCTAssertGreaterThan(svg.components(separatedBy: "M").count, 250, "every country's rings")
        XCTAssertLessThan(basemap.svg.count, 150_000)
        XCTAssertTrue(basemap.path.hasPrefix("media/world-") && basemap.path.hasSuffix(".svg"))
        XCTAssertEqual(try WorldBasemap(text: text).path, basemap.path, "named by its content")
        XCTAssertThrowsError(try WorldBasemap(text: "# a comment\n10 10 5 5 -5\n", named: "templates/map/world.txt")) { error in
            XCTAssertEqual((error as? FolioError)?.path, "templates/map/world.txt")
            XCTAssertTrue("\(error)".contains("line 2"), "\(error)")
        }
        XCTAssertThrowsError(try WorldBasemap(text: "# nothing\n"))
        XCTAssertEqual(WorldBasemap.number(-5), "-.5")
        XCTAssertEqual(WorldBasemap.number(123), "12.3")
        XCTAssertEqual(WorldBasemap.signed(40), " 4")
        XCTAssertEqual(MapFigure.number(12.34), "12.3")
    }

    /// A whole build: the basemap and the places' script beside the pages, named by their content;
    /// an unlisted album's places nowhere on the listed site's maps, and its pages' navigation
    /// linking the listed site's Map.
    func testABuildPublishesTheMapsFilesAndKeepsUnlistedPlacesOffIt() async throws {
        let site = try TestSite()
        try site.write(try TestInputs.photo(1), to: "content/trips/harbour.jpg")
        try site.write(try TestInputs.photo(2), to: "content/trips/family/secretparty.jpg")
        try site.write(TestInputs.plist(["title": "Hushfamily", "unlisted": true]), to: "content/trips/family/album.plist")
        try site.catalog("c.plist", [
            ["path": "trips/harbour.jpg", "name": "Harbour", "user": "Ana", "place": "Reykjavík, Capital Region, Iceland",
             "latitude": 64.1466, "longitude": -21.9426],
            ["path": "trips/family/secretparty.jpg", "name": "Party", "user": "Ana", "place": "Hushville, Nowhere",
             "latitude": 10.5, "longitude": 20.5],
        ])
        let report = try await site.build()
        XCTAssertEqual(report.issues.map(\.description), [])
        let files = try LocalFileAccess().files(under: site.publicFolder)
        let basemaps = files.filter { $0.hasPrefix("media/world-") && $0.hasSuffix(".svg") }
        let scripts = files.filter { $0.hasPrefix("media/map-places-") && $0.hasSuffix(".js") }
        XCTAssertEqual(basemaps.count, 1, "\(files)")
        XCTAssertEqual(scripts.count, 1, "\(files)")
        let map = try site.read("map/index.html")
        XCTAssertTrue(map.contains(#"href="../\#(basemaps[0])""#))
        XCTAssertTrue(map.contains(#"data-places="../\#(scripts[0])""#))
        XCTAssertTrue(map.contains("Reykjavík, Capital Region, Iceland: 1 photo"))
        for text in [map, try site.read(scripts[0])] {
            XCTAssertFalse(text.contains("Hushville"), "an unlisted album's place is on the listed map")
        }
        let link = try XCTUnwrap(report.unlisted.first?.link)
        XCTAssertTrue(try site.read(link).contains(#"map/index.html""#), "the unlisted album's navigation links the Map")
        let unlistedPages = files.filter { $0.hasPrefix("unlisted/") && $0.hasSuffix(".html") }
        XCTAssertEqual(unlistedPages.count, 2, "its album and its photo")
        for page in unlistedPages {
            XCTAssertFalse(try site.read(page).contains(#"<figure class="map "#), "\(page) shows where its photo was taken")
        }
    }

    /// A place moved changes the map's script: the new one is published and the old one goes,
    /// deleted by its name (`MediaInUse.stale`), not found by a look at every media file; and
    /// when no photo says where it was taken any more, the map's files all go.
    func testAPlaceMovedReplacesTheMapsScriptAndTheOldOneGoesByName() async throws {
        let site = try TestSite()
        try site.write(try TestInputs.photo(1), to: "content/harbour.jpg")
        try site.write(try TestInputs.photo(2), to: "content/pier.jpg")
        func catalog(_ latitude: Double?) throws {
            let harbour: [String: Any] = ["path": "harbour.jpg", "name": "Harbour", "user": "Ana", "place": "Reykjavík, Iceland"]
            let pier: [String: Any] = ["path": "pier.jpg", "name": "Pier", "user": "Ana", "place": "Oslo, Norway"]
            guard let latitude else { return try site.catalog("c.plist", [harbour, pier]) }
            try site.catalog("c.plist", [harbour.merging(["latitude": latitude, "longitude": -21.9426]) { $1 },
                                         pier.merging(["latitude": 59.9, "longitude": 10.7]) { $1 }])
        }
        func scripts() throws -> [String] {
            try LocalFileAccess().files(under: site.publicFolder).filter { $0.hasPrefix("media/map-places-") }
        }
        try catalog(64.1466)
        try await site.build()
        let first = try scripts()
        XCTAssertEqual(first.count, 1)
        for (round, latitude) in [40.5, 12.25, 64.1466].enumerated() {
            try catalog(latitude)
            let report = try await site.build()
            XCTAssertEqual(report.issues.map(\.description), [])
            let now = try scripts()
            XCTAssertEqual(now.count, 1, "round \(round): \(now)")
            XCTAssertTrue(try site.read("map/index.html").contains(#"data-places="../\#(now[0])""#))
            XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [], "round \(round)")
        }
        XCTAssertEqual(try scripts(), first, "back where it was, named as it was")
        try catalog(nil)
        try await site.build()
        let left = try LocalFileAccess().files(under: site.publicFolder).filter { $0.hasPrefix("media/map-") || $0.hasPrefix("media/world-") }
        XCTAssertEqual(left, [], "no map, none of its files")
        XCTAssertFalse(site.exists("map/index.html"))

        // The last build's map files that this one does not publish, by name.
        let files = ["media/world-ba9876543210.svg", "media/map-places-0123456789ab.js"]
        var trees = TreeLedger(pages: "p", next: "n", differing: [], inUse: 7, others: files.sorted())
        XCTAssertEqual(MediaInUse.stale(files, since: trees), [])
        trees.others = ["media/map-places-000000000000.js", "media/world-ba9876543210.svg"]
        XCTAssertEqual(MediaInUse.stale(files, since: trees), ["media/map-places-000000000000.js"])
        XCTAssertEqual(MediaInUse.stale([], since: trees), trees.others, "a site whose map is gone")
        trees.others = nil
        XCTAssertEqual(MediaInUse.stale(files, since: trees), [], "not known: every media name is looked at instead")
    }

    /// The size the issue sets: at 100,000 photos in 4,000 places the Map page stays under 500 KB
    /// (and under the 300 KB every page keeps to); the places' script is apart, and cached.
    func testTheMapOfALargeLibraryStaysLight() throws {
        var photos: [PhotoImport] = []
        var random = SplitMix64(26)
        for n in 0..<100_000 {
            let place = Int(pow(Double(random.next() % 10_000) / 10_000, 2.5) * 4_000) % 4_000
            let latitude = Double(place % 160) - 80 + Double(place / 160) * 0.03
            let longitude = Double((place * 37) % 360) - 180
            photos.append(photo(n, at: "Town \(place), Region \(place % 100), Country \(place % 12)", region: "Region \(place % 100)",
                                latitude: latitude, longitude: longitude))
        }
        let site = try builder(photos)
        let renderer = PageRenderer(theme: try Theme.load(defaultFolder: TestSite.theme, siteFolder: nil), settings: SiteSettings())
        let start = Date()
        let map = try XCTUnwrap(site.page(.map) as? MapPage)
        let html = try renderer.render(map)
        let seconds = Date().timeIntervalSince(start)
        XCTAssertGreaterThan(map.frame.subheading?.count ?? 0, 0)
        XCTAssertGreaterThan(site.index.coordinates.count, 3_000)
        XCTAssertEqual(map.places.count, SiteBuilder.mapListLimit)
        XCTAssertNotNil(map.moreNoteHTML)
        let data = try XCTUnwrap(site.mapData())
        print("map page: \(html.utf8.count) bytes, its places' script \(data.data.count) bytes, \(site.index.coordinates.count) places, made in \(String(format: "%.2f", seconds)) s")
        XCTAssertLessThan(html.utf8.count, 300_000)
        XCTAssertLessThan(html.utf8.count + data.data.count, 500_000, "the page and the script it loads once open")
    }
}

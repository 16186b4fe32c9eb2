@testable import FolioImaging
@testable import FolioModel
@testable import FolioPlaces
import FolioTestSupport
import Foundation
import GRDB
import XCTest

/// Places and regions from coordinates alone, through the gazetteer libgeonames ships: landmarks
/// whose town and state anyone can check on a map.
final class PlaceFinderTests: XCTestCase {
    static let cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-gazetteer-\(UUID().uuidString)")
    static let finder = PlaceFinder.load(cache: cacheFolder.appendingPathComponent("gazetteer.index"))

    func testLandmarksGetTheirTownStateAndCountry() {
        let landmarks: [(String, Double, Double, String, String)] = [
            ("Golden Gate Bridge", 37.8199, -122.4783, "San Francisco, California, United States", "California"),
            // Nearer the centre of Neuilly-sur-Seine than that of Paris, but well inside Paris.
            ("Eiffel Tower", 48.8584, 2.2945, "Paris, Île-de-France Region, France", "Île-de-France Region"),
            ("Sydney Opera House", -33.8568, 151.2153, "Sydney, New South Wales, Australia", "New South Wales"),
            ("Stanford Main Quad", 37.4275, -122.1697, "Palo Alto, California, United States", "California"),
            ("Statue of Liberty", 40.6892, -74.0445, "New York, United States", "New York"),
            ("Lausanne Cathedral", 46.5225, 6.6355, "Lausanne, Canton of Vaud, Switzerland", "Canton of Vaud"),
            ("Christ the Redeemer", -22.9519, -43.2105, "Rio de Janeiro, Brazil", "Rio de Janeiro"),
        ]
        for (name, latitude, longitude, place, region) in landmarks {
            XCTAssertEqual(Self.finder.place(latitude: latitude, longitude: longitude), LocatedPlace(place: place, region: region), name)
        }
    }

    func testFarFromAnyTownTheRegionIsThePlaceAndAtSeaThereIsNone() {
        // Half Dome, Yosemite: no town of 15,000 within 25 km, California all around.
        XCTAssertEqual(Self.finder.place(latitude: 37.7459, longitude: -119.5332),
                       LocatedPlace(place: "California, United States", region: "California"))
        XCTAssertNil(Self.finder.place(latitude: 0, longitude: -30), "the middle of the Atlantic")
        // Death Valley: the nearest town is Pahrump, Nevada, Ridgecrest (California) nearly as near.
        XCTAssertNil(Self.finder.place(latitude: 36.6062, longitude: -117.1150), "between two states, no guess")
        XCTAssertNil(Self.finder.place(latitude: .nan, longitude: 10))
        XCTAssertNil(Self.finder.place(latitude: 95, longitude: 10))
    }

    func testTheDateLineAndThePolesAreNoEdge() {
        // Suva, Fiji sits at 178° E; a point across the date line still finds towns in both columns.
        XCTAssertEqual(Self.finder.place(latitude: -18.1416, longitude: 178.4419)?.place.hasPrefix("Suva"), true)
        XCTAssertNil(Self.finder.place(latitude: 89.9, longitude: 0), "the North Pole has no town")
    }

    func testTheIndexIsKeptBesideTheModelAndMadeAgainWhenDamaged() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-gazetteer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("gazetteer.index")
        let first = PlaceFinder.load(cache: cache)
        let written = try Data(contentsOf: cache)
        XCTAssertGreaterThan(first.index.cities.count, 20_000, "the towns of libgeonames")
        XCTAssertEqual(first.index.sourceCount, first.index.cities.count)

        // Read back, the same towns in the same order.
        let again = try XCTUnwrap(GazetteerIndex(encoded: written))
        XCTAssertEqual(again.cities, first.index.cities)

        // Damaged or cut short, it is refused and made again, never half-read.
        XCTAssertNil(GazetteerIndex(encoded: written.dropLast(3)))
        XCTAssertNil(GazetteerIndex(encoded: Data("FOLIOGAZ1".utf8) + Data(repeating: 0xFF, count: 64)))
        try written.prefix(1000).write(to: cache)
        let remade = PlaceFinder.load(cache: cache)
        XCTAssertEqual(remade.index.cities.count, first.index.cities.count)
        XCTAssertEqual(try Data(contentsOf: cache), written)
    }

    func testPhotosWithGPSAndNoPlaceGetOneCatalogPlacesWin() async throws {
        let site = try TestSite()
        var eiffel = SamplePhoto(width: 320, height: 240, seed: 1)
        (eiffel.latitude, eiffel.longitude) = (48.8584, 2.2945)
        try site.write(try eiffel.jpeg(), to: "content/paris/eiffel.jpg")
        var bridge = SamplePhoto(width: 320, height: 240, seed: 2)
        (bridge.latitude, bridge.longitude) = (37.8199, -122.4783)
        try site.write(try bridge.jpeg(), to: "content/bridge.jpg")
        try site.write(try bridge.jpeg(), to: "content/named/bridge-named.jpg")
        try site.catalog("named/c.plist", [["path": "bridge-named.jpg", "place": "Presidio, San Francisco, United States", "region": "The Bay"]])
        try site.write(try SamplePhoto(width: 320, height: 240, seed: 3).jpeg(), to: "content/nowhere.jpg")

        let report = try await site.build()
        XCTAssertTrue(report.succeeded, report.issues.description)
        let places = try await site.database.writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT photo.source, place.name AS place, region.name AS region FROM photo
                LEFT JOIN place ON place.id = photo.placeId LEFT JOIN region ON region.id = place.regionId ORDER BY photo.source
                """).map { "\($0["source"] as String): \(($0["place"] as String?) ?? "-") / \(($0["region"] as String?) ?? "-")" }
        }
        XCTAssertEqual(places, [
            "content:bridge.jpg: San Francisco, California, United States / California",
            "content:named/bridge-named.jpg: Presidio, San Francisco, United States / The Bay",
            "content:nowhere.jpg: - / -",
            "content:paris/eiffel.jpg: Paris, Île-de-France Region, France / Île-de-France Region",
        ])
        XCTAssertTrue(site.exists("regions/california.html"))
        XCTAssertTrue(try site.read("places/index.html").contains("Paris"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: site.paths.gazetteer.path), "the index is kept beside the model")
        // Published images carry no GPS.
        let media = try FileManager.default.subpathsOfDirectory(atPath: site.publicFolder.appendingPathComponent("media").path)
        XCTAssertFalse(media.filter { $0.hasSuffix(".jpg") }.isEmpty)
        for file in media where file.hasSuffix(".jpg") {
            let data = try Data(contentsOf: site.publicFolder.appendingPathComponent("media/\(file)"))
            XCTAssertNil(try ImageProcessor(pixelLimit: .max).metadata(of: data).latitude, file)
        }
    }
}

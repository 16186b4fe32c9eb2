@testable import FolioImaging
import FolioTestSupport
import Foundation
import XCTest

final class ImagingSamplePhotoTests: XCTestCase {
    func testSamplePhotosCarryTheirExifAndShowUprightWhateverTheOrientation() throws {
        var upright = SamplePhoto(width: 120, height: 80, seed: 7)
        upright.taken = Date(timeIntervalSince1970: 1_700_000_000)
        upright.make = "Folio"
        upright.model = "Folio Bench"
        upright.latitude = -33.8568
        upright.longitude = 151.2153
        let processor = ImageProcessor()
        let request = RenditionRequest(name: "t", width: 120, height: 120, fit: .inside, format: .jpeg, quality: 95)
        let reference = try processor.renditions(of: upright.jpeg(), metadata: processor.metadata(of: upright.jpeg()), requests: [request])[0]

        for orientation in [3, 6, 8] {
            var turned = upright
            turned.orientation = orientation
            let data = try turned.jpeg()
            let metadata = try processor.metadata(of: data)
            XCTAssertEqual(metadata.orientation, orientation)
            XCTAssertEqual(metadata.width, 120)
            XCTAssertEqual(metadata.height, 80)
            XCTAssertEqual(metadata.camera, "Folio Bench")
            XCTAssertEqual(metadata.taken, upright.taken)
            XCTAssertEqual(try XCTUnwrap(metadata.latitude), -33.8568, accuracy: 0.001)
            XCTAssertEqual(try XCTUnwrap(metadata.longitude), 151.2153, accuracy: 0.001)
            let rendition = try processor.renditions(of: data, metadata: metadata, requests: [request])[0]
            XCTAssertEqual(rendition.width, 120)
            let a = try ImagingFixtures.decode(reference.bytes), b = try ImagingFixtures.decode(rendition.bytes)
            var difference = 0
            for (x, y) in [(5, 5), (60, 20), (110, 70), (30, 75)] {
                let (p, q) = (a.colour(x: x, y: y), b.colour(x: x, y: y))
                difference += abs(p.red - q.red) + abs(p.green - q.green) + abs(p.blue - q.blue)
            }
            XCTAssertLessThan(difference, 4 * 3 * 30, "orientation \(orientation) shows upright")
        }
    }

    func testTilesCoverTheOriginalLevelByLevel() throws {
        let photo = try SamplePhoto(width: 1000, height: 600, seed: 3).jpeg()
        let processor = ImageProcessor()
        let tiles = TileRequest(tileSize: 256, overlap: 1, coveredUpTo: 300)
        var made: [String: (Int, Int)] = [:]
        _ = try processor.renditions(of: photo, metadata: processor.metadata(of: photo), requests: [], tiles: tiles) { tile in
            let image = try ImagingFixtures.decode(tile.bytes)
            made[tile.path] = (image.width, image.height)
        }
        // maxLevel 10 (1024 ≥ 1000): 1000x600 in 4x3 tiles; level 9: 500x300 in 2x2; level 8 (250) is covered.
        XCTAssertEqual(TileRequest.maxLevel(width: 1000, height: 600), 10)
        XCTAssertEqual(tiles.minLevel(width: 1000, height: 600), 9)
        XCTAssertEqual(made.count, 12 + 4)
        XCTAssertEqual(made["10/0/0"]?.0, nil, "paths are level/column_row")
        XCTAssertEqual(made["10/0_0"]?.0, 257, "inner edges overlap by one pixel")
        XCTAssertEqual(made["10/1_0"]?.0, 258)
        XCTAssertEqual(made["10/3_2"]?.0, 1000 - 767)
        XCTAssertEqual(made["10/3_2"]?.1, 600 - 511)
        XCTAssertEqual(made["9/1_1"]?.0, 500 - 255)
        XCTAssertNil(tiles.minLevel(width: 300, height: 200), "a photo the screen rendition covers needs no tiles")
    }

    /// What a photo's page describes to the viewer (`TileGrid`) is what was cut, tile by tile,
    /// odd sizes included, where each halving rounds up.
    func testTheGridDescribesEveryTileCut() throws {
        let processor = ImageProcessor()
        let tiles = TileRequest(tileSize: 256, overlap: 1, coveredUpTo: 200)
        for (width, height) in [(1000, 600), (1025, 513), (777, 1299)] {
            let photo = try SamplePhoto(width: width, height: height, seed: 5).jpeg()
            var made: [String: [Int]] = [:]
            _ = try processor.renditions(of: photo, metadata: processor.metadata(of: photo), requests: [], tiles: tiles) { tile in
                let image = try ImagingFixtures.decode(tile.bytes)
                made[tile.path] = [image.width, image.height]
            }
            let grid = tiles.grid(width: width, height: height)
            var described: [String: [Int]] = [:]
            for level in try XCTUnwrap(tiles.minLevel(width: width, height: height))...grid.maxLevel {
                let cut = grid.level(level)
                for column in 0..<cut.columns {
                    for row in 0..<cut.rows {
                        let rect = grid.tile(column: column, row: row, of: cut)
                        described["\(level)/\(column)_\(row)"] = [rect.width, rect.height]
                    }
                }
            }
            XCTAssertEqual(described, made, "\(width)x\(height)")
        }
    }
}

import CExif
@testable import FolioImaging
import FolioTestSupport
import Foundation
import XCTest


final class ImagingOrientationTests: XCTestCase {
    /// Where the upright photo's top-left and top-right corners are in the stored pixels, for each
    /// EXIF orientation, straight from the EXIF specification's pictures (not from the code).
    private let storedCorners: [Int: (topLeft: Corner, topRight: Corner)] = [
        1: (.topLeft, .topRight),
        2: (.topRight, .topLeft),
        3: (.bottomRight, .bottomLeft),
        4: (.bottomLeft, .bottomRight),
        5: (.topLeft, .bottomLeft),
        6: (.bottomLeft, .topLeft),
        7: (.bottomRight, .topRight),
        8: (.topRight, .bottomRight),
    ]

    private enum Corner {
        case topLeft, topRight, bottomLeft, bottomRight

        func origin(width: Int, height: Int, size: Int) -> (x: Int, y: Int) {
            switch self {
            case .topLeft: return (0, 0)
            case .topRight: return (width - size, 0)
            case .bottomLeft: return (0, height - size)
            case .bottomRight: return (width - size, height - size)
            }
        }
    }

    func testEveryOrientationComesOutUprightWithMarkersInTheirCorners() throws {
        // Upright the photo is 360x240 with red at its top-left and green at its top-right.
        for (orientation, corners) in storedCorners.sorted(by: { $0.key < $1.key }) {
            let stored = orientation >= 5 ? (width: 240, height: 360) : (width: 360, height: 240)
            let marker = 60
            let red = corners.topLeft.origin(width: stored.width, height: stored.height, size: marker)
            let green = corners.topRight.origin(width: stored.width, height: stored.height, size: marker)
            let exif = ExifWriter().short(EXIF_TAG_ORIENTATION, orientation).block()
            let jpeg = ImagingFixtures.insertingExif(exif, into: try ImagingFixtures.image(
                width: stored.width, height: stored.height,
                rectangles: [(red.x, red.y, marker, marker, ImagingFixtures.red),
                             (green.x, green.y, marker, marker, ImagingFixtures.green)]
            ).encoded(as: .jpeg, quality: 95))

            let processor = ImageProcessor()
            let metadata = try processor.metadata(of: jpeg)
            let requests = [
                RenditionRequest(name: "screen", width: 180, height: 180, fit: .inside, format: .jpeg, quality: 90),
                RenditionRequest(name: "full", width: 1000, height: 1000, fit: .inside, format: .webp, quality: 90),
            ]
            for rendition in try processor.renditions(of: jpeg, metadata: metadata, requests: requests) {
                let image = try ImagingFixtures.decode(rendition.bytes)
                let label = "orientation \(orientation), \(rendition.request.name)"
                XCTAssertGreaterThan(rendition.width, rendition.height, label)
                XCTAssertEqual([image.width, image.height], [rendition.width, rendition.height], label)
                let inset = rendition.width / 24  // inside the marker, clear of its blurred edge
                ImagingFixtures.assertColour(image, x: inset, y: inset, is: ImagingFixtures.red, label)
                ImagingFixtures.assertColour(image, x: rendition.width - 1 - inset, y: inset, is: ImagingFixtures.green, label)
                ImagingFixtures.assertColour(image, x: inset, y: rendition.height - 1 - inset, is: (128, 128, 128), label)
            }
        }
    }

    func testSourceMapsAreTheEightDistinctSymmetriesOfTheRectangle() {
        // Each orientation maps the upright top-left/top-right pixels to distinct stored pixels.
        var seen = Set<[Int]>()
        for orientation in ImageOrientation.allCases {
            let stored = orientation.swapsAxes ? (3, 2) : (2, 3)
            let map = orientation.sourceMap(storedWidth: stored.0, storedHeight: stored.1)
            let upright = orientation.uprightSize(width: stored.0, height: stored.1)
            XCTAssertEqual([upright.width, upright.height], [2, 3])
            var corners: [Int] = []
            for x in [0, 1] {
                let sourceX = x * map.ax + map.cx
                let sourceY = x * map.ay + map.cy
                XCTAssertTrue((0..<stored.0).contains(sourceX) && (0..<stored.1).contains(sourceY), "\(orientation)")
                corners += [sourceX, sourceY]
            }
            seen.insert(corners)
        }
        XCTAssertEqual(seen.count, 8)
    }
}

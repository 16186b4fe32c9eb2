@testable import FolioImaging
import FolioTestSupport
import Foundation
import XCTest


/// HEIC and TIFF photos as phones, scanners and photo tools make them: pictures drawn here, made
/// into files by libgd (TIFF) and heif-enc (HEIC), tagged by exiftool, then read like a JPEG.
final class ImagingHEICAndTIFFTests: XCTestCase {
    private let processor = ImageProcessor()
    private let camera = PhotoTools.cameraTags(taken: "2021:05:06 07:08:09", make: "Acme", model: "Acme X100",
                                               latitude: 37.4419, longitude: -122.1430)

    /// Upright, the photo is 96x64: red at its top-left, green at its top-right, on grey.
    /// Stored for orientation 6 (turn 90° clockwise to show), it is 64x96 with red at its
    /// bottom-left and green at its top-left (the EXIF specification's picture).
    private func storedForOrientation6() throws -> Canvas {
        var canvas = Canvas(width: 64, height: 96)
        canvas.fill(x: 0, y: 96 - 28, width: 28, height: 28, Canvas.red)
        canvas.fill(x: 0, y: 0, width: 28, height: 28, Canvas.green)
        return canvas
    }

    private func assertUpright(_ data: Data, _ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let metadata = try processor.metadata(of: data)
        XCTAssertEqual([metadata.width, metadata.height], [96, 64], label, file: file, line: line)
        let request = RenditionRequest(name: "screen", width: 96, height: 96, fit: .inside, format: .jpeg, quality: 95)
        let rendition = try XCTUnwrap(processor.renditions(of: data, metadata: metadata, requests: [request]).first)
        let image = try ImagingFixtures.decode(rendition.bytes)
        XCTAssertEqual([image.width, image.height], [96, 64], label, file: file, line: line)
        ImagingFixtures.assertColour(image, x: 8, y: 8, is: Canvas.red, tolerance: 60, label, file: file, line: line)
        ImagingFixtures.assertColour(image, x: 87, y: 8, is: Canvas.green, tolerance: 60, label, file: file, line: line)
        ImagingFixtures.assertColour(image, x: 48, y: 56, is: Canvas.grey, tolerance: 30, label, file: file, line: line)
    }

    // MARK: HEIC

    func testHEICFromHeifEncIsReadWithItsEXIF() throws {
        let jpeg = try PhotoTools.exiftool(camera, on: try Canvas(width: 120, height: 80).encoded(as: .jpeg, quality: 90),
                                           fileExtension: "jpg")
        let heic = try PhotoTools.heic(fromJPEG: jpeg)
        XCTAssertEqual(ImageFormat(sniffing: heic), .heic)

        let metadata = try processor.metadata(of: heic)
        XCTAssertEqual(metadata.format, .heic)
        XCTAssertEqual([metadata.width, metadata.height], [120, 80])
        XCTAssertEqual(metadata.taken, ISO8601DateFormatter().date(from: "2021-05-06T07:08:09Z"))
        XCTAssertEqual(metadata.camera, "Acme X100")
        XCTAssertEqual(try XCTUnwrap(metadata.latitude), 37.4419, accuracy: 1e-4)
        XCTAssertEqual(try XCTUnwrap(metadata.longitude), -122.1430, accuracy: 1e-4)

        // Published as JPEG (and its WebP twin), never as HEIC; no EXIF reaches them.
        let requests = [
            RenditionRequest(name: "screen", width: 60, height: 60, fit: .inside, format: .jpeg, quality: 90),
            RenditionRequest(name: "thumb", width: 32, height: 32, fit: .squareCrop, format: .webp, quality: 90),
        ]
        let renditions = try processor.renditions(of: heic, metadata: metadata, requests: requests)
        XCTAssertEqual(renditions.map { ImageFormat(sniffing: $0.bytes) }, [.jpeg, .webp])
        XCTAssertEqual(renditions.map { [$0.width, $0.height] }, [[60, 40], [32, 32]])
        XCTAssertNil(try processor.metadata(of: renditions[0].bytes).latitude)
    }

    func testHEICTurnedOnlyByItsEXIFComesOutUpright() throws {
        // heif-enc (before libheif 1.16) keeps a JPEG's EXIF Orientation and writes no irot.
        let jpeg = try PhotoTools.exiftool(PhotoTools.cameraTags(orientation: 6),
                                           on: try storedForOrientation6().encoded(as: .jpeg, quality: 95), fileExtension: "jpg")
        let heic = try PhotoTools.heic(fromJPEG: jpeg, quality: 90)
        XCTAssertEqual(try processor.metadata(of: heic).orientation, 6)
        try assertUpright(heic, "EXIF orientation 6, no irot")
    }

    func testHEICTurnedByIrotIsTurnedByItAndNotByItsEXIF() throws {
        // As a phone writes it: the turn as irot (270° counter-clockwise) and the same turn as
        // EXIF Orientation 6; then with an EXIF that disagrees, which the irot overrules.
        for exif in [6, 1, 8] {
            let jpeg = try PhotoTools.exiftool(PhotoTools.cameraTags(orientation: exif),
                                               on: try storedForOrientation6().encoded(as: .jpeg, quality: 95), fileExtension: "jpg")
            let heic = try PhotoTools.turningHEIC(try PhotoTools.heic(fromJPEG: jpeg, quality: 90), quarterTurns: 3)
            XCTAssertEqual(try processor.metadata(of: heic).orientation, 6, "EXIF \(exif)")
            try assertUpright(heic, "irot 3 and EXIF orientation \(exif)")
        }
    }

    func testAVIFIsNotTakenForHEIC() throws {
        guard let avif = try? Canvas(width: 40, height: 30).encoded(as: .avif, quality: 60) else {
            throw XCTSkip("this libgd writes no AVIF")
        }
        XCTAssertEqual(ImageFormat(sniffing: avif), .avif)
        XCTAssertEqual(try processor.metadata(of: avif).format, .avif)
    }

    // MARK: TIFF

    func testTIFFIsReadWithItsEXIF() throws {
        let tiff = try PhotoTools.exiftool(camera, on: try Canvas(width: 120, height: 80).encoded(as: .tiff, quality: 100),
                                           fileExtension: "tif")
        XCTAssertEqual(ImageFormat(sniffing: tiff), .tiff)
        let metadata = try processor.metadata(of: tiff)
        XCTAssertEqual(metadata.format, .tiff)
        XCTAssertEqual([metadata.width, metadata.height], [120, 80])
        XCTAssertEqual(metadata.taken, ISO8601DateFormatter().date(from: "2021-05-06T07:08:09Z"))
        XCTAssertEqual(metadata.camera, "Acme X100")
        XCTAssertEqual(try XCTUnwrap(metadata.latitude), 37.4419, accuracy: 1e-4)
        XCTAssertEqual(try XCTUnwrap(metadata.longitude), -122.1430, accuracy: 1e-4)
        let request = RenditionRequest(name: "screen", width: 60, height: 60, fit: .inside, format: .jpeg, quality: 90)
        let rendition = try XCTUnwrap(processor.renditions(of: tiff, metadata: metadata, requests: [request]).first)
        XCTAssertEqual(ImageFormat(sniffing: rendition.bytes), .jpeg)
        XCTAssertEqual([rendition.width, rendition.height], [60, 40])
    }

    func testEveryTIFFOrientationComesOutUpright() throws {
        // libtiff turns some orientations itself, partly (flips only); Folio must turn every one
        // exactly once. Stored corners of the upright top-left (red) and top-right (green).
        let corners: [Int: (red: (Int, Int), green: (Int, Int))] = [
            1: ((0, 0), (1, 0)), 2: ((1, 0), (0, 0)), 3: ((1, 1), (0, 1)), 4: ((0, 1), (1, 1)),
            5: ((0, 0), (0, 1)), 6: ((0, 1), (0, 0)), 7: ((1, 1), (1, 0)), 8: ((1, 0), (1, 1)),
        ]
        for (orientation, corner) in corners.sorted(by: { $0.key < $1.key }) {
            let stored = orientation >= 5 ? (width: 64, height: 96) : (width: 96, height: 64)
            var canvas = Canvas(width: stored.width, height: stored.height)
            canvas.fill(x: corner.red.0 * (stored.width - 28), y: corner.red.1 * (stored.height - 28), width: 28, height: 28, Canvas.red)
            canvas.fill(x: corner.green.0 * (stored.width - 28), y: corner.green.1 * (stored.height - 28), width: 28, height: 28, Canvas.green)
            let tiff = try PhotoTools.exiftool(PhotoTools.cameraTags(orientation: orientation),
                                               on: try canvas.encoded(as: .tiff, quality: 100), fileExtension: "tif")
            XCTAssertEqual(try processor.metadata(of: tiff).orientation, orientation)
            try assertUpright(tiff, "TIFF orientation \(orientation)")
        }
    }

    func testTIFFWhoseDirectoriesFollowItsPixelsKeepsItsEXIF() throws {
        // libtiff writes a file's directories after its pixels: past the 64 KB libexif reads of
        // a block. 300x300 pixels of noise keep the deflated strips far larger than that.
        var random: UInt64 = 0x9E37_79B9_7F4A_7C15
        let words = (0..<(300 * 300)).map { _ -> UInt32 in
            random ^= random << 13; random ^= random >> 7; random ^= random << 17
            return UInt32(truncatingIfNeeded: random) & 0xFF_FFFF
        }
        let plain = try ImageProcessor().encode(PixelBuffer(width: 300, height: 300, words: words), as: .tiff, quality: 100)
        let bytes = ByteReader(plain)
        let firstDirectory = try XCTUnwrap(bytes.uint32LE(at: 4))
        XCTAssertGreaterThan(firstDirectory, 100_000, "libtiff put the directory after the pixels")
        // exiftool moves directories to the front when it writes, so add the EXIF by hand: a
        // copy of the directory at the end, with an Orientation entry, as a camera would write.
        let tiff = try TIFFFixture.appendingOrientation(8, to: plain)
        let metadata = try processor.metadata(of: tiff)
        XCTAssertEqual(metadata.orientation, 8)
        XCTAssertEqual([metadata.width, metadata.height], [300, 300])
        XCTAssertEqual(try processor.pixels(of: tiff).colour(x: 5, y: 7).red, Int(words[7 * 300 + 5] >> 16))
    }

    func testHugeTIFFIsRefusedBeforeDecoding() throws {
        // The first directory claims 100000x100000 pixels: refused from the header.
        var tiff = try Canvas(width: 16, height: 16).encoded(as: .tiff, quality: 100)
        try TIFFFixture.setSize(width: 100_000, height: 100_000, in: &tiff)
        XCTAssertThrowsError(try processor.metadata(of: tiff)) { error in
            XCTAssertEqual((error as? ImagingError)?.reason,
                           "100000x100000 pixels is over the limit of 40000000 for images decoded whole (fullDecodePixelLimit)")
        }
    }

    func testDamagedHEICAndTIFFFailWithAReasonAndQuietly() throws {
        // Tagged by exiftool, whose directories come first: the cut falls in the pixels.
        let tiff = try PhotoTools.exiftool(camera, on: try Canvas(width: 200, height: 150).encoded(as: .tiff, quality: 100),
                                           fileExtension: "tif")
        let jpeg = try Canvas(width: 200, height: 150).encoded(as: .jpeg, quality: 90)
        let heic = try PhotoTools.heic(fromJPEG: jpeg)
        let output = ImagingFixtures.standardError {
            for (name, data) in [("TIFF", tiff), ("HEIC", heic)] {
                let cut = data.prefix(data.count * 2 / 3)
                let reason: String
                do {
                    let metadata = try processor.metadata(of: cut)
                    let request = RenditionRequest(name: "t", width: 32, height: 32, fit: .squareCrop, format: .jpeg, quality: 70)
                    _ = try processor.renditions(of: cut, metadata: metadata, requests: [request])
                    reason = "no error"
                } catch {
                    reason = "\(error)"
                }
                XCTAssertTrue(reason.hasPrefix("corrupt or truncated \(name) data"), "\(name): \(reason)")
            }
        }
        XCTAssertEqual(output, "")
    }
}

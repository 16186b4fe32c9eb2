@testable import FolioImaging
import FolioTestSupport
import Foundation
import XCTest


/// Folio's decode of every whole-decoded format, pixel for pixel against another decoder: libheif's
/// own heif-convert for HEIC, Pillow for the rest. A real photo at sizes a crop or an export gives
/// (odd, not multiples of 8 or 64), since that is where a decoder that gets its rows' stride wrong
/// shears the picture while every size and colour check still passes.
final class ImagingReferenceDecodeTests: XCTestCase {
    private let processor = ImageProcessor()
    private let photo = TestSite.repository.appendingPathComponent("content/cc0/rocket.jpg")
    private let sizes = [(451, 301), (462, 347), (333, 500), (640, 427)]
    /// Levels of 255, per channel, averaged over the picture: two decoders of the same file differ
    /// by rounding (0-1); a sheared picture differed by 38-45.
    private let tolerance = 3.0

    private func assertClose(
        _ decoded: PixelBuffer, _ reference: PixelBuffer, _ label: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        PhotoTools.assertClose(decoded, reference, tolerance: tolerance, label, file: file, line: line)
    }

    /// The pixels as a full-size JPEG rendition at quality 100 would show them.
    private func publishedAsJPEG(_ pixels: PixelBuffer) throws -> PixelBuffer {
        try PhotoTools.pillowPixels(of: try processor.encode(pixels, as: .jpeg, quality: 100))
    }

    func testHEICOfEverySizeIsDecodedAsLibheifDecodesIt() throws {
        for (width, height) in sizes {
            let heic = try PhotoTools.heic(from: photo, width: width, height: height)
            let label = "HEIC \(width)x\(height)"
            assertClose(try processor.pixels(of: heic), try PhotoTools.heifConvertPixels(of: heic), label)
        }
    }

    func testHEICWithAlphaOfAnOddSizeIsDecodedOntoWhiteAsLibheifDecodesIt() throws {
        // Four bytes a pixel: another stride, and libheif's alpha image beside the colour.
        let png = try PhotoTools.cutOut(from: photo, width: 451, height: 301, format: .png)
        let heic = try PhotoTools.heic(fromPNG: png)
        assertClose(try processor.pixels(of: heic), try PhotoTools.heifConvertPixels(of: heic), "HEIC with alpha 451x301")
        let left = try processor.pixels(of: heic).colour(x: 10, y: 150)
        XCTAssertTrue(left.red > 245 && left.green > 245 && left.blue > 245, "the transparent third is white: \(left)")
    }

    func testHEICWithACleanApertureIsCutAsLibheifCutsIt() throws {
        // 401x251 of a 451x301 picture, 10 pixels right of centre and 6 up; then turned by irot,
        // which applies after the cut.
        let heic = try PhotoTools.croppingHEIC(try PhotoTools.heic(from: photo, width: 451, height: 301),
                                               width: 401, height: 251, offsetX: 10, offsetY: -6)
        let metadata = try processor.metadata(of: heic)
        XCTAssertEqual([metadata.width, metadata.height], [401, 251])
        assertClose(try processor.pixels(of: heic), try PhotoTools.heifConvertPixels(of: heic), "clap 401x251")
        let turned = try PhotoTools.turningHEIC(heic, quarterTurns: 1)
        let turnedMetadata = try processor.metadata(of: turned)
        XCTAssertEqual([turnedMetadata.width, turnedMetadata.height], [251, 401])
        let request = RenditionRequest(name: "screen", width: 401, height: 401, fit: .inside, format: .jpeg, quality: 100)
        let rendition = try XCTUnwrap(processor.renditions(of: turned, metadata: turnedMetadata, requests: [request]).first)
        assertClose(try PhotoTools.pillowPixels(of: rendition.bytes), try publishedAsJPEG(PhotoTools.heifConvertPixels(of: turned)),
                    "clap, then irot")
    }

    func testPublishedHEICOfAnOddSizeMatchesLibheifsDecodeInSRGB() throws {
        // Through the whole rendition path, as a build publishes it, with the photo's own
        // Adobe RGB profile: against libheif's pixels converted to sRGB by Pillow's Little CMS,
        // through the same JPEG encoder (its 4:2:0 alone moves a few levels).
        let heic = try PhotoTools.heic(from: photo, width: 462, height: 347, keepProfile: true)
        let metadata = try processor.metadata(of: heic)
        XCTAssertEqual(metadata.colour, .rgbProfile)
        let request = RenditionRequest(name: "screen", width: 462, height: 462, fit: .inside, format: .jpeg, quality: 100)
        let rendition = try XCTUnwrap(processor.renditions(of: heic, metadata: metadata, requests: [request]).first)
        assertClose(try PhotoTools.pillowPixels(of: rendition.bytes), try publishedAsJPEG(PhotoTools.heifConvertPixels(of: heic, toSRGB: true)), "published")
    }

    func testHEICTurnedByIrotIsTurnedOnceAsLibheifTurnsIt() throws {
        // heif-convert applies the irot; Folio turns the stored pixels itself, by the header.
        // Turned twice (or not at all), the sizes would not even match.
        let heic = try PhotoTools.turningHEIC(try PhotoTools.heic(from: photo, width: 451, height: 301), quarterTurns: 1)
        let metadata = try processor.metadata(of: heic)
        XCTAssertEqual([metadata.width, metadata.height, metadata.orientation], [301, 451, 8])
        let request = RenditionRequest(name: "screen", width: 451, height: 451, fit: .inside, format: .jpeg, quality: 100)
        let rendition = try XCTUnwrap(processor.renditions(of: heic, metadata: metadata, requests: [request]).first)
        assertClose(try PhotoTools.pillowPixels(of: rendition.bytes), try publishedAsJPEG(PhotoTools.heifConvertPixels(of: heic)), "irot 1")
    }

    func testPNGWebPTIFFAndAVIFAreDecodedAsPillowDecodesThem() throws {
        for format in PhotoTools.PillowFormat.allCases {
            for (width, height) in sizes {
                let data = try PhotoTools.photo(from: photo, width: width, height: height, format: format)
                let label = "\(format.rawValue) \(width)x\(height)"
                assertClose(try processor.pixels(of: data), try PhotoTools.pillowPixels(of: data), label)
            }
        }
    }
}

import CGD
@testable import FolioImaging
import FolioTestSupport
import Foundation
import XCTest


/// Transparent PNG and WebP photos (logos, cut-outs) keep their transparency in PNG and WebP
/// renditions, checked by decoding those with Pillow, as a browser composes them onto the page.
final class ImagingTransparencyTests: XCTestCase {
    private let processor = ImageProcessor()

    /// 100x100: the left half fully transparent, the right half opaque blue.
    private func halfTransparentPNG() throws -> Data {
        try ImagingFixtures.halfTransparentPNG(width: 100, height: 100, right: ImagingFixtures.blue)
    }

    func testTheHeaderSaysWhichPhotosAreTransparent() throws {
        XCTAssertTrue(try processor.metadata(of: halfTransparentPNG()).transparent, "PNG with alpha")
        XCTAssertFalse(try processor.metadata(of: Canvas(width: 40, height: 30).encoded(as: .png, quality: 100)).transparent,
                       "opaque PNG")
        XCTAssertFalse(try processor.metadata(of: Canvas(width: 40, height: 30).encoded(as: .jpeg, quality: 90)).transparent)
        let pixels = try processor.pixels(of: halfTransparentPNG())
        XCTAssertFalse(pixels.alpha, "pixels(of:) composes onto white, as it always did")
        let transparent = try XCTUnwrap(processor.renditions(
            of: halfTransparentPNG(), metadata: processor.metadata(of: halfTransparentPNG()),
            requests: [RenditionRequest(name: "t", width: 100, height: 100, fit: .inside, format: .webp, quality: 90)]).first)
        XCTAssertTrue(try processor.metadata(of: transparent.bytes).transparent, "a WebP with alpha says so in VP8X")
        let opaque = try processor.encode(Canvas(width: 40, height: 30).pixels, as: .webp, quality: 90)
        XCTAssertFalse(try processor.metadata(of: opaque).transparent, "opaque WebP")
    }

    func testAGIFWithATransparentColourKeepsIt() throws {
        // A palette picture as GIF tools write one: its left half in the colour named transparent.
        let image = try XCTUnwrap(gdImageCreate(60, 40))
        defer { gdImageDestroy(image) }
        let clear = gdImageColorAllocate(image, 0, 0, 0), red = gdImageColorAllocate(image, 255, 0, 0)
        gdImageColorTransparent(image, clear)
        gdImageFilledRectangle(image, 0, 0, 59, 39, clear)
        gdImageFilledRectangle(image, 30, 0, 59, 39, red)
        var size: Int32 = 0
        let bytes = try XCTUnwrap(gdImageGifPtr(image, &size))
        let gif = Data(bytes: bytes, count: Int(size))
        gdFree(bytes)

        let metadata = try processor.metadata(of: gif)
        XCTAssertTrue(metadata.transparent)
        XCTAssertFalse(try processor.metadata(of: Canvas(width: 40, height: 30).encoded(as: .gif, quality: 100)).transparent,
                       "a GIF without a transparent colour")
        let request = RenditionRequest(name: "t", width: 60, height: 60, fit: .inside, format: .png, quality: 85)
        let rendition = try XCTUnwrap(processor.renditions(of: gif, metadata: metadata, requests: [request]).first)
        let decoded = try PhotoTools.pillowRGBA(of: rendition.bytes)
        XCTAssertEqual(decoded.words[20 * 60 + 5] >> 24, 0, "the transparent colour stays transparent")
        XCTAssertEqual(decoded.words[20 * 60 + 50], 0xFFFF_0000, "the red half stays opaque red")
    }

    func testATransparentPhotoWithAProfileIsConvertedToSRGBEvenUnderKeep() throws {
        // A PNG rendition carries no profile: kept as they are, Adobe RGB colours would be
        // shown as sRGB, duller. Converted, they match Pillow's Little CMS conversion.
        let photo = TestSite.repository.appendingPathComponent("content/cc0/rocket.jpg")
        let png = try PhotoTools.cutOut(from: photo, width: 300, height: 200, format: .png, keepProfile: true)
        let keeping = ImageProcessor(colour: .keep)
        let metadata = try keeping.metadata(of: png)
        XCTAssertEqual(metadata.colour, .rgbProfile)
        XCTAssertTrue(metadata.transparent)
        let request = RenditionRequest(name: "screen", width: 300, height: 300, fit: .inside, format: .png, quality: 85)
        let rendition = try XCTUnwrap(keeping.renditions(of: png, metadata: metadata, requests: [request]).first)
        let errors = try XCTUnwrap(PhotoTools.meanError(try PhotoTools.pillowPixels(of: rendition.bytes),
                                                        try PhotoTools.pillowPixels(of: png, toSRGB: true)))
        XCTAssertTrue(errors.allSatisfy { $0 <= 3 }, "mean error per channel \(errors)")
    }

    func testPNGAndWebPRenditionsKeepTransparencyAndJPEGIsOnWhite() throws {
        let png = try halfTransparentPNG()
        let metadata = try processor.metadata(of: png)
        let requests = [
            RenditionRequest(name: "screen", width: 50, height: 50, fit: .inside, format: .png, quality: 85),
            RenditionRequest(name: "thumb", width: 32, height: 32, fit: .squareCrop, format: .png, quality: 85),
            RenditionRequest(name: "screen-webp", width: 50, height: 50, fit: .inside, format: .webp, quality: 90),
            RenditionRequest(name: "screen-jpeg", width: 50, height: 50, fit: .inside, format: .jpeg, quality: 90),
        ]
        let renditions = try processor.renditions(of: png, metadata: metadata, requests: requests)
        XCTAssertEqual(renditions.map { ImageFormat(sniffing: $0.bytes) }, [.png, .png, .webp, .jpeg])
        for rendition in renditions {
            let image = try PhotoTools.pillowRGBA(of: rendition.bytes)
            let name = rendition.request.name
            XCTAssertEqual([image.width, image.height], [rendition.width, rendition.height], name)
            func pixel(_ x: Int, _ y: Int) -> (alpha: Int, red: Int, green: Int, blue: Int) {
                let word = image.words[y * image.width + x]
                return (Int(word >> 24), Int(word >> 16 & 0xFF), Int(word >> 8 & 0xFF), Int(word & 0xFF))
            }
            let left = pixel(2, image.height / 2), right = pixel(image.width - 3, image.height / 2)
            XCTAssertEqual(right.alpha, 255, "\(name): the blue half is opaque")
            XCTAssertLessThan(abs(right.blue - 255) + right.red + right.green, 30, "\(name): and blue, \(right)")
            if rendition.request.format == .jpeg {
                XCTAssertEqual([left.alpha, left.red, left.green, left.blue].map { $0 >= 245 }, [true, true, true, true],
                               "\(name): JPEG has no alpha: the transparent half is white, \(left)")
                continue
            }
            XCTAssertEqual(left.alpha, 0, "\(name): the transparent half stays transparent")
            // Across the edge, partly transparent pixels are still blue, not darkened by the
            // black under the transparent half: resampling works on premultiplied colour.
            for x in 0..<image.width {
                let edge = pixel(x, image.height / 2)
                if edge.alpha > 40 {
                    XCTAssertGreaterThan(edge.blue, 215, "\(name): x \(x) is \(edge)")
                }
            }
        }
    }
}

@testable import FolioImaging
import FolioTestSupport
import Foundation
import XCTest


/// An animated GIF built into a site: its page shows it moving (the GIF itself, cleaned of what
/// describes it), visitors who prefer reduced motion and every list get stills of its first frame.
final class AnimationBuildTests: XCTestCase {
    private let photo = TestSite.repository.appendingPathComponent("content/cc0/rocket.jpg")

    func testTheHeaderTellsAnAnimationFromAStill() throws {
        let processor = ImageProcessor()
        let animation = try PhotoTools.animatedGIF(from: photo, width: 120, height: 80, frames: 3, comment: "made somewhere")
        XCTAssertTrue(try processor.metadata(of: animation).animated)
        let still = try Canvas(width: 40, height: 30).encoded(as: .gif, quality: 100)
        XCTAssertFalse(try processor.metadata(of: still).animated)
        XCTAssertNil(try processor.animation(of: still, metadata: processor.metadata(of: still)))
        // Cut inside its second frame, it is a still: the first frame is all there is.
        XCTAssertFalse(try processor.metadata(of: animation.prefix(animation.count * 2 / 3)).animated)
    }

    func testAnAnimatedWebPsDecodeIsCountedWithLibwebpsTwoCanvases() {
        let processor = ImageProcessor()
        let still = ImageMetadata(format: .webp, width: 1000, height: 1000)
        var moving = still
        moving.animated = true
        XCTAssertEqual(processor.memoryCost(metadata: moving, requests: [], tiles: nil)
                       - processor.memoryCost(metadata: still, requests: [], tiles: nil), 8 * 1000 * 1000)
    }

    func testAnAnimatedGIFMovesOnItsPageAndIsStillEverywhereElse() async throws {
        let site = try TestSite()
        try site.write(Data(#"{"screenSizes": [800, 400], "thumbnailSizes": [200]}"#.utf8), to: "folio.json")
        let source = try PhotoTools.animatedGIF(from: photo, width: 480, height: 320, frames: 4, comment: "GPS 48.85 2.29")
        XCTAssertEqual(try PhotoTools.frames(of: source).comment, "GPS 48.85 2.29", "the source carries a comment")
        try site.write(source, to: "content/launch.gif")
        try site.photo("still.jpg")
        let report = try await site.build()
        XCTAssertTrue(report.succeeded, report.issues.description)
        let record = try XCTUnwrap(site.database.photo(identifier: try site.identifier("launch.gif")))
        XCTAssertTrue(record.animated)
        let checksum = record.checksum.prefix(16)

        let page = try site.read("photos/\(record.identifier).html")
        let image = try XCTUnwrap(page.firstMatch(of: #/<picture><source media=".prefers-reduced-motion: reduce." srcset="([^"]+)"[^>]*><img class="photo-image" src="([^"]+)"/#),
                                  "the animation, with stills for reduced motion")
        let animation = String(image.output.2).replacingOccurrences(of: "../", with: "")
        XCTAssertTrue(animation.hasPrefix("media/\(checksum)-") && animation.hasSuffix(".gif"), animation)
        let published = try PhotoTools.frames(of: Data(contentsOf: site.publicFolder.appendingPathComponent(animation)))
        XCTAssertEqual(published.count, 4, "all its frames")
        XCTAssertEqual(published.loop, 0, "looping forever, as it did")
        XCTAssertNil(published.comment, "no comment: nothing but the animation is published")

        let stills = image.output.1.split(separator: ",").compactMap { $0.split(separator: " ").first }
            .map { String($0).replacingOccurrences(of: "../", with: "") }
        XCTAssertFalse(stills.isEmpty)
        for still in stills {
            XCTAssertFalse(still.hasSuffix(".gif"), still)
            XCTAssertEqual(try PhotoTools.frames(of: Data(contentsOf: site.publicFolder.appendingPathComponent(still))).count, 1, still)
        }
        let home = try site.read("index.html")
        let thumbnails = home.matches(of: /media\/[0-9a-f]{16}-thumb[a-z0-9]*-[0-9a-f]{6}\.[a-z]+/).map { String($0.output) }
            .filter { $0.hasPrefix("media/\(checksum)-") }
        XCTAssertFalse(thumbnails.isEmpty)
        for thumbnail in thumbnails {
            XCTAssertEqual(try PhotoTools.frames(of: Data(contentsOf: site.publicFolder.appendingPathComponent(thumbnail))).count, 1,
                           "\(thumbnail) is still")
        }
        XCTAssertFalse(site.exists("media/tiles"), "no deep zoom for an animation, nor for the small still")

        // An animated WebP too, its EXIF left out.
        let webp = try PhotoTools.animatedWebP(from: photo, width: 360, height: 240, frames: 3, comment: "Acme")
        XCTAssertEqual(try PhotoTools.frames(of: webp).comment, "Acme", "the source carries EXIF")
        try site.write(webp, to: "content/launch.webp")
        let withWebP = try await site.build()
        XCTAssertTrue(withWebP.succeeded, withWebP.issues.description)
        let webpRecord = try XCTUnwrap(site.database.photo(identifier: try site.identifier("launch.webp")))
        XCTAssertTrue(webpRecord.animated)
        let webpPage = try site.read("photos/\(webpRecord.identifier).html")
        let webpImage = try XCTUnwrap(webpPage.firstMatch(of: #/<picture><source media=".prefers-reduced-motion: reduce." srcset="([^"]+)"[^>]*><img class="photo-image" src="([^"]+)"/#))
        let webpAnimation = String(webpImage.output.2).replacingOccurrences(of: "../", with: "")
        XCTAssertTrue(webpAnimation.hasSuffix(".webp"), webpAnimation)
        let publishedWebP = try PhotoTools.frames(of: Data(contentsOf: site.publicFolder.appendingPathComponent(webpAnimation)))
        XCTAssertEqual(publishedWebP.count, 3)
        XCTAssertNil(publishedWebP.comment, "no EXIF")
        for still in webpImage.output.1.split(separator: ",").compactMap({ $0.split(separator: " ").first }) {
            let path = String(still).replacingOccurrences(of: "../", with: "")
            XCTAssertEqual(try PhotoTools.frames(of: Data(contentsOf: site.publicFolder.appendingPathComponent(path))).count, 1, path)
        }

        let again = try await site.build()
        XCTAssertTrue(again.upToDate, "the animations are made once")
        XCTAssertTrue(FileManager.default.fileExists(atPath: site.publicFolder.appendingPathComponent(animation).path))
    }
}

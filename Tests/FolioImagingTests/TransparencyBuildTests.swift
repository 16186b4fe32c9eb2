import FolioTestSupport
import Foundation
import XCTest


/// A transparent PNG and a transparent WebP (cut-outs of a real photo) built into a whole site:
/// every file published of them (thumbnails, screen renditions, twins, deep-zoom tiles) keeps
/// their transparency, decoded as a browser would, and pages name them with their own types.
final class TransparencyBuildTests: XCTestCase {
    private let photo = TestSite.repository.appendingPathComponent("content/cc0/rocket.jpg")

    /// Whether the picture is transparent at the left (the cut-out) and opaque at the right.
    private func assertCutOut(_ data: Data, _ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let image = try PhotoTools.pillowRGBA(of: data)
        let row = image.height / 2
        XCTAssertEqual(image.words[row * image.width + 1] >> 24, 0, "\(label): transparent at the left", file: file, line: line)
        XCTAssertEqual(image.words[row * image.width + image.width - 2] >> 24, 255, "\(label): opaque at the right", file: file, line: line)
    }

    private func files(in site: TestSite, _ folder: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: site.publicFolder.appendingPathComponent(folder).path)
            .filter { !$0.hasSuffix("/") && $0.contains(".") }
    }

    func testCutOutsAreTransparentInEveryRenditionOnAJPEGAndOnAWebPSite() async throws {
        for format in ["jpeg", "webp"] {
            let site = try TestSite()
            try site.write(Data(#"{"format": "\#(format)", "screenSizes": [800, 400], "thumbnailSizes": [200]}"#.utf8),
                           to: "folio.json")
            try site.write(try PhotoTools.cutOut(from: photo, width: 1200, height: 800, format: .png), to: "content/logo.png")
            try site.write(try PhotoTools.cutOut(from: photo, width: 600, height: 400, format: .webp), to: "content/sticker.webp")
            try site.photo("opaque.jpg")
            let report = try await site.build()
            XCTAssertTrue(report.succeeded, report.issues.description)
            XCTAssertTrue(try XCTUnwrap(site.database.photo(identifier: try site.identifier("logo.png"))).transparent)
            XCTAssertFalse(try XCTUnwrap(site.database.photo(identifier: try site.identifier("opaque.jpg"))).transparent)

            /// The files a photo's page shows of the photo itself (not of its neighbours).
            func published(_ name: String) throws -> (page: String, files: Set<String>) {
                let record = try XCTUnwrap(site.database.photo(identifier: try site.identifier(name)))
                let page = try site.read("photos/\(try site.identifier(name)).html")
                let files = page.matches(of: /media\/[0-9a-f]{16}-[a-z0-9]+-[0-9a-f]{6}\.(jpg|png|webp|avif)/)
                    .map { String($0.output.0) }.filter { $0.hasPrefix("media/\(record.checksum.prefix(16))-") }
                return (page, Set(files))
            }
            for name in ["logo.png", "sticker.webp"] {
                let (page, published) = try published(name)
                let label = "\(format) site, \(name)"
                XCTAssertFalse(published.isEmpty, label)
                XCTAssertTrue(published.allSatisfy { !$0.hasSuffix(".jpg") && !$0.hasSuffix(".avif") }, "\(label): \(published.sorted())")
                if format == "webp" {
                    XCTAssertTrue(page.contains(#"type="image/webp""#), "\(label): WebP is the <picture>'s source")
                    XCTAssertTrue(published.contains { $0.hasSuffix(".png") } && published.contains { $0.hasSuffix(".webp") },
                                  "\(label): WebP with PNG twins, \(published.sorted())")
                }
                for path in published {
                    try assertCutOut(try Data(contentsOf: site.publicFolder.appendingPathComponent(path)), "\(label): \(path)")
                }
            }

            // Their thumbnails in the home page's rows too.
            let home = try site.read("index.html")
            for name in ["logo.png", "sticker.webp"] {
                let checksum = try XCTUnwrap(site.database.photo(identifier: try site.identifier(name))).checksum.prefix(16)
                let thumbnails = Set(home.matches(of: /media\/[0-9a-f]{16}-thumb[a-z0-9]*-[0-9a-f]{6}\.[a-z]+/)
                    .map { String($0.output) }.filter { $0.hasPrefix("media/\(checksum)-") })
                XCTAssertFalse(thumbnails.isEmpty, "\(format): \(name) on the home page")
                for path in thumbnails {
                    XCTAssertFalse(path.hasSuffix(".jpg"), path)
                    try assertCutOut(try Data(contentsOf: site.publicFolder.appendingPathComponent(path)), "\(format) home: \(path)")
                }
            }

            // The 1200-pixel logo is over the largest screen size: its tiles are PNG, and the
            // top-left one of its full-resolution level is in the transparent third.
            let tiles = try files(in: site, "media/tiles")
            XCTAssertFalse(tiles.isEmpty, format)
            XCTAssertEqual(Set(tiles.map { $0.split(separator: ".").last.map(String.init) ?? "" }), ["png"], "\(format): \(tiles.prefix(4))")
            let corner = try XCTUnwrap(tiles.first { $0.hasSuffix("/11/0_0.png") }, "\(tiles.sorted().prefix(20))")
            let tile = try PhotoTools.pillowRGBA(of: try Data(contentsOf: site.publicFolder.appendingPathComponent("media/tiles/\(corner)")))
            XCTAssertTrue(tile.words.allSatisfy { $0 >> 24 == 0 }, "\(format): the corner tile is all transparent")

            // The opaque photo is still JPEG (or WebP with JPEG twins).
            let opaque = try published("opaque.jpg").files
            XCTAssertTrue(opaque.contains { $0.hasSuffix(".jpg") }, format)
            XCTAssertFalse(opaque.contains { $0.hasSuffix(".png") }, "\(format): \(opaque.sorted())")
        }
    }
}

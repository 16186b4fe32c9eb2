import FolioCore
import FolioPipeline
import FolioTestSupport
import Foundation
import XCTest

/// A photo's renditions are made together, from one decode and each from the one above it, so
/// one made apart would differ in its bytes: a build that misses some makes them all again, and
/// its `public/` is a fresh build's, byte for byte.
final class RenditionDeterminismTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_750_000_000)

    func site(settings: String) throws -> TestSite {
        let site = try TestSite()
        // Photos large enough to be decoded smaller than their size (the demo's).
        let demo = TestSite.repository.appendingPathComponent("content/uncatalogued")
        try site.photo("a/one.jpg", from: demo.appendingPathComponent("harbour-at-dawn.jpg"))
        try site.photo("a/two.jpg", from: demo.appendingPathComponent("lavender-field-at-sunset.jpg"))
        try site.photo("three.jpg", from: demo.appendingPathComponent("milky-way-over-the-dunes.jpg"))
        try site.write(Data(settings.utf8), to: "folio.json")
        for name in ["a/one.jpg", "a/two.jpg", "three.jpg"] {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)],
                                                  ofItemAtPath: site.content.appendingPathComponent(name).path)
        }
        return site
    }

    func assertSame(_ site: TestSite, _ fresh: TestSite, file: StaticString = #filePath, line: UInt = #line) throws {
        let (built, cold) = (try site.publishedFiles(), try fresh.publishedFiles())
        XCTAssertEqual(Set(built.keys), Set(cold.keys), file: file, line: line)
        XCTAssertEqual(built.keys.filter { built[$0] != cold[$0] }.sorted(), [], "a fresh build's bytes", file: file, line: line)
    }

    func testANewThumbnailSizeIsMadeAsAFreshBuildMakesIt() async throws {
        let site = try site(settings: "{}")
        try await site.build(now: now)
        let wider = #"{"thumbnailSizes": [300, 600, 500]}"#
        try site.write(Data(wider.utf8), to: "folio.json")
        let again = try await site.build(now: now)
        XCTAssertTrue(again.succeeded, again.summary)
        let fresh = try self.site(settings: wider)
        try await fresh.build(now: now)
        try assertSame(site, fresh)
    }

    /// The model, the caches and the state gone, `public/` and the tree beside it kept: the
    /// renditions found there are not mixed with new ones made apart.
    func testABuildAfterTheModelIsLostIsAFreshBuilds() async throws {
        let site = try site(settings: "{}")
        try await site.build(now: now)
        for name in ["public", "folio.sqlite", "folio-cache", "folio-state"] {
            try? FileManager.default.removeItem(at: site.root.appendingPathComponent(name))
        }
        try await site.build(now: now)
        let fresh = try self.site(settings: "{}")
        try await fresh.build(now: now)
        try assertSame(site, fresh)
    }
}

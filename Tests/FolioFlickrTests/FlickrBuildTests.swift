@testable import FolioCore
@testable import FolioFlickr
@testable import FolioNetwork
@testable import FolioPipeline
import FolioTestSupport
import Foundation
import XCTest

/// A site fed from Flickr: thumbnails fetched once, when a build needs them, and kept in the
/// model; pages that show Flickr's own sizes with their owner, licence and Flickr page; a
/// favorite's image cached beside the model and published; `folio prune`.
final class FlickrBuildTests: XCTestCase {
    var stub: FlickrStub!

    override func setUp() async throws {
        stub = try await FlickrStub.start()
    }

    override func tearDown() async throws {
        await stub?.stop()
    }

    /// A site with one photo of its own and the fixtures' Flickr photos.
    func importedSite() async throws -> TestSite {
        let site = try TestSite()
        try site.photo("own.jpg")
        try site.catalog("c.plist", [["path": "own.jpg", "name": "My own", "user": "Ansel Test", "place": "Palo Alto, California, United States"]])
        let client = FlickrClient(endpoint: stub.endpoint, apiKey: FlickrStub.apiKey,
                                  retry: RetryPolicy(attempts: 2, sleep: { _ in }))
        _ = try await FlickrImport(client: client, database: try site.database, now: Date(timeIntervalSince1970: 1_700_100_000))
            .run(.init(pages: 2, perPage: 3))
        return site
    }

    func build(_ site: TestSite) async throws -> BuildReport {
        try await SiteBuild(paths: site.paths, options: BuildOptions(
            themeFolder: TestSite.theme, now: Date(timeIntervalSince1970: 1_700_200_000),
            retry: RetryPolicy(attempts: 2, sleep: { _ in }))).run()
    }

    func testAFlickrGalleryBuildsWithThumbnailsFetchedOnce() async throws {
        let site = try await importedSite()
        let report = try await build(site)
        XCTAssertTrue(report.succeeded, report.issues.description)
        XCTAssertEqual(report.photos, 6, "five from Flickr, one of the site's own: one gallery")
        XCTAssertEqual(stub.imageFetches, 5, "one image per Flickr photo, for its thumbnails")
        // The smallest size whose shorter side covers a 600-pixel thumbnail (_b, 1024 × 683, for the
        // two that have one), else the largest there is (_z, 640 pixels, for the others).
        XCTAssertEqual(Set(stub.calls.filter { $0.hasPrefix("image:") }), [
            "image:53124000001_b.jpg", "image:53124000002_z.jpg", "image:53124000003_b.jpg",
            "image:53124000004_z.jpg", "image:53124000005_z.jpg",
        ])
        XCTAssertEqual(try site.database.count("thumbnail"), 12, "two thumbnails each, kept in the model")
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])

        let page = try site.read("photos/f53124000001.html")
        let server = stub.server.url.absoluteString
        XCTAssertTrue(page.contains(#"src="\#(server)img/53124000001_o.jpg""#), "the largest of Flickr's sizes is the image")
        XCTAssertTrue(page.contains("\(server)img/53124000001_z.jpg 640w"), "and every size a srcset candidate")
        XCTAssertTrue(page.contains(#"<a href="https://www.flickr.com/photos/12037949754@N01/53124000001/">Flickr</a>"#), "its Flickr page")
        XCTAssertTrue(page.contains(#"<a href="https://creativecommons.org/licenses/by/2.0/">CC BY 2.0</a>"#), "its licence")
        XCTAssertTrue(page.contains(#"<a href="../people/ansel-test-2.html">Ansel Test</a>"#) ||
                      page.contains(#"<a href="../people/ansel-test.html">Ansel Test</a>"#), "its owner")
        XCTAssertTrue(page.contains("Fog rolling in &amp; out"), "the description as text")
        XCTAssertTrue(page.contains(#"<meta property="og:image" content="\#(server)img/53124000001_o.jpg">"#),
                      "Flickr's image is absolute, so the card has it even without a baseURL")
        XCTAssertFalse(page.contains("og:url"), "but the page's own address needs a baseURL")
        XCTAssertTrue(try site.read("feed.xml").contains("&lt;img src=&quot;\(server)img/53124000001_o.jpg&quot;"),
                      "the feed shows Flickr's image from Flickr")
        XCTAssertFalse(try site.read("photos/f53124000004.html").contains("<script>alert"))
        XCTAssertTrue(try site.read("people/index.html").contains("Ansel Test"))
        let regions = try site.read("regions/index.html")
        XCTAssertTrue(regions.contains("California"))
        XCTAssertTrue(regions.contains("3 photographers"), "two Ansels, Bea; the site's own Ansel is a third person by name: \(regions)")

        // Rebuilt from scratch (public/ gone), or every page drawn again: nothing is fetched again.
        try FileManager.default.removeItem(at: site.publicFolder)
        try site.write(Data(#"{"title": "Again"}"#.utf8), to: "folio.json")
        let again = try await build(site)
        XCTAssertTrue(again.succeeded, again.issues.description)
        XCTAssertEqual(stub.imageFetches, 5, "thumbnails come from the model")
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])
    }

    func testTheKeyIsInNoFileTheSiteHas() async throws {
        let site = try await importedSite()
        _ = try await build(site)
        let key = Data(FlickrStub.apiKey.utf8)
        let walker = FileManager.default.enumerator(at: site.root, includingPropertiesForKeys: [.isRegularFileKey])
        var checked = 0
        while let url = walker?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            XCTAssertNil(try Data(contentsOf: url).range(of: key), "\(url.path) holds the API key")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 20, "the model, public/ and everything beside")
    }

    func testAFavoriteIsCachedPublishedAndSurvivesFlickr() async throws {
        let site = try await importedSite()
        try site.database.setFavorite(true, photo: "f53124000001")
        let report = try await build(site)
        XCTAssertTrue(report.succeeded, report.issues.description)
        let cached = try FileManager.default.contentsOfDirectory(atPath: site.paths.cache.appendingPathComponent("flickr").path)
        XCTAssertEqual(cached.count, 1)
        XCTAssertTrue(cached[0].hasPrefix("53124000001-"))
        XCTAssertTrue(stub.calls.contains("image:53124000001_b.jpg"), "the largest size up to the screen size")
        let page = try site.read("photos/f53124000001.html")
        XCTAssertTrue(page.contains(#"src="../media/"#), "a favorite's image is published with the site")
        XCTAssertTrue(try site.read("favorites/index.html").contains("San Francisco"))

        // Flickr is gone and public/ too: the favorite is built from the cache.
        await stub.stop()
        try FileManager.default.removeItem(at: site.publicFolder)
        try site.write(Data(#"{"title": "Offline"}"#.utf8), to: "folio.json")
        let offline = try await build(site)
        XCTAssertTrue(offline.succeeded, offline.issues.description)
        XCTAssertTrue(try site.read("photos/f53124000001.html").contains(#"src="../media/"#))
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])
        stub = nil
    }

    func testAnImageThatWillNotDownloadLeavesOnlyItsPhotoOut() async throws {
        let site = try await importedSite()
        stub.queue(.status(404), for: "image", times: 1)
        let report = try await build(site)
        XCTAssertEqual(report.failedPhotos.count, 1, report.issues.description)
        XCTAssertTrue(report.errors[0].reason.contains("HTTP 404"), report.errors[0].description)
        XCTAssertEqual(report.photos, 5)
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])
        // Nothing under content/ changed, but a download that failed is no standing problem.
        let retried = try await build(site)
        XCTAssertTrue(retried.succeeded, "the next build fetches it")
        XCTAssertEqual(retried.photos, 6)
    }

    func testPruneRemovesOldPhotosButFavoritesAndWhatTheyLeaveEmpty() async throws {
        let site = try await importedSite()
        try site.database.setFavorite(true, photo: "f53124000001")
        _ = try await build(site)
        // Uploaded 1700000000 (favorite), 1700003600, 1700007200, 1700010800, 1700014400.
        let now = Date(timeIntervalSince1970: 1_700_014_400 + 7200)
        let result = try FlickrPrune.run(paths: site.paths, database: try site.database, olderThan: Age("3h")!, now: now)
        XCTAssertEqual(result.photos, 2, "uploaded more than 3 hours ago, and not a favorite")
        let left = Set(try site.database.snapshot().photos.map(\.photo.identifier))
        XCTAssertEqual(left.filter { $0.hasPrefix("f") }.sorted(), ["f53124000001", "f53124000004", "f53124000005"])
        XCTAssertEqual(try site.database.count("thumbnail"), 8, "the thumbnails of removed photos go with them")
        XCTAssertEqual(result.cacheFiles, 0, "the favorite's cached image stays")
        let counts = try site.database.snapshot().regions.map { "\($0.name) \($0.photographerCount)" }
        XCTAssertEqual(counts, ["California 3"], "counts stay right")

        try site.database.setFavorite(false, photo: "f53124000001")
        let later = try FlickrPrune.run(paths: site.paths, database: try site.database, olderThan: Age("3h")!, now: now)
        XCTAssertEqual([later.photos, later.cacheFiles], [1, 1])
        let report = try await build(site)
        XCTAssertTrue(report.succeeded, report.issues.description)
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])
    }

    func testAgesReadAsPeopleWriteThem() {
        XCTAssertEqual(Age("7d")?.seconds, 604_800)
        XCTAssertEqual(Age("36h")?.description, "36 hours")
        XCTAssertEqual(Age("1w")?.description, "1 week")
        XCTAssertNil(Age("seven days"))
        XCTAssertNil(Age("-3d"))
        XCTAssertNil(Age("3y"))
    }
}

import Foundation
import XCTest
@testable import FolioCore

final class BuildTests: XCTestCase {
    /// A small site: three photos by two people in two places, one favorite, one loose file.
    func fixture() throws -> TestSite {
        let site = try TestSite()
        try site.photo("one.jpg")
        try site.photo("two.jpg", from: TestSite.repository.appendingPathComponent("content/photo2.jpg"))
        try site.photo("loose/harbour-at-dawn.jpg", from: TestSite.repository.appendingPathComponent("content/photo3.jpg"))
        try site.catalog("FakeData.plist", [
            ["path": "one.jpg", "name": "Urban <disaster> & co", "user": "Josh", "description": "Rubble",
             "place": "Palo Alto, California, United States", "favorite": true],
            ["path": "two.jpg", "user": "Al", "place": "Nairobi, Kenya", "taken": Date(timeIntervalSince1970: 1_700_000_000)],
        ])
        return site
    }

    func testBuildsEveryPageWithLinksThatResolve() async throws {
        let site = try fixture()
        let report = try await site.build()
        XCTAssertTrue(report.succeeded, report.issues.description)
        XCTAssertEqual(report.photos, 3)
        XCTAssertEqual(report.renditionsMade, 6)
        for page in ["index.html", "places/index.html", "regions/index.html", "people/index.html", "favorites/index.html",
                     "favorites/all.html", "recents/index.html", "places/nairobi-kenya.html", "regions/kenya.html",
                     "people/josh.html", "people/unknown.html", "assets/style.css"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: site.publicFolder.appendingPathComponent(page).path), page)
        }
        let checks = PublicTreeChecks(root: site.publicFolder)
        XCTAssertEqual(checks.pages.filter { $0.hasPrefix("photos/") }.count, 3)
        XCTAssertEqual(try checks.problems(), [])

        let home = try site.read("index.html")
        XCTAssertTrue(home.contains("Urban &lt;disaster&gt; &amp; co"), "titles are HTML-escaped")
        XCTAssertTrue(home.contains(#"href="places/index.html""#))
        let photo = try site.read("photos/\(try identifier(site, "one.jpg")).html")
        XCTAssertTrue(photo.contains(#"href="../people/josh.html""#))
        XCTAssertTrue(photo.contains(#"href="../regions/california.html""#))
        XCTAssertTrue(photo.contains("Rubble"))
        XCTAssertTrue(try site.read("people/al.html").contains(">Unknown<"), "no title, no description: Unknown")
        XCTAssertTrue(try site.read("people/unknown.html").contains("harbour at dawn"), "a loose file is titled by its name")
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.root.appendingPathComponent("public/folio.sqlite").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: site.paths.database.path))
    }

    func database(_ site: TestSite) throws -> GalleryDatabase { try GalleryDatabase.open(at: site.paths.database) }

    func identifier(_ site: TestSite, _ path: String) throws -> String {
        try XCTUnwrap(database(site).stamps(sourcePrefix: "content:")["content:\(path)"]?.identifier)
    }

    func testARebuildOfUnchangedContentDecodesNothing() async throws {
        let site = try fixture()
        try await site.build()
        let before = try site.read("index.html")
        let report = try await site.build()
        XCTAssertEqual(report.imported, 0)
        XCTAssertEqual(report.renditionsMade, 0)
        XCTAssertEqual(report.renditionsReused, 6)
        XCTAssertEqual(try site.read("index.html"), before)
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])
    }

    func testEditedAndRemovedContentShowsOnTheNextBuild() async throws {
        let site = try fixture()
        try await site.build()
        let two = try identifier(site, "two.jpg")
        try site.catalog("FakeData.plist", [
            ["path": "one.jpg", "name": "Renamed", "user": "Josh", "place": "Palo Alto, California, United States"],
        ])
        let report = try await site.build()
        XCTAssertEqual(report.imported, 2, "one.jpg's record changed; two.jpg lost its record")
        XCTAssertEqual(report.renditionsMade, 0, "record edits change no pixels")
        XCTAssertTrue(try site.read("index.html").contains("Renamed"))
        // two.jpg is still in content/ but no longer catalogued: it is now a loose file.
        XCTAssertTrue(try site.read("people/unknown.html").contains(">two<"))
        XCTAssertTrue(try site.read("favorites/index.html").contains("No favorites yet"))

        try FileManager.default.removeItem(at: site.content.appendingPathComponent("two.jpg"))
        let after = try await site.build()
        XCTAssertEqual(after.removed, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.publicFolder.appendingPathComponent("photos/\(two).html").path))
        XCTAssertFalse(try site.read("places/index.html").contains("Nairobi"))
        XCTAssertEqual(try database(site).count("region"), 1)
    }

    func testOneBadPhotoFailsOnlyThatPhoto() async throws {
        let site = try fixture()
        let good = try Data(contentsOf: TestSite.seedPhoto)
        try site.write(good.prefix(good.count / 3), to: "content/truncated.jpg")
        try site.write(Data("this is not a picture".utf8), to: "content/garbage.jpg")
        try site.catalog("more.plist", [["path": "nowhere.jpg", "name": "Missing"]])
        let report = try await site.build()
        XCTAssertFalse(report.succeeded)
        XCTAssertEqual(report.photos, 3)
        let errors = report.errors.map(\.description).joined(separator: "\n")
        XCTAssertTrue(errors.contains("content/truncated.jpg"), errors)
        XCTAssertTrue(errors.contains("content/garbage.jpg"), errors)
        XCTAssertTrue(errors.contains("content/more.plist, record 0 (nowhere.jpg): image file not found"), errors)
        XCTAssertEqual(report.errors.count, 3)
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])
    }

    func testAnImageOverThePixelLimitIsRefused() async throws {
        let site = try fixture()
        try site.write(Data(#"{"pixelLimit": 1000}"#.utf8), to: "folio.json")
        let report = try await site.build()
        XCTAssertEqual(report.photos, 0)
        XCTAssertEqual(report.errors.count, 3)
        XCTAssertTrue(report.errors[0].reason.contains("limit"), report.errors[0].reason)
    }

    func testAFailedBuildLeavesThePreviousSiteInPlace() async throws {
        let site = try fixture()
        try await site.build()
        let before = try site.read("index.html")
        try site.write(Data(#"{"quality": "high"}"#.utf8), to: "folio.json")
        do {
            try await site.build()
            XCTFail("a bad folio.json must stop the build")
        } catch let error as FolioError {
            XCTAssertTrue(error.description.contains("folio.json"), error.description)
            XCTAssertTrue(error.description.contains("quality"), error.description)
        }
        XCTAssertEqual(try site.read("index.html"), before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: site.root.path).filter { $0.hasPrefix(".public") }
        XCTAssertEqual(leftovers, [])
    }

    func testASiteOverridesTemplatesAndAssetsFileByFile() async throws {
        let site = try fixture()
        try site.write(Data("{{<layout}}{{$main}}<p id=\"custom\">{{page.photo.title}}</p>{{/main}}{{/layout}}".utf8),
                       to: "templates/photo.mustache")
        try site.write(Data("body{color:red}".utf8), to: "templates/assets/style.css")
        try site.write(Data("x".utf8), to: "templates/assets/extra.txt")
        let report = try await site.build()
        XCTAssertTrue(report.succeeded)
        let photo = try site.read("photos/\(try identifier(site, "one.jpg")).html")
        XCTAssertTrue(photo.contains(#"<p id="custom">Urban &lt;disaster&gt; &amp; co</p>"#))
        XCTAssertTrue(try site.read("index.html").contains("Latest photos"), "other templates stay the default ones")
        XCTAssertEqual(try site.read("assets/style.css"), "body{color:red}")
        XCTAssertEqual(try site.read("assets/extra.txt"), "x")
    }

    func testABrokenTemplateIsReportedWithItsLine() async throws {
        let site = try fixture()
        try site.write(Data("<p>\n{{#page}}unclosed".utf8), to: "templates/photo.mustache")
        do {
            try await site.build()
            XCTFail("a broken template must stop the build")
        } catch let error as FolioError {
            XCTAssertTrue(error.description.contains("templates/photo.mustache"), error.description)
            XCTAssertTrue(error.description.contains("line 2"), error.description)
        }
    }

    func testAFolderOfPhotosWithNoCatalogBuilds() async throws {
        let site = try TestSite()
        try site.photo("2024/spring/first.jpg")
        try site.photo("2024/summer/second.jpg")
        let report = try await site.build()
        XCTAssertTrue(report.succeeded)
        XCTAssertEqual(report.photos, 2)
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])
    }

    func testAFolderWithoutContentIsNotASite() async throws {
        let site = try TestSite()
        try FileManager.default.removeItem(at: site.content)
        do {
            try await site.build()
            XCTFail("no content/, no build")
        } catch let error as FolioError {
            XCTAssertTrue(error.description.contains("no content/ folder"), error.description)
        }
    }
}

@testable import FolioCore
@testable import FolioMedia
@testable import FolioModel
@testable import FolioPipeline
@testable import FolioSite
import FolioChanges
import FolioTestSupport
import Foundation
import XCTest

final class BuildTests: XCTestCase {
    func fixture() throws -> TestSite { try TestSite.threePhotos() }

    func testBuildsEveryPageWithLinksThatResolve() async throws {
        let site = try fixture()
        let report = try await site.build()
        XCTAssertTrue(report.succeeded, report.issues.description)
        XCTAssertEqual(report.photos, 3)
        // Per photo (500 px wide): thumbnails of 375 and 200, one screen size (800 and 1600 both give
        // 500), and a row rendition 260 high (the 520-high one is the screen rendition's size: it is that).
        XCTAssertEqual(report.renditionsMade, 12)
        for page in ["index.html", "places/index.html", "regions/index.html", "people/index.html", "favorites/index.html",
                     "favorites/all.html", "recents/index.html", "places/nairobi-kenya.html", "regions/kenya.html",
                     "people/josh.html", "assets/style.css"] {
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
        let loose = try site.read("photos/\(try identifier(site, "loose/harbour-at-dawn.jpg")).html")
        XCTAssertTrue(loose.contains("<h1>harbour at dawn"), "a loose file is titled by its name")
        XCTAssertFalse(loose.contains("people/unknown.html"), "and is no one's")
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.publicFolder.appendingPathComponent("people/unknown.html").path),
                       "no one named has no page")
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.root.appendingPathComponent("public/folio.sqlite").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: site.paths.database.path))
    }

    func database(_ site: TestSite) throws -> GalleryDatabase { try site.database }

    func identifier(_ site: TestSite, _ path: String) throws -> String { try site.identifier(path) }

    func testARebuildOfUnchangedContentDecodesNothing() async throws {
        let site = try fixture()
        try await site.build()
        let before = try site.read("index.html")
        let report = try await site.build()
        XCTAssertEqual(report.imported, 0)
        XCTAssertEqual(report.renditionsMade, 0)
        XCTAssertTrue(report.upToDate, "nothing changed: the build stops after the import")
        XCTAssertEqual(report.pagesWritten, 0)
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
        XCTAssertTrue(try site.read("photos/\(two).html").contains("<h1>two"))
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
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: site.root.path)
            .filter { $0.hasPrefix(".public") && $0 != ".public.next" }
        XCTAssertEqual(leftovers, [], "nothing beside public/ but the tree the next build makes its site in")
    }

    func testAMisspeltSettingIsAWarningThatNamesTheMeantOne() async throws {
        let site = try fixture()
        try site.write(Data(#"{"thumbnailSize": 300, "quality": 70, "color": "keep", "shade": "red"}"#.utf8), to: "folio.json")
        let report = try await site.build()
        XCTAssertTrue(report.succeeded, "unknown keys do not stop a build")
        XCTAssertEqual(report.issues.filter { $0.severity == .warning }.map(\.description), [
            "warning: folio.json: unknown setting 'color' is ignored (did you mean 'colour'?)",
            "warning: folio.json: unknown setting 'shade' is ignored",
            "warning: folio.json: unknown setting 'thumbnailSize' is ignored (did you mean 'thumbnailSizes'?)",
        ])
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

    /// A build that is not a no-op takes the theme's unchanged assets over as an unchanged page
    /// is (the same file: a host that tags files by their modification time sends them again
    /// otherwise), and writes the one whose bytes changed.
    func testAnEditKeepsTheThemesUnchangedAssetsAndWritesAChangedOne() async throws {
        let site = try fixture()
        try site.write(Data("x".utf8), to: "templates/assets/extra.txt")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        try await site.build(now: now)
        func inode(_ relative: String) -> UInt64 {
            var info = stat()
            XCTAssertEqual(lstat(site.publicFolder.appendingPathComponent(relative).path, &info), 0, relative)
            return UInt64(info.st_ino)
        }
        let assets = ["assets/style.css", "assets/folio.js", "assets/extra.txt"]
        let first = assets.map(inode)

        try database(site).setFavorite(true, photo: try identifier(site, "two.jpg"))
        let edit = try await site.build(now: now.addingTimeInterval(60))
        XCTAssertFalse(edit.upToDate)
        XCTAssertGreaterThan(edit.pagesWritten, 0)
        XCTAssertEqual(assets.map(inode), first, "the same files as the last build published")

        try site.write(Data("y".utf8), to: "templates/assets/extra.txt")
        try await site.build(now: now.addingTimeInterval(120))
        XCTAssertEqual(try site.read("assets/extra.txt"), "y")
        XCTAssertNotEqual(inode("assets/extra.txt"), first[2])
        XCTAssertEqual(inode("assets/style.css"), first[0])
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

    func files(_ site: TestSite, under folder: String) -> Set<String> {
        let walker = FileManager.default.enumerator(atPath: site.publicFolder.appendingPathComponent(folder).path)
        var found = Set<String>()
        while let path = walker?.nextObject() as? String { found.insert(path) }
        return found
    }

    func testANoOpBuildStopsAfterTheImportAndTouchesNothing() async throws {
        let site = try fixture()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        try await site.build(now: now)
        let index = site.publicFolder.appendingPathComponent("index.html")
        let modified = try FileManager.default.attributesOfItem(atPath: index.path)[.modificationDate] as? Date
        let report = try await site.build(now: now.addingTimeInterval(60))
        XCTAssertTrue(report.upToDate)
        XCTAssertEqual(report.photos, 3)
        XCTAssertEqual(report.pagesWritten, 0)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: index.path)[.modificationDate] as? Date, modified)

        // Anything a page shows changing makes it a real build again: a favorite set by hand.
        try database(site).setFavorite(true, photo: try identifier(site, "two.jpg"))
        let after = try await site.build(now: now.addingTimeInterval(120))
        XCTAssertFalse(after.upToDate)
        XCTAssertGreaterThan(after.pagesWritten, 0)
        XCTAssertLessThan(after.pagesWritten, after.pages, "pages the favorite does not touch are left as they were")
        XCTAssertLessThan(after.pagesRendered, after.pages, "nor even rendered again")
        XCTAssertGreaterThanOrEqual(after.pagesRendered, after.pagesWritten)
        XCTAssertTrue(try site.read("favorites/index.html").contains("Nairobi"))

        // A theme or settings change draws every page anew, even with the same values.
        try site.write(Data(#"{"title": "Another title"}"#.utf8), to: "folio.json")
        let retitled = try await site.build(now: now.addingTimeInterval(180))
        XCTAssertEqual(retitled.pagesRendered, retitled.pages)
        XCTAssertTrue(try site.read("photos/\(try identifier(site, "one.jpg")).html").contains("Another title"))
    }

    func testAPageFingerprintFollowsItsValuesAndItsDrawing() throws {
        var page = SearchPage(frame: PageFrame(.photo(identifier: "p1"), title: "Harbour"))
        func input(_ drawing: String) -> UInt64 { PageManifest.input(key: ValueDigest.of(page), drawing: drawing) }
        let first = input("theme-1")
        XCTAssertEqual(input("theme-1"), first)
        XCTAssertNotEqual(input("theme-2"), first)
        page.frame.crumbs = [Crumb(title: "Places", href: "places/index.html")]
        let crumbed = input("theme-1")
        XCTAssertNotEqual(crumbed, first)
        page.frame.subheading = ""
        XCTAssertNotEqual(input("theme-1"), crumbed, "empty is not absent")
    }

    func testARecentPhotoKeepsTheSiteFromBeingUpToDateAsItsHoursGoBy() async throws {
        let site = try TestSite()
        try site.photo("now.jpg")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        try site.catalog("c.plist", [["path": "now.jpg", "name": "Now", "place": "Lyon, France", "taken": now.addingTimeInterval(-1800)]])
        try await site.build(now: now)
        XCTAssertTrue(try site.read("places/lyon-france.html").contains("Within the last hour"))
        let later = try await site.build(now: now.addingTimeInterval(3 * 3600))
        XCTAssertFalse(later.upToDate)
        XCTAssertTrue(try site.read("places/lyon-france.html").contains("3 hours ago"))
    }

    func testLargePhotosGetADeepZoomPyramidAndEveryWidthForSrcset() async throws {
        let site = try TestSite()
        try site.write(try SamplePhoto(width: 2400, height: 1600, seed: 5).jpeg(), to: "content/big.jpg")
        let report = try await site.build()
        XCTAssertTrue(report.succeeded, report.issues.description)
        let big = try identifier(site, "big.jpg")
        let tiles = files(site, under: "media/tiles").filter { $0.hasSuffix(".jpg") }
        // 2400x1600: level 12 (4096 ≥ 2400) in 10x7 tiles; level 11 (1200) is covered by the screen rendition.
        XCTAssertEqual(tiles.count, 70)
        XCTAssertTrue(tiles.allSatisfy { $0.contains("/12/") })
        let media = files(site, under: "media").filter { !$0.hasPrefix("tiles") }
        XCTAssertEqual(media.filter { $0.contains("-screen-") }.count, 1)
        XCTAssertEqual(media.filter { $0.contains("-w1000-") }.count, 1)
        XCTAssertEqual(media.filter { $0.contains("-w500-") }.count, 1)
        XCTAssertEqual(media.filter { $0.contains("-thumb") }.count, 2)
        let page = try site.read("photos/\(big).html")
        XCTAssertTrue(page.contains("-w1000-") && page.contains("-w500-"), "the 1000 and 500 wide renditions are srcset candidates")
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])
    }

    func testAWebPSiteOffersJPEGTwinsThroughPicture() async throws {
        try await checkPictureSite(.webp, signature: { $0.dropFirst(8).prefix(4) == Data("WEBP".utf8) })
    }

    func testAnAVIFSiteOffersJPEGTwinsThroughPicture() async throws {
        try await checkPictureSite(.avif, signature: { $0.dropFirst(4).prefix(8) == Data("ftypavif".utf8) })
    }

    func checkPictureSite(_ format: EncodedFormat, signature: (Data) -> Bool, file: StaticString = #filePath, line: UInt = #line) async throws {
        let site = try TestSite()
        try site.write(try SamplePhoto(width: 2400, height: 1600, seed: 9).jpeg(), to: "content/big.jpg")
        try site.write(Data(#"{"format": "\#(format.rawValue)"}"#.utf8), to: "folio.json")
        let report = try await site.build()
        XCTAssertTrue(report.succeeded, report.issues.description, file: file, line: line)
        let ext = format.fileExtension
        let media = files(site, under: "media").filter { !$0.hasPrefix("tiles") }
        let modern = media.filter { $0.hasSuffix(".\(ext)") }, jpeg = media.filter { $0.hasSuffix(".jpg") }
        XCTAssertEqual(modern.count, 7, "thumb, thumb300, screen, w1000, w500, row, row260", file: file, line: line)
        func named(_ file: String) -> String { file.replacingOccurrences(of: "-[0-9a-f]{6}\\.[a-z]+$", with: "", options: .regularExpression) }
        XCTAssertEqual(Set(jpeg.map(named)), Set(modern.map(named)), "a JPEG twin of every rendition", file: file, line: line)
        for name in modern.union(jpeg) {
            let bytes = try Data(contentsOf: site.publicFolder.appendingPathComponent("media/\(name)"))
            XCTAssertTrue(name.hasSuffix(".jpg") ? bytes.starts(with: [0xFF, 0xD8, 0xFF]) : signature(bytes), name, file: file, line: line)
        }
        let tiles = files(site, under: "media/tiles").filter { !RelativePath($0).pathExtension.isEmpty }
        XCTAssertFalse(tiles.isEmpty, file: file, line: line)
        XCTAssertTrue(tiles.allSatisfy { $0.hasSuffix(".jpg") }, "tiles stay JPEG: the viewer has no fallback for them", file: file, line: line)

        let page = try site.read("photos/\(try identifier(site, "big.jpg")).html")
        let picture = try XCTUnwrap(PublicTreeChecks.matches(#"(<picture>.*?</picture>)"#, in: page).first, file: file, line: line)
        XCTAssertTrue(picture.contains(#"<source type="\#(format.mimeType)" srcset=""#), picture, file: file, line: line)
        XCTAssertTrue(picture.contains("-w1000-") && picture.contains(".\(ext) 1000w"), picture, file: file, line: line)
        let img = try XCTUnwrap(PublicTreeChecks.matches(#"(<img class="photo-image"[^>]*>)"#, in: picture).first, file: file, line: line)
        XCTAssertTrue(img.contains(".jpg\"") && !img.contains(".\(ext)"), "the img itself is the JPEG fallback: \(img)", file: file, line: line)
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [], file: file, line: line)

        // Back to JPEG: no picture left, and the other format's files go.
        try site.write(Data("{}".utf8), to: "folio.json")
        try await site.build()
        XCTAssertFalse(try site.read("photos/\(try identifier(site, "big.jpg")).html").contains("<picture>"), file: file, line: line)
        XCTAssertTrue(files(site, under: "media").allSatisfy { !$0.hasSuffix(".\(ext)") }, file: file, line: line)
    }

    func testAVIFIsWrittenAtALowerQualityThanJPEGAndTwinsAtJPEGs() {
        var settings = SiteSettings()
        settings.format = .avif
        settings.quality = 80
        let set = RenditionSet(settings)
        XCTAssertEqual(set.screens.map(\.quality), [60, 60, 60])
        XCTAssertEqual(set.fallback(of: set.screens[0])?.quality, 80)
        XCTAssertEqual(set.fallback(of: set.screens[0])?.format, .jpeg)
        XCTAssertEqual(set.tiles?.format, .jpeg)
        settings.format = .jpeg
        XCTAssertNil(RenditionSet(settings).fallback(of: set.screens[0]), "a JPEG site makes no twins")
    }

    func testMediaNoPageUsesAreDeletedOnceTheNewSiteIsInPlace() async throws {
        let site = try fixture()
        try await site.build()
        let before = files(site, under: "media")
        XCTAssertEqual(before.count, 12)
        try site.write(Data(#"{"quality": 60}"#.utf8), to: "folio.json")
        let report = try await site.build()
        XCTAssertEqual(report.renditionsMade, 12, "a new quality remakes every rendition")
        let after = files(site, under: "media")
        XCTAssertEqual(after.count, 12)
        XCTAssertTrue(after.isDisjoint(with: before), "the old renditions are gone")
        XCTAssertEqual(try database(site).count("thumbnail"), 6, "only the thumbnails of the current settings are kept")

        try FileManager.default.removeItem(at: site.content.appendingPathComponent("two.jpg"))
        try await site.build()
        XCTAssertEqual(files(site, under: "media").count, 8)
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])
    }
}

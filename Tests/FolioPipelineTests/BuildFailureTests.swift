@testable import FolioCore
@testable import FolioModel
@testable import FolioPipeline
@testable import FolioSite
import FolioTestSupport
import Foundation
import GRDB
import XCTest

/// A failure belongs to one build, never to the model: what fails is left out of that build,
/// reported, and comes back untouched once its file is good again.
final class BuildFailureTests: XCTestCase {
    func row(_ site: TestSite, _ path: String) throws -> Photo {
        try XCTUnwrap(try site.database.photo(identifier: try site.identifier(path)))
    }

    func testAFavoriteSetByHandSurvivesAFileThatWouldNotDecode() async throws {
        let site = try TestSite.threePhotos()
        try await site.build()
        let two = try site.identifier("two.jpg")
        try site.database.setFavorite(true, photo: two)
        let good = try Data(contentsOf: site.content.appendingPathComponent("two.jpg"))

        // Half copied: the header reads, the pixels do not.
        try site.write(good.prefix(good.count / 3), to: "content/two.jpg")
        let broken = try await site.build()
        XCTAssertFalse(broken.succeeded)
        XCTAssertEqual(broken.failedPhotos, [.content(path: "two.jpg")])
        XCTAssertTrue(broken.summary.contains("1 photo failed"), broken.summary)
        let kept = try row(site, "two.jpg")
        XCTAssertTrue(kept.favorite, "the model keeps what the user set")
        XCTAssertNotNil(kept.placeId)
        XCTAssertTrue(kept.lastError?.contains("corrupt or truncated JPEG") == true, kept.lastError ?? "no error recorded")
        XCTAssertFalse(site.exists("photos/\(two).html"), "left out of this build")
        XCTAssertFalse(try site.read("places/index.html").contains("Nairobi"), "its place has no other photo to show")
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])

        try site.write(good, to: "content/two.jpg")
        let restored = try await site.build()
        XCTAssertTrue(restored.succeeded, restored.issues.description)
        XCTAssertEqual(restored.failedPhotos, [])
        XCTAssertTrue(site.exists("photos/\(two).html"))
        let back = try row(site, "two.jpg")
        XCTAssertTrue(back.favorite, "the favorite comes back with the photo")
        XCTAssertNil(back.lastError)
        XCTAssertTrue(try site.read("favorites/index.html").contains("Nairobi"))
    }

    func testAPhotoWhoseFileWillNotReadKeepsItsRowAndComesBack() async throws {
        let site = try TestSite.threePhotos()
        try await site.build()
        let two = try site.identifier("two.jpg")
        try site.database.setFavorite(true, photo: two)
        let good = try Data(contentsOf: site.content.appendingPathComponent("two.jpg"))
        let before = try row(site, "two.jpg")

        try site.write(Data("not a photo any more".utf8), to: "content/two.jpg")
        let broken = try await site.build()
        XCTAssertEqual(broken.errors.map(\.description), [
            "error: content/FakeData.plist, record 1 (two.jpg): not an image (unknown format)",
        ])
        XCTAssertEqual(broken.failedPhotos, [.content(path: "two.jpg")])
        var kept = try row(site, "two.jpg")
        XCTAssertEqual(kept.lastError, "not an image (unknown format)")
        kept.lastError = nil
        XCTAssertEqual(kept, before, "the row is as the last good import left it, favorite and all")
        XCTAssertFalse(site.exists("photos/\(two).html"))
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])

        try site.write(good, to: "content/two.jpg")
        let restored = try await site.build()
        XCTAssertTrue(restored.succeeded, restored.issues.description)
        XCTAssertEqual(try row(site, "two.jpg").favorite, true)
        XCTAssertTrue(site.exists("photos/\(two).html"))
    }

    /// What a build had to say (a photo that failed, a warning, a file skipped) stands until its
    /// cause changes: a build that finds content/ as it was says it all again, with the same
    /// outcome, from the mark, without reading a catalog or drawing a page; the model's problems
    /// are left as they were. Mending the file builds again, and then the site is quiet.
    func testWhatABuildSaidIsSaidAgainWithoutReadingAnythingUntilItsCauseChanges() async throws {
        let site = try TestSite.threePhotos()
        let good = try Data(contentsOf: site.content.appendingPathComponent("two.jpg"))
        try site.write(good.prefix(good.count / 3), to: "content/two.jpg")
        try site.write(Data("notes".utf8), to: "content/notes.txt")
        try site.write(Data(#"{"title": "Standing", "mapPrecison": 2}"#.utf8), to: "folio.json")
        let broken = try await site.build()
        XCTAssertFalse(broken.succeeded)
        XCTAssertEqual(broken.failedPhotos, [.content(path: "two.jpg")])
        XCTAssertFalse(broken.warnings.isEmpty, "the misspelt setting is a warning")
        XCTAssertEqual(broken.skipped.map(\.path), ["notes.txt"])
        let problems = try site.database.problems()
        let index = try site.read("index.html")

        let again = try await site.build()
        XCTAssertTrue(again.upToDate, "nothing changed: the build stops after its walk of content/")
        XCTAssertEqual(again.issues, broken.issues)
        XCTAssertEqual(again.failedPhotos, broken.failedPhotos)
        XCTAssertEqual(again.skipped, broken.skipped)
        XCTAssertEqual(again.skippedLines, broken.skippedLines)
        XCTAssertFalse(again.succeeded, "the same outcome, for the deploy script")
        XCTAssertEqual(again.stepTimes.map(\.0), [ConfigureStep.name, WalkContentStep.name], "nothing read past the walk")
        XCTAssertEqual(try site.database.problems(), problems)
        XCTAssertEqual(try site.read("index.html"), index)

        try site.write(good, to: "content/two.jpg")
        let mended = try await site.build()
        XCTAssertFalse(mended.upToDate)
        XCTAssertEqual(mended.failedPhotos, [])
        XCTAssertTrue(mended.succeeded, mended.issues.description)
        XCTAssertTrue(site.exists("photos/\(try site.identifier("two.jpg")).html"))
        XCTAssertEqual(mended.skipped.map(\.path), ["notes.txt"], "the file still skipped is still said")

        try FileManager.default.removeItem(at: site.content.appendingPathComponent("notes.txt"))
        try site.write(Data(#"{"title": "Standing"}"#.utf8), to: "folio.json")
        let quiet = try await site.build()
        XCTAssertTrue(quiet.issues.isEmpty && quiet.skipped.isEmpty, quiet.issues.description)
        let still = try await site.build()
        XCTAssertTrue(still.upToDate)
        XCTAssertTrue(still.issues.isEmpty && still.skipped.isEmpty && still.failedPhotos.isEmpty)
        XCTAssertEqual(still.stepTimes.map(\.0), [ConfigureStep.name, WalkContentStep.name])
    }

    func testTwinsOfAPhotoThatFailsAreAllLeftOutAndReported() async throws {
        let site = try TestSite.threePhotos()
        let good = try Data(contentsOf: TestSite.seedPhoto)
        let truncated = good.prefix(good.count / 3)
        try site.write(truncated, to: "content/twin-a.jpg")
        try site.write(truncated, to: "content/twin-b.jpg")
        try site.write(truncated, to: "content/more/twin-c.jpg")
        let report = try await site.build()
        XCTAssertEqual(report.failedPhotos, [.content(path: "more/twin-c.jpg"), .content(path: "twin-a.jpg"), .content(path: "twin-b.jpg")])
        let errors = report.errors.map(\.description)
        XCTAssertEqual(errors.count, 3, errors.joined(separator: "\n"))
        for path in ["twin-a.jpg", "twin-b.jpg", "more/twin-c.jpg"] {
            XCTAssertTrue(errors.contains { $0.contains("content/\(path)") }, "\(path) is reported: \(errors)")
        }
        XCTAssertTrue(errors.contains { $0.contains("has the same bytes as content/") }, errors.joined(separator: "\n"))
        XCTAssertEqual(report.photos, 3, "the three good photos are published")
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [], "no page points at media never made")
        XCTAssertEqual(try site.database.failingPhotos().count, 3)
    }

    func testReservedPageNamesGetAnotherSlug() async throws {
        let site = try TestSite()
        try site.photo("a.jpg")
        try site.photo("b.jpg", from: TestSite.repository.appendingPathComponent("content/photo2.jpg"))
        try site.catalog("c.plist", [
            ["path": "a.jpg", "name": "First", "user": "Index", "place": "All", "favorite": true],
            ["path": "b.jpg", "name": "Second", "user": "All", "place": "Lyon, France", "region": "Index"],
        ])
        let report = try await site.build()
        XCTAssertTrue(report.succeeded, report.issues.description)
        let people = try site.read("people/index.html")
        XCTAssertTrue(people.contains("<h1>People</h1>"), "the People page is still the People page")
        XCTAssertTrue(people.contains(#"href="../people/index-2.html""#), people)
        XCTAssertTrue(try site.read("people/index-2.html").contains("<h1>Index</h1>"))
        XCTAssertTrue(try site.read("people/all-2.html").contains("<h1>All</h1>"), "reserved in every folder alike")
        XCTAssertTrue(try site.read("places/index.html").contains("<h1>Places</h1>"))
        XCTAssertTrue(try site.read("places/all-2.html").contains("<h1>All</h1>"))
        XCTAssertTrue(try site.read("favorites/all.html").contains("All places"), "the switch's page is still the switch's")
        XCTAssertTrue(site.exists("favorites/all-2.html"), "the favorites of the place All")
        XCTAssertTrue(try site.read("regions/index.html").contains("<h1>Top Regions</h1>"))
        XCTAssertTrue(try site.read("regions/index-2.html").contains("<h1>Index</h1>"))
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])
    }

    func testTwoPagesOnOnePathAreAnErrorNamingBoth() throws {
        let database = try GalleryDatabase.inMemory()
        try database.apply(ImportBatch(upserts: [PhotoImport(source: .content(path: "x.jpg"), identifier: "x", title: "X", person: "X",
                                                             uploaded: Date(), width: 4, height: 3, checksum: "c1")]))
        let builder = SiteBuilder(snapshot: try database.snapshot(), media: [:], settings: SiteSettings(), now: Date())
        // An unlisted album's photo in a folder that happens to be a person's.
        let person = (route: Route.person(slug: "x"), builder: 0)
        let photo = (route: Route.unlistedPhoto(folder: "people/", identifier: "x"), builder: 0)
        XCTAssertThrowsError(try SiteBuilder.checkPaths([person, photo], of: [builder])) { error in
            XCTAssertEqual("\(error)", "people/x.html: two pages would be written here: person 'X' and photo content/x.jpg")
        }
        XCTAssertNoThrow(try SiteBuilder.checkPaths([person], of: [builder]))
        // A listed photo's page meets only a page of another kind under photos/.
        let listed = (route: Route.photo(identifier: "x"), builder: 0)
        let under = (route: Route.unlistedPhoto(folder: "photos/", identifier: "x"), builder: 0)
        XCTAssertThrowsError(try SiteBuilder.checkPaths([listed, person, under], of: [builder])) { error in
            XCTAssertEqual("\(error)", "photos/x.html: two pages would be written here: photo content/x.jpg and photo content/x.jpg")
        }
        XCTAssertNoThrow(try SiteBuilder.checkPaths([listed, person, (route: Route.unlistedPhoto(folder: "photos/", identifier: "y"), builder: 0)],
                                                    of: [builder]))
    }

    func testAnErrorNamesTheStepItHappenedIn() async throws {
        let site = try TestSite.threePhotos()
        try site.write(Data("{{#page}}unclosed".utf8), to: "templates/photo.mustache")
        do {
            try await site.build()
            XCTFail("a broken template stops the build")
        } catch let error as FolioError {
            XCTAssertEqual(error.step, "configure")
            XCTAssertTrue(error.description.hasSuffix("(in step 'configure')"), error.description)
        }
    }

    /// The file system as it is, but for one folder that will not open (as for a user without
    /// permission on it; tests run as root, for whom mode 000 stops nothing).
    struct LockedFolder: FileAccess {
        let locked: String
        let files = LocalFileAccess()

        func read(_ url: URL) throws -> Data { try files.read(url) }
        func stamp(of url: URL) -> FileStamp? { files.stamp(of: url) }
        func isFolder(_ url: URL) -> Bool { files.isFolder(url) }
        func realPath(_ url: URL) -> String { files.realPath(url) }
        func entries(under root: URL) throws -> [FileEntry] { try files.entries(under: root) }
        func listing(under root: URL) throws -> FolderListing {
            let all = try files.listing(under: root)
            return FolderListing(entries: all.entries.filter { !$0.path.hasPrefix(locked + "/") },
                                 unreadable: [(locked, "cannot be read: Permission denied")])
        }
    }

    func testAFolderThatWillNotOpenIsLeftOutAndItsPhotosKeptUntilItOpens() async throws {
        let site = try TestSite.threePhotos()
        try site.photo("private/cat.jpg", from: TestSite.repository.appendingPathComponent("content/photo2.jpg"))
        try await site.build()
        let cat = try site.identifier("private/cat.jpg")
        XCTAssertTrue(try site.database.setFavorite(true, photo: cat))

        var options = BuildOptions(themeFolder: TestSite.theme)
        options.files = LockedFolder(locked: "private")
        let locked = try await SiteBuild(paths: site.paths, options: options).run()
        XCTAssertEqual(locked.issues, [.error("content/private/", "cannot be read: Permission denied; the photos in it are left out")])
        XCTAssertEqual(locked.removed, 0, "not gone, only unseen")
        XCTAssertEqual(locked.failedPhotos, [.content(path: "private/cat.jpg")])
        XCTAssertEqual(locked.photos, 3, "the rest is built")
        XCTAssertFalse(site.exists("photos/\(cat).html"))
        XCTAssertNil(try row(site, "private/cat.jpg").lastError, "nothing is wrong with the photo itself")
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])

        let open = try await site.build()
        XCTAssertEqual(open.issues, [])
        XCTAssertEqual(open.imported, 0, "unchanged, not read again")
        XCTAssertTrue(site.exists("photos/\(cat).html"))
        XCTAssertTrue(try row(site, "private/cat.jpg").favorite, "what the user set on it is kept")
    }
}

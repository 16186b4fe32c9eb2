@testable import FolioContent
@testable import FolioCore
import FolioTestSupport
import Foundation
import XCTest

/// What must not be published: `.nomedia` as sigal and Android read it, and the site's `exclude`
/// patterns. Nothing left out may reach any page, index, feed, sitemap, card, count or media file.
final class ExclusionTests: XCTestCase {
    func pattern(_ text: String) throws -> ExcludePattern { try ExcludePattern.parse(text).get() }

    func testEachKindOfPattern() throws {
        let cases: [(String, [String], [String])] = [
            // pattern, left out, kept
            ("*.tmp.jpg", ["a.tmp.jpg", "x/y/b.tmp.jpg"], ["a.jpg", "tmp.jpg.x", "a.tmp.jpg.keep/c.jpg2"]),
            ("Private", ["Private/a.jpg", "x/Private/y/b.jpg", "Private"], ["private/a.jpg", "Privateer/a.jpg", "x/aPrivate.jpg"]),
            ("**/Private/**", ["Private/a.jpg", "x/Private/y/b.jpg"], ["x/PrivateEye/a.jpg", "private/a.jpg"]),
            ("trips/2019", ["trips/2019/a.jpg", "trips/2019/x/b.jpg"], ["trips/2020/a.jpg", "x/trips/2019/a.jpg", "trips/20190/a.jpg"]),
            ("/trips/2019/", ["trips/2019/a.jpg"], ["x/trips/2019/a.jpg"]),
            ("trips/*/raw/**", ["trips/2019/raw/a.jpg", "trips/x/raw/y/z.jpg"], ["trips/raw/a.jpg", "trips/2019/edited/a.jpg"]),
            ("IMG_00??.JPG", ["IMG_0012.JPG", "x/IMG_00ab.JPG"], ["IMG_012.JPG", "IMG_00123.JPG", "img_0012.jpg"]),
            ("[!a-m]*.jpg", ["x.jpg", "Z.jpg", "sub/zed.jpg"], ["a.jpg", "mid.jpg"]),
            ("[ab]?.png", ["a1.png", "bz.png"], ["c1.png", "a.png"]),
            ("**", ["a.jpg", "x/y.jpg"], []),
            ("**/*.nef.jpg", ["a.nef.jpg", "x/y/b.nef.jpg"], ["a.jpg"]),
            ("caf\u{E9}", ["caf\u{E9}/a.jpg"], ["cafe\u{301}/a.jpg"]),
            (#"\*literal"#, ["*literal"], ["xliteral"]),
            ("*a*a*a*a*a*a*a*a*b", [], [String(repeating: "a", count: 200)]),
        ]
        for (text, out, kept) in cases {
            let glob = try pattern(text)
            for path in out { XCTAssertTrue(glob.matches(RelativePath(path)), "\(text) leaves out \(path)") }
            for path in kept { XCTAssertFalse(glob.matches(RelativePath(path)), "\(text) keeps \(path)") }
        }
    }

    /// sigal's own sample: `nomedia/ignored/.nomedia` is empty, `nomedia/created/.nomedia` names
    /// a photo and a folder.
    static func sigalLayout(_ site: TestSite) throws {
        for (index, path) in ["pictures/nomedia/created/should_be_created.jpg", "pictures/nomedia/created/should_be_ignored3.jpg",
                              "pictures/nomedia/created/ignored/should_be_ignored2.jpg",
                              "pictures/nomedia/ignored/should_be_ignored_1.jpg",
                              "pictures/nomedia/ignored/recursively_ignored/should_be_ignored.jpg",
                              "pictures/kept/harbour.jpg"].enumerated() {
            try site.write(try TestInputs.photo(index), to: "content/\(path)")
        }
        try site.write(Data("should_be_ignored3.jpg\nignored\n".utf8), to: "content/pictures/nomedia/created/.nomedia")
        try site.write(Data(), to: "content/pictures/nomedia/ignored/.nomedia")
    }

    func testNomediaLeavesOutWhatSigalAndAndroidLeaveOut() async throws {
        let site = try TestSite()
        try Self.sigalLayout(site)
        // A catalog naming a left-out photo follows the stricter rule, without a word.
        try site.catalog("c.plist", [["path": "pictures/nomedia/ignored/should_be_ignored_1.jpg", "name": "Catalogued secret"],
                                     ["path": "pictures/kept/harbour.jpg", "name": "Harbour"]])
        // A catalog inside a left-out folder is not read at all.
        try site.catalog("pictures/nomedia/ignored/inner.plist", [["path": "../../kept/harbour.jpg", "name": "Hijacked"]])
        let report = try await site.build()
        XCTAssertEqual(report.issues.map(\.description), [])
        XCTAssertEqual(report.photos, 2)
        XCTAssertEqual(report.skippedLines, ["left out 5 files: 3 by content/pictures/nomedia/ignored/.nomedia, "
                                             + "2 by content/pictures/nomedia/created/.nomedia"])
        let sources = Set(try site.database.knownPhotos(of: .content).keys.compactMap(\.contentPath))
        XCTAssertEqual(sources, ["pictures/nomedia/created/should_be_created.jpg", "pictures/kept/harbour.jpg"])
        try assertNothingLeaks(site, ["should_be_ignored", "should be ignored", "Catalogued secret", "Hijacked", "recursively"])
        XCTAssertTrue(try pagesText(site).contains("Harbour"))
    }

    func testExcludePatternsFromSettings() async throws {
        let site = try TestSite()
        try site.write(Data(#"{"exclude": ["**/Private/**", "*.tmp.jpg", "trips/2019"]}"#.utf8), to: "folio.json")
        for (index, path) in ["a/Private/secret.jpg", "Private/b.jpg", "a/draft.tmp.jpg", "trips/2019/oldtripphoto.jpg",
                              "trips/2020/new.jpg", "a/public.jpg"].enumerated() {
            try site.write(try TestInputs.photo(index), to: "content/\(path)")
        }
        let report = try await site.build()
        XCTAssertEqual(report.issues.map(\.description), [])
        XCTAssertEqual(report.photos, 2)
        XCTAssertEqual(report.skippedLines, ["left out 4 files: 2 by exclude '**/Private/**', 1 by exclude '*.tmp.jpg', 1 by exclude 'trips/2019'"])
        try assertNothingLeaks(site, ["secret", "draft", "oldtripphoto", "Private", "2019"])
    }

    /// A `.nomedia` put in after a build takes its photos out of the model and the site.
    func testANomediaAddedLaterTakesThePhotosOut() async throws {
        let site = try TestSite()
        try Self.sigalLayout(site)
        try site.write(try TestInputs.photo(9), to: "content/pictures/later/secret-later.jpg")
        var report = try await site.build()
        XCTAssertEqual(report.photos, 3)
        try site.write(Data("\n".utf8), to: "content/pictures/later/.nomedia")
        report = try await site.build()
        XCTAssertEqual(report.photos, 2)
        XCTAssertEqual(report.removed, 1)
        try assertNothingLeaks(site, ["secret-later", "secret later"])
    }

    func pagesText(_ site: TestSite) throws -> String {
        var text = ""
        let walker = FileManager.default.enumerator(atPath: site.publicFolder.path)
        while let path = walker?.nextObject() as? String {
            let url = site.publicFolder.appendingPathComponent(path)
            if ["html", "xml", "json", "js", "txt"].contains(url.pathExtension) { text += try String(contentsOf: url, encoding: .utf8) }
        }
        return text
    }

    /// No page, index, feed or sitemap names any of `words`; no published file holds a left-out
    /// photo's bytes; the model has no row for one.
    func assertNothingLeaks(_ site: TestSite, _ words: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let text = try pagesText(site)
        for word in words { XCTAssertFalse(text.contains(word), "'\(word)' is published", file: file, line: line) }
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [], file: file, line: line)
        let published = Set(try LocalFileAccess().files(under: site.publicFolder).map { try Data(contentsOf: site.publicFolder.appendingPathComponent($0)) })
        let sources = Set(try site.database.knownPhotos(of: .content).keys.compactMap(\.contentPath))
        for path in try LocalFileAccess().files(under: site.content) where ContentPath.isImage(path) && !sources.contains(path) {
            let original = try Data(contentsOf: site.content.appendingPathComponent(path))
            XCTAssertFalse(published.contains(original), "\(path) is published as it is", file: file, line: line)
        }
    }
}

/// Unlisted albums: built and reachable by their own link, and nowhere else.
final class UnlistedAlbumTests: XCTestCase {
    func testAnUnlistedAlbumIsOnlyAtItsOwnLink() async throws {
        let site = try TestSite()
        try site.write(try TestInputs.photo(1), to: "content/trips/harbour.jpg")
        try site.write(try TestInputs.photo(2), to: "content/trips/family/secretparty.jpg")
        try site.write(try TestInputs.photo(3), to: "content/trips/family/cousins/secretcousin.jpg")
        try site.write(TestInputs.plist(["title": "Hushfamily", "unlisted": true]), to: "content/trips/family/album.plist")
        // A catalog elsewhere describing an unlisted photo: the stricter rule, its folder's, wins.
        try site.catalog("c.plist", [["path": "trips/family/secretparty.jpg", "name": "Secretparty title", "user": "Hushperson",
                                      "place": "Hushville, Nowhere", "favorite": true, "tags": ["hushtag"]]])
        var report = try await site.build()
        XCTAssertEqual(report.issues.map(\.description), [])
        XCTAssertEqual(report.photos, 3)
        let link = try XCTUnwrap(report.unlisted.first?.link)
        XCTAssertEqual(report.unlisted.map(\.folder), ["trips/family"])
        XCTAssertTrue(link.hasPrefix("unlisted/") && link.count > "unlisted/".count + 20, link)
        XCTAssertTrue(report.skippedLines.contains("unlisted album content/trips/family: public/\(link)"), "\(report.skippedLines)")

        // Its pages: the album, its sub-album, both photos, all asking not to be indexed.
        let album = try site.read(link)
        XCTAssertTrue(album.contains("Hushfamily"))
        XCTAssertTrue(album.contains(#"<meta name="robots" content="noindex">"#))
        XCTAssertFalse(album.contains("og:title"), "no sharing card")
        let unlistedPages = try LocalFileAccess().files(under: site.publicFolder).filter { $0.hasPrefix("unlisted/") }
        XCTAssertEqual(unlistedPages.count, 4, "\(unlistedPages)")
        for page in unlistedPages { XCTAssertTrue(try site.read(page).contains("noindex"), page) }
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])

        // Nothing outside it names it, links to it, or counts it.
        let token = String(link.split(separator: "/")[1])
        let checks = PublicTreeChecks(root: site.publicFolder)
        for page in checks.pages where !page.hasPrefix("unlisted/") {
            let text = try checks.html(page)
            for word in ["Hushfamily", "Secretparty", "secretcousin", "Hushperson", "Hushville", "hushtag", token, "unlisted/"] {
                XCTAssertFalse(text.contains(word), "\(page) names \(word)")
            }
        }
        for file in ["search.json", "feed.xml", "sitemap.xml", "robots.txt"] where site.exists(file) {
            let text = try site.read(file)
            for word in ["Secretparty", "Hushperson", "Hushville", token] { XCTAssertFalse(text.contains(word), "\(file) names \(word)") }
        }
        let home = try site.read("index.html")
        XCTAssertTrue(home.contains("harbour") || home.contains("Harbour"))
        let people = try site.read("people/index.html")
        XCTAssertFalse(people.contains("Hushperson"))
        XCTAssertFalse(site.exists("people/hushperson.html"))
        XCTAssertFalse(site.exists("places/hushville-nowhere.html"))

        // Its address is the same on the next build, and gone when it is listed again.
        try site.write(try TestInputs.photo(4), to: "content/trips/lighthouse.jpg")
        report = try await site.build()
        XCTAssertEqual(report.unlisted.first?.link, link)
        try site.write(TestInputs.plist(["title": "Hushfamily"]), to: "content/trips/family/album.plist")
        report = try await site.build()
        XCTAssertEqual(report.unlisted.count, 0)
        XCTAssertFalse(site.exists(link))
        XCTAssertTrue(try site.read("albums/index.html").contains("Hushfamily"))
    }
}

/// Password-protected albums: pages and images published encrypted, opened by the password only.
final class ProtectedAlbumTests: XCTestCase {
    func testAProtectedAlbumIsPublishedEncryptedAndOpensWithItsPassword() async throws {
        let site = try TestSite()
        try site.write(try TestInputs.photo(1), to: "content/trips/harbour.jpg")
        try site.write(try TestInputs.photo(2), to: "content/family/lockedparty.jpg")
        try site.write(try TestInputs.photo(3), to: "content/family/kids/lockedkid.jpg")
        try site.write(TestInputs.plist(["title": "Lockedfamily", "password": "correct horse"]), to: "content/family/album.plist")
        // A title that reads like an image's address is text, not an image to put inside the page.
        try site.catalog("c.plist", [["path": "family/lockedparty.jpg", "name": "Lockedparty title", "user": "Lockedperson",
                                      "description": "=\"media/not-an-image.jpg\" and media/x.jpg"]])
        let report = try await site.build()
        XCTAssertEqual(report.issues.map(\.description), [])
        let link = try XCTUnwrap(report.unlisted.first?.link)
        let pages = try LocalFileAccess().files(under: site.publicFolder).filter { $0.hasPrefix("unlisted/") }
        XCTAssertEqual(pages.count, 4, "\(pages)")

        // Nothing of it in clear anywhere: not its pages, not any other file, not its images' bytes.
        let everything = try LocalFileAccess().files(under: site.publicFolder).map { try Data(contentsOf: site.publicFolder.appendingPathComponent($0)) }
        let text = everything.map { String(decoding: $0, as: UTF8.self) }.joined()
        for word in ["Lockedfamily", "Lockedparty", "lockedkid", "Lockedperson", "correct horse"] { XCTAssertFalse(text.contains(word), word) }
        let published = Set(everything)
        for path in ["family/lockedparty.jpg", "family/kids/lockedkid.jpg"] {
            XCTAssertFalse(published.contains(try Data(contentsOf: site.content.appendingPathComponent(path))), path)
        }
        let mediaCount = try LocalFileAccess().files(under: site.publicFolder.appendingPathComponent("media")).count
        let db = try site.database
        XCTAssertFalse(try db.albums().contains { ($0.passwordSource ?? "").contains("correct") })

        // The password opens every page, with its images inside; a wrong one opens none.
        let album = site.publicFolder.appendingPathComponent(link).path
        XCTAssertNil(try ProtectedPage.decrypt(album, password: "wrong horse"))
        let opened = try XCTUnwrap(try ProtectedPage.decrypt(album, password: "correct horse"))
        XCTAssertTrue(opened.contains("Lockedfamily"))
        XCTAssertTrue(opened.contains("data:image/jpeg;base64,"))
        XCTAssertNil(opened.range(of: #"(src|href|content)="(\.\./)*media/"#, options: .regularExpression), "every image is inside the page")
        var described = false
        for page in pages {
            let html = try XCTUnwrap(try ProtectedPage.decrypt(site.publicFolder.appendingPathComponent(page).path, password: "correct horse"), page)
            XCTAssertTrue(html.contains("noindex"), page)
            described = described || html.contains("and media/x.jpg")
        }
        XCTAssertTrue(described, "a description that reads like an address stays text")

        // Unchanged, it seals to the same bytes (not rewritten); a new password redraws it.
        let before = try Data(contentsOf: URL(fileURLWithPath: album))
        try site.write(try TestInputs.photo(4), to: "content/trips/lighthouse.jpg")
        _ = try await site.build()
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: album)), before)
        try site.write(TestInputs.plist(["title": "Lockedfamily", "password": "battery staple"]), to: "content/family/album.plist")
        _ = try await site.build()
        XCTAssertNil(try ProtectedPage.decrypt(album, password: "correct horse"))
        XCTAssertNotNil(try ProtectedPage.decrypt(album, password: "battery staple"))
        XCTAssertEqual(try LocalFileAccess().files(under: site.publicFolder.appendingPathComponent("media")).count, 2 * mediaCount,
                       "two public photos' renditions, none of the protected ones'")
    }

    /// A password named by an environment variable that is not set: the album is not published,
    /// never published in clear. The next build with nothing changed says so again without
    /// reading anything; once the variable is set, the album is read and published.
    func testAMissingPasswordVariablePublishesNothingOfTheAlbum() async throws {
        let site = try TestSite()
        try site.write(try TestInputs.photo(1), to: "content/open.jpg")
        try site.write(try TestInputs.photo(2), to: "content/family/lockedparty.jpg")
        try site.write(TestInputs.plist(["title": "Lockedfamily", "passwordVariable": "FOLIO_TEST_NO_SUCH_PASSWORD"]),
                       to: "content/family/album.plist")
        let report = try await site.build()
        XCTAssertEqual(report.issues.map(\.description), [
            "error: content/family/album.plist: the password variable 'FOLIO_TEST_NO_SUCH_PASSWORD' is not set: the album is not published until it is",
        ])
        XCTAssertEqual(report.unlisted.count, 0)
        XCTAssertFalse(site.exists("unlisted"))
        let text = try LocalFileAccess().files(under: site.publicFolder).map {
            String(decoding: try Data(contentsOf: site.publicFolder.appendingPathComponent($0)), as: UTF8.self)
        }.joined()
        XCTAssertFalse(text.contains("Lockedfamily") || text.contains("lockedparty"))

        let again = try await site.build(environment: [:])
        XCTAssertTrue(again.upToDate)
        XCTAssertEqual(again.issues, report.issues)
        let set = try await site.build(environment: ["FOLIO_TEST_NO_SUCH_PASSWORD": "hunter2"])
        XCTAssertFalse(set.upToDate, "the variable set since is read")
        XCTAssertEqual(set.issues, [])
        let page = site.publicFolder.appendingPathComponent(try XCTUnwrap(set.unlisted.first?.link, "published, protected")).path
        XCTAssertNotNil(try ProtectedPage.decrypt(page, password: "hunter2"))
    }
}

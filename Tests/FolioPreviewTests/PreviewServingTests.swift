@testable import FolioCore
@testable import FolioPipeline
@testable import FolioPreview
import FolioTestSupport
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The preview server's HTTP, spoken over real sockets to a real built site.
final class PreviewServingTests: PreviewTestCase {
    func testServesPagesAssetsAndMediaWithTheirTypes() async throws {
        let home = try await fixture.expect("/", status: 200, fixture.lines.text)
        XCTAssertEqual(home.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertTrue(home.text.contains("Harbour"))
        XCTAssertTrue(home.text.contains("data-folio-preview"), "pages get the live-reload script")
        XCTAssertTrue(home.text.contains("/__folio/events"))
        XCTAssertFalse(try fixture.site.read("index.html").contains("data-folio-preview"), "the script is never written into public/")
        XCTAssertEqual(home.header("Content-Length"), String(home.body.count), "the length counts the script")

        let css = try await fixture.expect("/assets/style.css", status: 200)
        XCTAssertEqual(css.header("Content-Type"), "text/css; charset=utf-8")
        XCTAssertEqual(css.body, try Data(contentsOf: fixture.site.publicFolder.appendingPathComponent("assets/style.css")))

        let media = try fixture.published("media/")
        let image = try await fixture.expect("/" + media, status: 200)
        XCTAssertTrue(image.header("Content-Type")?.hasPrefix("image/") == true, image.header("Content-Type") ?? "no type")
        XCTAssertEqual(image.body, try Data(contentsOf: fixture.site.publicFolder.appendingPathComponent(media)))
        XCTAssertEqual(image.header("X-Content-Type-Options"), "nosniff")
    }

    func testFoldersServeTheirIndexAndAreNeverListed() async throws {
        let redirect = try await fixture.expect("/places?from=nav", status: 301)
        XCTAssertEqual(redirect.header("Location"), "http://127.0.0.1:\(fixture.port)/places/?from=nav")
        let relative = try await fixture.expect("/places", headers: ["Host": "photos.example"], status: 301)
        XCTAssertEqual(relative.header("Location"), "/places/", "only loopback hosts get an absolute redirect")
        let places = try await fixture.expect("/places/", status: 200)
        XCTAssertEqual(places.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertTrue(places.text.contains("Nairobi"))
        let index = try await fixture.expect("/places/index.html", status: 200)
        XCTAssertEqual(index.body, places.body)

        // media/ has no index.html: no listing of its files, only the 404 page.
        let media = try await fixture.expect("/media/", status: 404)
        XCTAssertFalse(media.text.contains(".jpg"), "a folder's files are never listed")
        try await fixture.expect("/index.html/", status: 404, "a file is not a folder")
    }

    func testMissingPathsGetA404Page() async throws {
        let missing = try await fixture.expect("/no/such/page.html", status: 404)
        XCTAssertEqual(missing.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertTrue(missing.text.contains("Not found"))
        XCTAssertTrue(missing.text.contains("data-folio-preview"), "so a page built later appears by itself")
        try await fixture.expect("/__folio/nothing", status: 404)

        // The site's own 404.html when it has one.
        try Data("<html><body><p>Lost in the gallery</p></body></html>".utf8)
            .write(to: fixture.site.publicFolder.appendingPathComponent("404.html"))
        let custom = try await fixture.expect("/gone.html", status: 404)
        XCTAssertTrue(custom.text.contains("Lost in the gallery"))
    }

    func testHeadSendsTheHeadersOfGetWithoutABody() async throws {
        for target in ["/", "/assets/style.css", "/" + (try fixture.published("media/")), "/missing.html", "/places"] {
            let get = try await fixture.get(target)
            let head = try await fixture.get(target, "HEAD")
            XCTAssertEqual(head.status, get.status, target)
            XCTAssertEqual(head.body.count, 0, target)
            XCTAssertEqual(head.header("Content-Length"), String(get.body.count), target)
            XCTAssertEqual(head.header("Content-Type"), get.header("Content-Type"), target)
            XCTAssertEqual(head.header("ETag"), get.header("ETag"), target)
        }
    }

    func testOnlyGetAndHeadAreServed() async throws {
        let post = try await fixture.expect("/index.html", "POST", status: 405)
        XCTAssertEqual(post.header("Allow"), "GET, HEAD")
        try await fixture.expect("/index.html", "DELETE", status: 405)
    }

    func testRangeRequestsForLargeImages() async throws {
        // Larger than what is read whole, so the streamed path is the one exercised.
        let big = Data((0..<(3 * 1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) })
        try big.write(to: fixture.site.publicFolder.appendingPathComponent("media/original-big.jpg"))
        let path = "/media/original-big.jpg"

        let whole = try await fixture.expect(path, status: 200)
        XCTAssertEqual(whole.body, big)
        XCTAssertEqual(whole.header("Accept-Ranges"), "bytes")

        let first = try await fixture.expect(path, headers: ["Range": "bytes=0-99"], status: 206)
        XCTAssertEqual(first.header("Content-Range"), "bytes 0-99/\(big.count)")
        XCTAssertEqual(first.header("Content-Length"), "100")
        XCTAssertEqual(first.body, big.prefix(100))

        let middle = try await fixture.expect(path, headers: ["Range": "bytes=1000000-2500000"], status: 206)
        XCTAssertEqual(middle.body, big[1_000_000...2_500_000])

        let open = try await fixture.expect(path, headers: ["Range": "bytes=3000000-"], status: 206)
        XCTAssertEqual(open.header("Content-Range"), "bytes 3000000-\(big.count - 1)/\(big.count)")
        XCTAssertEqual(open.body, big[3_000_000...])

        let suffix = try await fixture.expect(path, headers: ["Range": "bytes=-10"], status: 206)
        XCTAssertEqual(suffix.body, big.suffix(10))

        let beyond = try await fixture.expect(path, headers: ["Range": "bytes=\(big.count)-"], status: 416)
        XCTAssertEqual(beyond.header("Content-Range"), "bytes */\(big.count)")
        XCTAssertEqual(beyond.body.count, 0)

        // Parts of two versions of a file must not be stitched together: If-Range guards it.
        let tag = try XCTUnwrap(whole.header("ETag"))
        try await fixture.expect(path, headers: ["Range": "bytes=0-9", "If-Range": tag], status: 206)
        let stale = try await fixture.expect(path, headers: ["Range": "bytes=0-9", "If-Range": "\"old\""], status: 200)
        XCTAssertEqual(stale.body.count, big.count)

        // Several ranges at once get the whole file, as RFC 9110 allows.
        try await fixture.expect(path, headers: ["Range": "bytes=0-1,5-6"], status: 200)
        // Pages carry the script, so they are always sent whole.
        try await fixture.expect("/", headers: ["Range": "bytes=0-9"], status: 200)
    }

    func testValidatorsAndCacheHeaders() async throws {
        let home = try await fixture.expect("/", status: 200)
        XCTAssertEqual(home.header("Cache-Control"), "no-cache", "pages keep their names across builds: always revalidated")
        let tag = try XCTUnwrap(home.header("ETag"))
        let modified = try XCTUnwrap(home.header("Last-Modified"))
        XCTAssertTrue(modified.hasSuffix(" GMT"), modified)

        let again = try await fixture.expect("/", headers: ["If-None-Match": tag], status: 304)
        XCTAssertEqual(again.body.count, 0)
        XCTAssertEqual(again.header("ETag"), tag)
        try await fixture.expect("/", headers: ["If-None-Match": "W/\(tag)"], status: 304, "weak comparison")
        try await fixture.expect("/", headers: ["If-None-Match": "\"other\""], status: 200)
        try await fixture.expect("/", headers: ["If-Modified-Since": modified], status: 304)
        try await fixture.expect("/", headers: ["If-Modified-Since": "Mon, 01 Jan 2001 00:00:00 GMT"], status: 200)
        try await fixture.expect("/", headers: ["If-None-Match": "\"other\"", "If-Modified-Since": modified], status: 200,
                                 "If-None-Match decides when both are sent")

        let media = try await fixture.expect("/" + (try fixture.published("media/")), status: 200)
        XCTAssertEqual(media.header("Cache-Control"), "public, max-age=31536000, immutable", "media are named by their content")
        let css = try await fixture.expect("/assets/style.css", status: 200)
        XCTAssertEqual(css.header("Cache-Control"), "no-cache")
        let missing = try await fixture.expect("/missing", status: 404)
        XCTAssertEqual(missing.header("Cache-Control"), "no-store")

        // A rebuild that changes the page changes its tag.
        try fixture.site.write(Data(#"{"title": "Renamed gallery"}"#.utf8), to: "folio.json")
        await fixture.session.requestBuild([]).value
        let renamed = try await fixture.expect("/", headers: ["If-None-Match": tag], status: 200)
        XCTAssertTrue(renamed.text.contains("Renamed gallery"))
    }

    func testPathsLeadingOutOfPublicAreRefused() async throws {
        let site = fixture.site
        let links = FileManager.default
        // Links inside public/ leading out of it, to a file and to a folder.
        try links.createSymbolicLink(at: site.publicFolder.appendingPathComponent("leak.txt"),
                                     withDestinationURL: site.root.appendingPathComponent("secret.txt"))
        try links.createSymbolicLink(at: site.publicFolder.appendingPathComponent("up"), withDestinationURL: site.root)
        // A link that stays inside public/ is fine.
        try links.createSymbolicLink(at: site.publicFolder.appendingPathComponent("home.html"),
                                     withDestinationURL: site.publicFolder.appendingPathComponent("index.html"))

        let attempts = [
            "/../secret.txt", "/../../../../../../etc/passwd", "/media/../../secret.txt",
            "/%2e%2e/secret.txt", "/%2E%2E/%2e%2e/etc/passwd", "/.%2e/secret.txt", "/%2e./secret.txt",
            "/media/..%2f..%2fsecret.txt", "/..%2fsecret.txt", "/%2f..%2f..%2fetc%2fpasswd", "/media%2f..%2f..%2fsecret.txt",
            "/..%5csecret.txt", "/..\\secret.txt", "/index.html%00.txt", "/%00", "/./index.html", "/places/./../../secret.txt",
            "/%252e%252e/secret.txt", "/%", "/%zz", "/%c0%ae%c0%ae/secret.txt",
            "/leak.txt", "/up/secret.txt", "/up/folio.sqlite", "/up/content/one.jpg",
            "secret.txt", "http://127.0.0.1/../secret.txt",
        ]
        for target in attempts {
            let response = try await fixture.get(target)
            XCTAssertTrue([400, 403, 404].contains(response.status), "\(target): \(response.status)")
            XCTAssertFalse(response.text.contains("top secret"), target)
            XCTAssertFalse(response.text.contains("root:"), target)
            XCTAssertFalse(response.text.contains("SQLite format"), target)
        }
        try await fixture.expect("/leak.txt", status: 403)
        try await fixture.expect("/up/secret.txt", status: 403)
        try await fixture.expect("/../secret.txt", status: 400)
        try await fixture.expect("/%2e%2e/secret.txt", status: 400)
        try await fixture.expect("/..%2fsecret.txt", status: 400)
        try await fixture.expect("/index.html%00.txt", status: 400)

        let inside = try await fixture.expect("/home.html", status: 200, "a link that stays inside public/ is served")
        XCTAssertTrue(inside.text.contains("Harbour"))
        // Doubled slashes lead nowhere else, and never into a redirect to another host.
        try await fixture.expect("//places/", status: 200)
        let redirect = try await fixture.expect("//places", headers: ["Host": "evil.example"], status: 301)
        XCTAssertEqual(redirect.header("Location"), "/places/")
        let forged = try await fixture.expect("/places", headers: ["Host": "127.0.0.1.evil.example"], status: 301)
        XCTAssertEqual(forged.header("Location"), "/places/")
    }

    func testAStandardClientSeesTheSameSite() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let (body, response) = try await session.data(from: URL(string: "http://127.0.0.1:\(fixture.port)/people")!)
        let http = try XCTUnwrap(response as? HTTPURLResponse)
        XCTAssertEqual(http.statusCode, 200, "the redirect to /people/ is followed")
        XCTAssertEqual(http.url?.absoluteString, "http://127.0.0.1:\(fixture.port)/people/")
        XCTAssertTrue(String(decoding: body, as: UTF8.self).contains("Josh"))
    }

    func testAnotherPortWhenTheOneAskedForIsTaken() async throws {
        let second = try await PreviewFixture(site: fixture.site, port: fixture.port)
        XCTAssertNotEqual(second.port, fixture.port)
        XCTAssertTrue(second.lines.text.contains("Port \(fixture.port) is taken; using port \(second.port)"), second.lines.text)
        try await second.expect("/", status: 200)
        await second.stop()
    }

    func testAPortAskedForByNameThatIsTakenIsAnError() async throws {
        var options = PreviewOptions(port: fixture.port, build: BuildOptions(themeFolder: TestSite.theme))
        options.exactPort = true
        let second = PreviewSession(paths: fixture.site.paths, options: options, log: { _ in })
        do {
            let url = try await second.start()
            XCTFail("served at \(url) instead")
        } catch let error as FolioError {
            XCTAssertEqual(error.path, "127.0.0.1:\(fixture.port)")
            XCTAssertTrue(error.reason.hasPrefix("cannot listen: "), error.reason)
            XCTAssertTrue(error.reason.hasSuffix("(another program is using it? choose another with --port, or --port 0 for any free one)"),
                          error.reason)
        }
        await second.stop()
        try await fixture.expect("/", status: 200, "the first one goes on")
    }

    func testHugeOrAlienRequestsAreAnsweredAtOnce() async throws {
        let started = Date()
        let long = try await fixture.get("/" + String(repeating: "a", count: 100_000))
        XCTAssertEqual(long.status, 414)
        let header = try await fixture.get("/", headers: ["X-Big": String(repeating: "b", count: 100_000)])
        XCTAssertEqual(header.status, 431)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "a 100 KB request line once cost 5.5 s of CPU")
        let alien = try await PreviewTestClient.raw(port: fixture.port, "GET / HTTP/9.9\r\nHost: x\r\n\r\n")
        XCTAssertTrue(alien.hasPrefix("HTTP/1.1 505 "), alien)
        try await fixture.expect("/", status: 200, "and the server goes on")
    }

    func testAQuietClientIsLetGo() async throws {
        await fixture.stop()
        fixture = try await PreviewFixture(idleTimeout: 0.5)
        let started = Date()
        let silence = try await PreviewTestClient.raw(port: fixture.port, "", timeout: 10)
        XCTAssertEqual(silence, "", "closed without a word")
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }
}

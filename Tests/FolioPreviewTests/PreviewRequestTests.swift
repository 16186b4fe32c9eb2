@testable import FolioCore
@testable import FolioPreview
import Foundation
import XCTest

/// The preview's small HTTP values on their own: request paths, ranges, validators, dates.
final class PreviewRequestTests: XCTestCase {
    func testRequestPathsAreDecodedSegmentBySegment() throws {
        XCTAssertEqual(try RequestPath(raw: "/"), RequestPath(segments: [], endsWithSlash: true))
        XCTAssertEqual(try RequestPath(raw: "/places/z%C3%BCrich.html"), RequestPath(segments: ["places", "zürich.html"], endsWithSlash: false))
        XCTAssertEqual(try RequestPath(raw: "//people//josh/"), RequestPath(segments: ["people", "josh"], endsWithSlash: true))
        XCTAssertEqual(try RequestPath(raw: "/%252e%252e").segments, ["%2e%2e"], "decoded once, never twice")
        for bad in ["", "places", "/..", "/a/../b", "/%2e%2e/x", "/.%2E/x", "/./x", "/a%2fb", "/a%5Cb", "/a\\b", "/a%00b", "/%", "/%zz", "/%c0%ae"] {
            XCTAssertThrowsError(try RequestPath(raw: bad), bad)
        }
        XCTAssertEqual(RequestPath(segments: ["a b", "c?d"], endsWithSlash: false).folderURLPath, "/a%20b/c%3Fd/")
    }

    func testByteRanges() {
        XCTAssertEqual(ByteRange(header: nil, size: 100), .whole)
        XCTAssertEqual(ByteRange(header: "bytes=0-9", size: 100), .part(0..<10))
        XCTAssertEqual(ByteRange(header: "bytes=90-200", size: 100), .part(90..<100), "the end is clamped")
        XCTAssertEqual(ByteRange(header: "bytes=50-", size: 100), .part(50..<100))
        XCTAssertEqual(ByteRange(header: "bytes=-30", size: 100), .part(70..<100))
        XCTAssertEqual(ByteRange(header: "bytes=-300", size: 100), .part(0..<100))
        XCTAssertEqual(ByteRange(header: "bytes=100-", size: 100), .unsatisfiable)
        XCTAssertEqual(ByteRange(header: "bytes=-0", size: 100), .unsatisfiable)
        XCTAssertEqual(ByteRange(header: "bytes=0-0", size: 0), .unsatisfiable)
        for ignored in ["bytes=9-5", "items=0-5", "bytes=a-b", "bytes=0-1,4-5", "bytes=", "bytes=-"] {
            XCTAssertEqual(ByteRange(header: ignored, size: 100), .whole, ignored)
        }
    }

    func testValidatorsAndDates() {
        let tag = EntityTag(inode: 255, size: 16, modifiedNanoseconds: 1)
        XCTAssertEqual(tag.value, "\"ff-10-1\"")
        XCTAssertTrue(tag.matches(ifNoneMatch: "\"x\", W/\"ff-10-1\""))
        XCTAssertTrue(tag.matches(ifNoneMatch: "*"))
        XCTAssertFalse(tag.matches(ifNoneMatch: "\"ff-10-2\""))
        XCTAssertFalse(tag.matchesStrongly("W/\"ff-10-1\""))

        XCTAssertEqual(HTTPDate.format(784_111_777), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"), 784_111_777)
        XCTAssertNil(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"))
    }

    func testTheScriptGoesBeforeTheLastBodyEnd() {
        let page = Data("<html><body><p>&lt;/body&gt;</p></BODY></html>".utf8)
        let served = String(decoding: LiveReloadScript.inject(into: page), as: UTF8.self)
        XCTAssertTrue(served.hasSuffix("</script>\n</BODY></html>"), served)
        let bare = String(decoding: LiveReloadScript.inject(into: Data("plain".utf8)), as: UTF8.self)
        XCTAssertTrue(bare.hasPrefix("plain<script data-folio-preview>"))
        XCTAssertEqual(ContentType.of("photo.JPG"), "image/jpeg")
        XCTAssertEqual(ContentType.of("feed.atom"), "application/atom+xml; charset=utf-8")
        XCTAssertEqual(ContentType.of("README"), "application/octet-stream")
    }

    func read(_ text: String) -> RequestHeadReader.Outcome {
        var reader = RequestHeadReader()
        return reader.read(Array(text.utf8))
    }

    func testRequestHeadsAreReadWithinLimits() {
        guard case .head(let head, let length) = read("GET /places/?a=1 HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"abc\"\r\n\r\nrest") else {
            return XCTFail("a head")
        }
        XCTAssertEqual(head, RequestHead(method: "GET", path: "/places/", query: "a=1", version: "HTTP/1.1", headers: [
            .init(name: "host", value: "x"), .init(name: "if-none-match", value: "\"abc\""),
        ]))
        XCTAssertEqual(length, 60, "the bytes after the head are the next request's")
        guard case .head(let bare, _) = read("HEAD http://127.0.0.1:8000/a b HTTP/1.0\n\n") else { return }
        XCTFail("a space in the target is no request: \(bare)")
    }

    func testWhatIsNotARequestIsAnsweredWithItsStatus() {
        XCTAssertEqual(read("GET / HTTP/1.1\r\nHost: x"), .incomplete)
        for (text, status) in [
            ("GET / HTTP/9.9\r\n\r\n", 505), ("GET / HTTP/2.0\r\n\r\n", 505), ("GET / FOO\r\n\r\n", 400),
            ("GET /\r\n\r\n", 400), ("GET  / HTTP/1.1\r\n\r\n", 400), ("G(T / HTTP/1.1\r\n\r\n", 400),
            ("GET x HTTP/1.1\r\n\r\n", 400), ("GET / HTTP/1.1\r\nNo colon here\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\n folded: value\r\n\r\n", 400),
            ("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\n\r\n", 414),
            ("GET / HTTP/1.1\r\nX: " + String(repeating: "b", count: 40000) + "\r\n\r\n", 431),
            ("GET / HTTP/1.1\r\n" + (0..<101).map { "H\($0): v\r\n" }.joined() + "\r\n", 431),
        ] {
            guard case .reject(let got, _) = read(text) else { XCTFail("\(text.prefix(40)) is refused"); continue }
            XCTAssertEqual(got, status, String(text.prefix(40)))
        }
    }

    func testAHeadArrivingAByteAtATimeIsReadOnce() {
        // Each byte looked at once: a 30 KB head sent byte by byte is 30,000 steps, not 450 million.
        let text = Array(("GET / HTTP/1.1\r\nX: " + String(repeating: "c", count: 30000) + "\r\n\r\n").utf8)
        var reader = RequestHeadReader()
        var buffer: [UInt8] = []
        let started = Date()
        var outcome = RequestHeadReader.Outcome.incomplete
        for byte in text {
            buffer.append(byte)
            outcome = reader.read(buffer)
        }
        guard case .head = outcome else { return XCTFail("a head") }
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
    }
}

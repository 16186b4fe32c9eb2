import Foundation
import XCTest
@testable import FolioCore

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
}

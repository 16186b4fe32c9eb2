import FolioTestSupport
import Foundation
import XCTest

/// Whole pages of a small fixed site, compared byte for byte with the files in
/// `Fixtures/Golden/`. A change to the theme or to what pages show changes them on purpose:
/// look at the difference, then record them again with `FOLIO_RECORD_GOLDEN=1 swift test
/// --filter GoldenPageTests`.
final class GoldenPageTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Golden")
    static let recording = ProcessInfo.processInfo.environment["FOLIO_RECORD_GOLDEN"] == "1"
    static let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-19

    /// Three photos with every date fixed (the loose one's file time too), so the site comes
    /// out the same on any machine.
    func fixedSite() throws -> TestSite {
        let site = try TestSite()
        try site.photo("one.jpg")
        try site.photo("two.jpg", from: TestSite.repository.appendingPathComponent("content/photo2.jpg"))
        try site.photo("loose/harbour_at-dawn.jpg", from: TestSite.repository.appendingPathComponent("content/photo3.jpg"))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_790_000_000)],
                                              ofItemAtPath: site.content.appendingPathComponent("loose/harbour_at-dawn.jpg").path)
        try site.catalog("FakeData.plist", [
            ["path": "one.jpg", "name": "Urban <disaster> & co", "user": "Josh", "description": "Rubble",
             "place": "Palo Alto, California, United States", "favorite": true, "tags": ["city", "ruin"],
             "taken": Date(timeIntervalSince1970: 1_794_990_000), "uploaded": Date(timeIntervalSince1970: 1_794_995_000)],
            ["path": "two.jpg", "user": "Al", "place": "Nairobi, Kenya",
             "taken": Date(timeIntervalSince1970: 1_700_000_000), "uploaded": Date(timeIntervalSince1970: 1_700_100_000)],
        ])
        try site.write(Data(#"{"title": "Golden", "description": "A fixed gallery"}"#.utf8), to: "folio.json")
        return site
    }

    func testPagesOfAFixedSiteAreAsRecorded() async throws {
        let site = try fixedSite()
        let report = try await site.build(now: Self.now)
        XCTAssertTrue(report.succeeded, report.issues.description)
        let one = try site.identifier("one.jpg")
        let pages = [
            "index.html", "places/index.html", "places/palo-alto-california-united-states.html", "regions/index.html",
            "people/index.html", "people/josh.html", "favorites/index.html", "recents/index.html", "photos/\(one).html",
        ]
        for page in pages {
            let name = page.replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: one, with: "photo-one")
            let golden = Self.folder.appendingPathComponent(name)
            let actual = try site.read(page)
            if Self.recording {
                try Data(actual.utf8).write(to: golden)
                continue
            }
            let expected = try String(contentsOf: golden, encoding: .utf8)
            if actual != expected {
                let (a, e) = (actual.split(separator: "\n", omittingEmptySubsequences: false),
                              expected.split(separator: "\n", omittingEmptySubsequences: false))
                let line = Array(zip(a, e)).firstIndex { $0 != $1 } ?? min(a.count, e.count)
                XCTFail("""
                    \(page) differs from Fixtures/Golden/\(name) at line \(line + 1):
                      expected: \(line < e.count ? String(e[line]) : "<end>")
                      actual:   \(line < a.count ? String(a[line]) : "<end>")
                    (FOLIO_RECORD_GOLDEN=1 records it again)
                    """)
            }
        }
    }
}

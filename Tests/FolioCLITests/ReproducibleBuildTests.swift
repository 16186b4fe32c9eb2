@testable import FolioCore
import Foundation
import XCTest

/// The same content and the same Folio give the same `public/`, byte for byte, wherever and
/// whenever it is built, once SOURCE_DATE_EPOCH says which moment the build is.
final class ReproducibleBuildTests: CLITestCase {
    /// After every catalog date of the demo, before the moment the test runs.
    static let epoch = 1_796_000_000

    /// The demo as a fresh checkout has it: every file written at the moment it was copied,
    /// `offset` seconds from now.
    func freshDemo(filesWrittenAt offset: TimeInterval) throws -> URL {
        let site = try temporaryFolder()
        for name in ["content", "folio.json"] {
            try FileManager.default.copyItem(at: Self.repository.appendingPathComponent(name), to: site.appendingPathComponent(name))
        }
        let moment = Date().addingTimeInterval(offset)
        for path in try LocalFileAccess().files(under: site.appendingPathComponent("content")) {
            try FileManager.default.setAttributes([.modificationDate: moment], ofItemAtPath: site.appendingPathComponent("content/\(path)").path)
        }
        return site
    }

    func build(_ site: URL, epoch: Int, zone: String, language: String) throws {
        let run = try folio(["build", "--site", site.path],
                            environment: ["SOURCE_DATE_EPOCH": String(epoch), "TZ": zone, "LANG": language, "LC_ALL": language])
        XCTAssertEqual(run.status, 0, run.errors)
    }

    func published(_ site: URL) throws -> [String: Data] {
        let root = site.appendingPathComponent("public")
        var files: [String: Data] = [:]
        for path in try LocalFileAccess().files(under: root) {
            files[path] = try Data(contentsOf: root.appendingPathComponent(path))
        }
        return files
    }

    func assertSame(_ a: [String: Data], _ b: [String: Data], _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertGreaterThan(a.count, 100, "the demo was built", file: file, line: line)
        XCTAssertEqual(Set(a.keys).symmetricDifference(b.keys).sorted(), [], message, file: file, line: line)
        let differing = a.keys.filter { b[$0] != nil && a[$0] != b[$0] }.sorted()
        XCTAssertEqual(differing, [], message, file: file, line: line)
    }

    /// Two fresh checkouts, their files written at other moments, built in other time zones and
    /// languages: the same site. The demo's three seed photos have no date of their own, so their
    /// order and the feed follow their files' times unless the epoch holds those back.
    func testTheDemoBuildsTheSameFreshInTwoTimeZones() throws {
        let tokyo = try freshDemo(filesWrittenAt: -60)
        let angeles = try freshDemo(filesWrittenAt: -3_600)
        try build(tokyo, epoch: Self.epoch, zone: "Asia/Tokyo", language: "ja_JP.UTF-8")
        try build(angeles, epoch: Self.epoch, zone: "America/Los_Angeles", language: "de_DE.UTF-8")
        assertSame(try published(tokyo), try published(angeles), "two fresh builds of the demo")
        let feed = String(decoding: try published(tokyo)["feed.xml"] ?? Data(), as: UTF8.self)
        let stamp = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(Self.epoch)))
        XCTAssertTrue(feed.contains("<updated>\(stamp)</updated>"), "a photo with no date of its own is dated by the epoch")

        // A later epoch, content untouched: the site built again is the one a fresh build makes.
        try build(tokyo, epoch: Self.epoch + 3_600, zone: "Asia/Tokyo", language: "ja_JP.UTF-8")
        let later = try freshDemo(filesWrittenAt: -120)
        try build(later, epoch: Self.epoch + 3_600, zone: "UTC", language: "C.UTF-8")
        assertSame(try published(tokyo), try published(later), "the build after the epoch moved on, and a fresh one")
    }

    func testAnEpochThatIsNotANumberIsAUsageError() throws {
        let site = try temporaryFolder()
        try FileManager.default.createDirectory(at: site.appendingPathComponent("content"), withIntermediateDirectories: true)
        let run = try folio(["build", "--site", site.path], environment: ["SOURCE_DATE_EPOCH": "yesterday"])
        XCTAssertEqual(run.status, 64, run.errors)
        XCTAssertTrue(run.errors.contains("SOURCE_DATE_EPOCH is 'yesterday'"), run.errors)
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.appendingPathComponent("public").path))
    }
}

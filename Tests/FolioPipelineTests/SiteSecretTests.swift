@testable import FolioCore
@testable import FolioModel
@testable import FolioPipeline
import FolioTestSupport
import Foundation
import XCTest

/// The site's secret given from outside the model: a fresh model publishes the same unlisted
/// and protected albums, at the same addresses, in the same bytes.
final class SiteSecretTests: XCTestCase {
    static let secret = "3f9c0a7d52e14b6a8c0d9e2f1a3b5c7d9e0f1a2b3c4d5e6f708192a3b4c5d6e7"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A listed photo, an unlisted album and a protected one, every photo dated by its record
    /// (not by its file's time, which a fresh copy changes).
    static func gallery() throws -> TestSite {
        let site = try TestSite()
        try site.write(try TestInputs.photo(1), to: "content/harbour.jpg")
        try site.write(try TestInputs.photo(2), to: "content/trips/family/party.jpg")
        try site.write(try TestInputs.photo(3), to: "content/locked/kid.jpg")
        try site.write(TestInputs.plist(["title": "Hushfamily", "unlisted": true]), to: "content/trips/family/album.plist")
        try site.write(TestInputs.plist(["title": "Lockedfamily", "password": "correct horse"]), to: "content/locked/album.plist")
        try site.catalog("c.plist", [
            ["path": "harbour.jpg", "name": "Harbour", "user": "Ann", "uploaded": Date(timeIntervalSince1970: 1_700_000_000)],
            ["path": "trips/family/party.jpg", "name": "Party", "user": "Ann", "uploaded": Date(timeIntervalSince1970: 1_700_100_000)],
            ["path": "locked/kid.jpg", "name": "Kid", "user": "Ann", "uploaded": Date(timeIntervalSince1970: 1_700_200_000)],
        ])
        return site
    }

    /// Every file of the site's `public/`, by path.
    static func published(_ site: TestSite) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try LocalFileAccess().files(under: site.publicFolder) {
            files[path] = try Data(contentsOf: site.publicFolder.appendingPathComponent(path))
        }
        return files
    }

    static func modelSecrets(_ site: TestSite) throws -> Int {
        try site.database.writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM siteSecret") ?? -1 }
    }

    func testAFreshModelWithTheSameSecretPublishesTheSameAddressesAndBytes() async throws {
        let environment = [SiteSecret.variable: Self.secret]
        let first = try Self.gallery()
        let built = try await first.build(now: Self.now, environment: environment)
        XCTAssertEqual(built.issues.map(\.description), [])
        XCTAssertEqual(built.unlisted.count, 2)
        let again = try Self.gallery()
        let rebuilt = try await again.build(now: Self.now, environment: environment)
        XCTAssertEqual(rebuilt.unlisted.map(\.link), built.unlisted.map(\.link))
        let published = try Self.published(first)
        XCTAssertTrue(published.keys.contains { $0.hasPrefix("unlisted/") && published[$0].map { String(decoding: $0, as: UTF8.self) }?.contains("data-salt") == true },
                      "a protected page is among them")
        XCTAssertEqual(try Self.published(again), published, "the same site, byte for byte")
        XCTAssertEqual(try Self.modelSecrets(first), 0, "the model's own secret is not made when one is given")

        // A fresh model with none given makes its own, and its own addresses.
        let alone = try Self.gallery()
        let own = try await alone.build(now: Self.now, environment: [:])
        XCTAssertEqual(own.unlisted.count, 2)
        XCTAssertTrue(Set(own.unlisted.map(\.link)).isDisjoint(with: built.unlisted.map(\.link)))
    }

    /// The outside secret wins; the model's stays as it was, and is used again once none is given.
    func testAGivenSecretStandsInForTheModelsAndLeavesIt() async throws {
        let site = try Self.gallery()
        let own = try await site.build(environment: [:]).unlisted.map(\.link)
        let modelSecret = try site.database.siteSecret()
        let given = try await site.build(environment: [SiteSecret.variable: Self.secret])
        XCTAssertFalse(given.upToDate, "another secret is another site, though nothing else changed")
        XCTAssertTrue(Set(given.unlisted.map(\.link)).isDisjoint(with: own))
        for link in own { XCTAssertFalse(site.exists(link), link) }
        XCTAssertEqual(try site.database.siteSecret(), modelSecret)

        // The same secret from a file (as a CI's secret files are written, with a line end) is
        // the same site: nothing to do.
        let file = site.root.deletingLastPathComponent().appendingPathComponent("secret-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("\(Self.secret.uppercased())\n".utf8).write(to: file)
        let fromFile = try await site.build(environment: [SiteSecret.fileVariable: file.path])
        XCTAssertTrue(fromFile.upToDate)
        XCTAssertEqual(try SiteSecret.outside(environment: [SiteSecret.fileVariable: file.path])?.hex, Self.secret)

        let back = try await site.build(environment: [:])
        XCTAssertEqual(back.unlisted.map(\.link), own)
    }

    func testAMalformedSecretIsAClearErrorAndTheSiteStaysAsItWas() async throws {
        let site = try Self.gallery()
        try await site.build(environment: [:])
        let before = try Self.published(site)
        let folder = site.root.deletingLastPathComponent()
        let short = folder.appendingPathComponent("short-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: short) }
        try Data("0123456789\n".utf8).write(to: short)
        let mistyped = String(Self.secret.dropLast()) + "g"
        let cases: [([String: String], String)] = [
            ([SiteSecret.variable: "abc"],
             "FOLIO_SITE_SECRET: has 3 digits: a site secret is 64 hexadecimal digits, as 'folio secret' prints"),
            ([SiteSecret.variable: mistyped], "FOLIO_SITE_SECRET: holds characters that are not hexadecimal digits"),
            ([SiteSecret.variable: Self.secret + "00"], "FOLIO_SITE_SECRET: has 66 digits"),
            ([SiteSecret.variable: " "], "FOLIO_SITE_SECRET: is empty"),
            ([SiteSecret.variable: Self.secret, SiteSecret.fileVariable: short.path],
             "both FOLIO_SITE_SECRET and FOLIO_SITE_SECRET_FILE are set"),
            ([SiteSecret.fileVariable: short.path], "\(short.path) (FOLIO_SITE_SECRET_FILE): has 10 digits"),
            ([SiteSecret.fileVariable: folder.appendingPathComponent("no-such-secret").path],
             "no-such-secret (FOLIO_SITE_SECRET_FILE): cannot be read"),
            ([SiteSecret.fileVariable: ""], "FOLIO_SITE_SECRET_FILE: is empty"),
        ]
        for (environment, message) in cases {
            do {
                try await site.build(environment: environment)
                XCTFail("built with \(environment)")
            } catch let error as FolioError {
                XCTAssertTrue(error.description.contains(message), "\(error) should say \(message)")
                XCTAssertFalse(error.description.contains(mistyped.prefix(20)), "the secret is not repeated: \(error)")
                XCTAssertEqual(error.step, ConfigureStep.name)
            }
            XCTAssertEqual(try Self.published(site), before)
        }
        XCTAssertEqual(try SiteSecret.parse("  \(Self.secret.uppercased())\r\n", origin: "test").hex, Self.secret)
    }
}

@testable import FolioCore
@testable import FolioModel
import Foundation
import XCTest

/// `folio secret`: the secret it prints, given back to a build from a fresh clone, publishes the
/// unlisted and protected albums at the addresses, and in the bytes, the site had.
final class SecretCLITests: CLITestCase {
    /// A site of an unlisted and a protected album, every photo dated by its record.
    func gallery() throws -> URL {
        let site = try temporaryFolder()
        let content = site.appendingPathComponent("content")
        for (path, photo) in [("harbour.jpg", 1), ("family/party.jpg", 2), ("locked/kid.jpg", 3)] {
            let url = content.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contentsOf: Self.repository.appendingPathComponent("content/photo\(photo).jpg")).write(to: url)
        }
        func plist(_ value: Any, _ path: String) throws {
            try PropertyListSerialization.data(fromPropertyList: value, format: .xml, options: 0).write(to: content.appendingPathComponent(path))
        }
        try plist(["unlisted": true, "title": "Family"], "family/album.plist")
        try plist(["password": "correct horse", "title": "Locked"], "locked/album.plist")
        try plist([["path": "harbour.jpg", "name": "Harbour", "user": "Ann", "uploaded": Date(timeIntervalSince1970: 1_700_000_000)],
                   ["path": "family/party.jpg", "name": "Party", "user": "Ann", "uploaded": Date(timeIntervalSince1970: 1_700_100_000)],
                   ["path": "locked/kid.jpg", "name": "Kid", "user": "Ann", "uploaded": Date(timeIntervalSince1970: 1_700_200_000)]],
                  "photos.plist")
        return site
    }

    /// The unlisted pages' paths and bytes.
    func unlisted(_ site: URL) throws -> [String: Data] {
        let root = site.appendingPathComponent("public")
        var pages: [String: Data] = [:]
        for path in try LocalFileAccess().files(under: root) where path.hasPrefix("unlisted/") {
            pages[path] = try Data(contentsOf: root.appendingPathComponent(path))
        }
        return pages
    }

    func testThePrintedSecretGivenBackToAFreshModelReproducesTheAddresses() throws {
        let site = try gallery()
        let built = try folio(["build", "--site", site.path])
        XCTAssertEqual(built.status, 0, built.errors)
        let pages = try unlisted(site)
        XCTAssertEqual(Set(pages.keys.map { $0.split(separator: "/")[1] }).count, 2, "\(pages.keys)")

        let printed = try folio(["secret", "--site", site.path])
        XCTAssertEqual(printed.status, 0, printed.errors)
        XCTAssertNotNil(printed.output.range(of: #"^[0-9a-f]{64}\n$"#, options: .regularExpression), printed.output)
        XCTAssertEqual(try folio(["secret", "--site", site.path]).output, printed.output, "the same secret every time")
        let secret = printed.output.trimmingCharacters(in: .newlines)

        // A fresh clone: the same content, no model. Given the secret, the same pages at the
        // same addresses; without it, addresses of its own.
        let clone = try gallery()
        let given = try folio(["build", "--site", clone.path], environment: [SiteSecret.variable: secret])
        XCTAssertEqual(given.status, 0, given.errors)
        XCTAssertEqual(try unlisted(clone), pages)
        XCTAssertEqual(try folio(["secret", "--site", clone.path], environment: [SiteSecret.variable: secret]).output, printed.output)
        let other = try gallery()
        XCTAssertEqual(try folio(["build", "--site", other.path]).status, 0)
        XCTAssertTrue(Set(try unlisted(other).keys).isDisjoint(with: pages.keys))
    }

    func testABadSecretIsAClearError() throws {
        let site = try gallery()
        for command in [["build"], ["secret"]] {
            let run = try folio(command + ["--site", site.path], environment: [SiteSecret.variable: "12345"])
            XCTAssertEqual(run.status, 1, run.output)
            XCTAssertTrue(run.errors.hasPrefix("error: FOLIO_SITE_SECRET: has 5 digits: a site secret is 64 hexadecimal digits"), run.errors)
            XCTAssertEqual(run.output, "")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.appendingPathComponent("public/index.html").path))
        let elsewhere = try temporaryFolder()
        let notASite = try folio(["secret", "--site", elsewhere.path])
        XCTAssertEqual(notASite.status, 1)
        XCTAssertTrue(notASite.errors.contains("not a Folio site"), notASite.errors)
        XCTAssertFalse(FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("folio.sqlite").path), "no model made there")
        let help = try folio(["secret", "--help"])
        XCTAssertEqual(help.status, 0)
        for word in ["FOLIO_SITE_SECRET=", "FOLIO_SITE_SECRET_FILE=", "fresh clone"] { XCTAssertTrue(help.output.contains(word), help.output) }
    }
}

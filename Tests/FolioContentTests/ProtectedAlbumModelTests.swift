@testable import FolioContent
@testable import FolioCore
@testable import FolioModel
import FolioTestSupport
import Foundation
import XCTest

/// No way into a protected album cheaper through the model than through its published pages:
/// the model keeps nothing computed from the password, and what tells a build that the password
/// changed costs the key's derivation.
final class ProtectedAlbumModelTests: XCTestCase {
    /// What the model kept of a password before: one SHA-256 of it.
    static func oldDigest(folder: String, password: String) -> String {
        SHA256.hex(Data("folio album password\u{0}\(folder)\u{0}\(password)".utf8))
    }

    static func setModified(_ site: TestSite, _ path: String, to date: Date) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: site.root.appendingPathComponent(path).path)
    }

    /// Every file of the site's folder but content/ (the model, build state, caches, `public/`)
    /// as one text.
    static func everything(under root: URL) throws -> String {
        try LocalFileAccess().files(under: root).filter { !$0.hasPrefix("content/") }.map {
            String(decoding: try Data(contentsOf: root.appendingPathComponent($0)), as: UTF8.self)
        }.joined()
    }

    /// Two passwords read from files of one stamp are the same to the model: what it keeps says
    /// nothing of them, so a guess cannot be checked against it at all.
    func testTheModelKeepsNothingComputedFromThePassword() throws {
        let site = try TestSite()
        let reader = AlbumSettingsReader(contentRoot: site.content, files: LocalFileAccess())
        let stamp = FileStamp(size: 300, modified: Date().addingTimeInterval(-3600))
        var read: [AlbumInfo] = []
        for password in ["hunter2", "hunter3"] {
            try site.write(TestInputs.plist(["title": "Lockedfamily", "password": password]), to: "content/family/album.plist")
            let (album, given, issues, _) = reader.read("family/album.plist", stamp: stamp, now: Date(), photos: [])
            XCTAssertEqual(issues, [])
            XCTAssertEqual(given, password)
            read.append(try XCTUnwrap(album))
        }
        XCTAssertEqual(read[0], read[1])
        XCTAssertTrue(read[0].isProtected)
        XCTAssertNotEqual(read[0].passwordSource, Self.oldDigest(folder: "family", password: "hunter2"))
        // Another file, or the same one written again, is another source: the next build looks.
        let touched = reader.read("family/album.plist", stamp: FileStamp(size: 300, modified: Date().addingTimeInterval(-3000)),
                                  now: Date(), photos: [])
        XCTAssertNotEqual(touched.album, read[0])
        let fresh = reader.read("family/album.plist", stamp: FileStamp(size: 300, modified: Date()), now: Date(), photos: [])
        let freshAgain = reader.read("family/album.plist", stamp: FileStamp(size: 300, modified: Date()), now: Date(), photos: [])
        XCTAssertNotEqual(fresh.album, freshAgain.album, "a file written a moment ago is not known by its stamp")
    }

    /// What decides whether a protected album's pages are drawn again is the verifier of its
    /// key: an HMAC under the PBKDF2 key itself, checked here against Python's own PBKDF2 and
    /// HMAC. A guess against it costs the full rounds, as against the published pages.
    func testTheLockIsTheVerifierOfTheSlowlyDerivedKey() throws {
        let salt: [UInt8] = Array(0..<16)
        let cipher = try AlbumCipher(password: "hunter2", salt: salt)
        let script = """
            import hashlib, hmac, sys
            key = hashlib.pbkdf2_hmac("sha256", sys.argv[1].encode(), bytes.fromhex(sys.argv[2]), int(sys.argv[3]))
            sys.stdout.write(hmac.new(key, b"folio album key verifier", "sha256").hexdigest())
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, "hunter2", salt.hexText, "\(AlbumCipher.iterations)"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let expected = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(cipher.verifier, expected)
        XCTAssertNotEqual(try AlbumCipher(password: "hunter2", salt: salt, iterations: 1).verifier, expected, "fewer rounds, another lock")
        XCTAssertNotEqual(try AlbumCipher(password: "hunter3", salt: salt).verifier, expected)
    }

    /// A new password in the album.plist is sealed by the next build; builds that lay out no
    /// pages (nothing moved, or files written again as they were) derive no key, as before.
    func testANewPasswordIsSealedAndAnUnchangedOneCostsNoDerivation() async throws {
        let site = try TestSite()
        try site.write(try TestInputs.photo(1), to: "content/harbour.jpg")
        try site.write(try TestInputs.photo(2), to: "content/family/party.jpg")
        try site.catalog("c.plist", [["path": "harbour.jpg", "name": "Harbour"], ["path": "family/party.jpg", "name": "Party"]])
        try site.write(TestInputs.plist(["title": "Lockedfamily", "password": "hunter2"]), to: "content/family/album.plist")
        let hourAgo = Date().addingTimeInterval(-3600)
        for path in ["content/harbour.jpg", "content/family/party.jpg", "content/c.plist", "content/family/album.plist"] {
            try Self.setModified(site, path, to: hourAgo)
        }
        let built = try await site.build()
        XCTAssertEqual(built.issues.map(\.description), [])
        let page = site.publicFolder.appendingPathComponent(try XCTUnwrap(built.unlisted.first?.link)).path
        XCTAssertNotNil(try ProtectedPage.decrypt(page, password: "hunter2"))
        let everything = try Self.everything(under: site.root)
        XCTAssertFalse(everything.contains(Self.oldDigest(folder: "family", password: "hunter2")))
        XCTAssertFalse(everything.contains("hunter2"))

        // Nothing moved; then the catalog written again as it was: the model is as it was, and
        // the build stops before laying out pages, where the key would be derived.
        let again = try await site.build()
        XCTAssertTrue(again.upToDate)
        try site.catalog("c.plist", [["path": "harbour.jpg", "name": "Harbour"], ["path": "family/party.jpg", "name": "Party"]])
        let reread = try await site.build()
        XCTAssertTrue(reread.upToDate)
        XCTAssertEqual(reread.pagesLookedAt, 0)

        // A new password, in a file written (long enough) before the build: sealed with it.
        try site.write(TestInputs.plist(["title": "Lockedfamily", "password": "battery staple"]), to: "content/family/album.plist")
        try Self.setModified(site, "content/family/album.plist", to: hourAgo.addingTimeInterval(60))
        let changed = try await site.build()
        XCTAssertFalse(changed.upToDate)
        XCTAssertNil(try ProtectedPage.decrypt(page, password: "hunter2"))
        XCTAssertNotNil(try ProtectedPage.decrypt(page, password: "battery staple"))
    }

    /// A password given by a variable is not in any file: a new value is sealed by the next
    /// build that lays out pages (the key is derived there, on every such build).
    /// The reference decryption tells a wrong password (nil) from a page it could not try at all
    /// (an error naming the page), so a test of a wrong password cannot pass for another reason.
    func testTheReferenceDecryptionNamesAPageItCannotTry() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-page-\(UUID().uuidString).html").path
        XCTAssertThrowsError(try ProtectedPage.decrypt(missing, password: "hunter2")) { error in
            XCTAssertEqual((error as? FolioError)?.path, missing)
        }
    }

    func testANewPasswordFromAVariableIsSealedByTheNextBuildThatDrawsPages() async throws {
        let site = try TestSite()
        try site.write(try TestInputs.photo(1), to: "content/harbour.jpg")
        try site.write(try TestInputs.photo(2), to: "content/family/party.jpg")
        try site.write(TestInputs.plist(["title": "Lockedfamily", "passwordVariable": "FOLIO_TEST_FAMILY"]),
                       to: "content/family/album.plist")
        try Self.setModified(site, "content/family/album.plist", to: Date().addingTimeInterval(-3600))
        let built = try await site.build(environment: ["FOLIO_TEST_FAMILY": "hunter2"])
        let page = site.publicFolder.appendingPathComponent(try XCTUnwrap(built.unlisted.first?.link)).path
        XCTAssertNotNil(try ProtectedPage.decrypt(page, password: "hunter2"))
        try site.write(try TestInputs.photo(3), to: "content/lighthouse.jpg")
        _ = try await site.build(environment: ["FOLIO_TEST_FAMILY": "battery staple"])
        XCTAssertNil(try ProtectedPage.decrypt(page, password: "hunter2"))
        XCTAssertNotNil(try ProtectedPage.decrypt(page, password: "battery staple"))
    }
}

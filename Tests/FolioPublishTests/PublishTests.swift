@testable import FolioCore
@testable import FolioNetwork
@testable import FolioPublish
import FolioTestSupport
import Foundation
import XCTest

/// `folio publish` against a real S3-compatible server (moto, on 127.0.0.1, checking every
/// request's signature): a first publish, one that has nothing to do, an edit, a deletion, an
/// interrupted publish resumed, wrong credentials, multipart uploads, and the headers objects get.
final class PublishTests: XCTestCase {
    var moto: MotoServer!

    override func setUp() async throws {
        moto = try await MotoServer.start()
    }

    override func tearDown() async throws {
        moto?.stop()
    }

    /// Every request, in the order sent: "PUT media/…", "DELETE old.html". It can also cut the
    /// connection, as if the network went, and answer like a busy bucket.
    final class Recorder: WebClient, @unchecked Sendable {
        let inner = CurlWebClient()
        let lock = NSLock()
        var sent: [String] = []
        /// Asked before each PUT with the paths PUT so far (manifests included): true cuts the
        /// connection, and every request after it.
        var cutBefore: (([String]) -> Bool)?
        var cut = false
        /// The first PUT of each path is answered "503 SlowDown" without reaching the bucket.
        var slowDownFirst = false

        func send(_ request: WebRequest) async throws -> WebResponse {
            let path = request.url.path.split(separator: "/", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
            let line = "\(request.method.rawValue) \(path.removingPercentEncoding ?? path)"
            enum Answer { case send, cut, slowDown }
            let answer: Answer = lock.withLock {
                if request.method == .put, let cutBefore, cutBefore(sent.filter { $0.hasPrefix("PUT ") }.map { String($0.dropFirst(4)) }) {
                    cut = true
                }
                if cut { return .cut }
                let first = !sent.contains(line)
                sent.append(line)
                return slowDownFirst && request.method == .put && first ? .slowDown : .send
            }
            switch answer {
            case .cut:
                throw WebError(.other, url: request.shownURL, detail: "the test cut the connection")
            case .slowDown:
                return WebResponse(status: 503, body: Data("<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>".utf8))
            case .send:
                return try await inner.send(request)
            }
        }
    }

    func bucket(_ name: String = "gallery", credentials: S3Credentials? = nil, web: any WebClient = CurlWebClient()) throws -> S3Bucket {
        try S3Bucket(name: name, endpoint: moto.endpoint, region: "us-east-1", credentials: credentials ?? moto.credentials, web: web,
                 retry: RetryPolicy(attempts: 2, sleep: { _ in }))
    }

    func makeBucket(_ name: String = "gallery") async throws {
        _ = try await bucket(name).send(.put, "")
    }

    func publish(_ site: TestSite, prefix: String = "", delete: Bool = false, dryRun: Bool = false, web: any WebClient = CurlWebClient(),
                 checkpointEvery: Int = 25) async throws -> PublishReport {
        let options = PublishOptions(bucket: "gallery", endpoint: moto.endpoint, prefix: prefix, dryRun: dryRun, delete: delete,
                                     concurrency: 4, checkpointEvery: checkpointEvery)
        return try await Publisher(bucket: bucket(web: web), options: options).run(site.publicFolder)
    }

    func localFiles(_ site: TestSite) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for entry in try LocalFileAccess().entries(under: site.publicFolder) {
            files[entry.path] = try Data(contentsOf: site.publicFolder.appendingPathComponent(entry.path))
        }
        return files
    }

    /// The bucket holds exactly `public/` (and the manifest, and what a publish without `--delete`
    /// kept), byte for byte.
    func assertBucketMatches(_ site: TestSite, prefix: String = "", keeping kept: [String] = [], file: StaticString = #filePath,
                             line: UInt = #line) async throws {
        let local = try localFiles(site)
        let listing = try await bucket().list(prefix: prefix)
        XCTAssertEqual(Set(listing.keys), Set((Array(local.keys) + kept + [PublishManifest.name]).map { prefix + $0 }), file: file, line: line)
        for (path, data) in local {
            let remote = try await bucket().get(prefix + path)
            XCTAssertEqual(remote, data, path, file: file, line: line)
        }
    }

    /// What the owner kept from the public never reaches the bucket: a .nomedia folder, an
    /// excluded file, a protected album (sent only as ciphertext). Every object is read back and
    /// searched for the hidden photos' names, titles and bytes.
    func testWhatIsHiddenNeverReachesTheBucket() async throws {
        try await makeBucket()
        let site = try TestSite()
        try site.photo("open/harbour.jpg")
        try site.photo("private/hiddenbynomedia.jpg", from: TestSite.repository.appendingPathComponent("content/photo2.jpg"))
        try site.write(Data(), to: "content/private/.nomedia")
        try site.photo("drafts/hiddenbypattern.tmp.jpg", from: TestSite.repository.appendingPathComponent("content/photo3.jpg"))
        try site.write(Data(#"{"exclude": ["*.tmp.jpg"]}"#.utf8), to: "folio.json")
        try site.write(try TestInputs.photo(7), to: "content/family/hiddenbypassword.jpg")
        try site.write(TestInputs.plist(["title": "Hiddenfamily", "password": "a long passphrase"]), to: "content/family/album.plist")
        try site.catalog("c.plist", [["path": "family/hiddenbypassword.jpg", "name": "Hiddentitle"],
                                     ["path": "private/hiddenbynomedia.jpg", "name": "Hiddentitle two"]])
        let report = try await site.build()
        XCTAssertEqual(report.issues.map(\.description), [])
        _ = try await publish(site)
        try await assertBucketMatches(site)
        var everything = Data()
        for key in try await bucket().list(prefix: "").keys { everything += try await bucket().get(key) ?? Data() }
        let text = String(decoding: everything, as: UTF8.self)
        for word in ["hiddenbynomedia", "hiddenbypattern", "hiddenbypassword", "Hiddenfamily", "Hiddentitle", "a long passphrase"] {
            XCTAssertFalse(text.contains(word), "\(word) is in the bucket")
        }
        for path in ["private/hiddenbynomedia.jpg", "drafts/hiddenbypattern.tmp.jpg", "family/hiddenbypassword.jpg"] {
            let original = try Data(contentsOf: site.content.appendingPathComponent(path))
            XCTAssertNil(everything.range(of: original), "\(path)'s bytes are in the bucket")
        }
        XCTAssertTrue(text.contains("Protected album"), "the protected album is there, as ciphertext")
    }

    func testAFirstPublishSendsEverythingAndASecondNothing() async throws {
        try await makeBucket()
        let site = try TestSite.threePhotos()
        try await site.build()
        let files = try localFiles(site)
        let first = try await publish(site)
        XCTAssertEqual(first.uploaded, files.count)
        XCTAssertEqual(first.plan.unchanged, 0)
        try await assertBucketMatches(site)

        let recorder = Recorder()
        let second = try await publish(site, web: recorder)
        XCTAssertEqual(second.uploaded, 0, "nothing changed: nothing is sent")
        XCTAssertEqual(second.plan.unchanged, files.count)
        XCTAssertEqual(recorder.sent.filter { !$0.hasPrefix("GET ") }, [], "not even the manifest: \(recorder.sent)")
    }

    func testAnEditSendsOnlyTheChangedPagesAndMediaAndMediaGoFirst() async throws {
        try await makeBucket()
        let site = try TestSite.threePhotos()
        try await site.build()
        _ = try await publish(site)
        let before = try localFiles(site)

        // A new title changes pages only; new bytes for a photo change its media too.
        try site.photo("two.jpg", from: TestSite.repository.appendingPathComponent("content/cc0/coffee.png"))
        try site.catalog("FakeData.plist", [
            ["path": "one.jpg", "name": "A new title", "user": "Josh", "description": "Rubble",
             "place": "Palo Alto, California, United States", "favorite": true],
            ["path": "two.jpg", "user": "Al", "place": "Nairobi, Kenya", "taken": Date(timeIntervalSince1970: 1_700_000_000)],
        ])
        try await site.build()
        let after = try localFiles(site)
        let changed = Set(after.filter { before[$0.key] != $0.value }.keys)
        XCTAssertTrue(changed.contains { $0.hasPrefix("media/") } && changed.contains { $0.hasSuffix(".html") }, "\(changed)")

        let recorder = Recorder()
        let report = try await publish(site, web: recorder)
        XCTAssertEqual(Set(report.plan.uploads.map(\.file.path)), changed, "exactly what changed")
        XCTAssertEqual(report.uploaded, changed.count)
        let puts = recorder.sent.filter { $0.hasPrefix("PUT ") && !$0.hasSuffix(PublishManifest.name) }.map { String($0.dropFirst(4)) }
        let lastMedia = try XCTUnwrap(puts.lastIndex { $0.hasPrefix("media/") })
        let firstPage = try XCTUnwrap(puts.firstIndex { $0.hasSuffix(".html") })
        XCTAssertLessThan(lastMedia, firstPage, "media before the pages that show them: \(puts)")
        let entrances: Set = ["index.html", "feed.xml", "sitemap.xml", "robots.txt"]
        let firstEntrance = try XCTUnwrap(puts.firstIndex { entrances.contains($0) })
        let lastOtherPage = try XCTUnwrap(puts.lastIndex { $0.hasSuffix(".html") && !entrances.contains($0) })
        XCTAssertLessThan(lastOtherPage, firstEntrance, "the home page and the feed once the pages they lead to are up: \(puts)")
        XCTAssertFalse(report.plan.stale.isEmpty, "the old photo's media are no longer in public/")
        XCTAssertEqual(report.kept, report.plan.stale.count)
        try await assertBucketMatches(site, keeping: report.plan.stale)
    }

    func testDeletionsWaitForDeleteAndComeLast() async throws {
        try await makeBucket()
        let site = try TestSite.threePhotos()
        try await site.build()
        _ = try await publish(site)
        let before = Set(try localFiles(site).keys)
        try FileManager.default.removeItem(at: site.content.appendingPathComponent("loose"))
        try await site.build()
        let gone = before.subtracting(try localFiles(site).keys)
        XCTAssertTrue(gone.contains { $0.hasPrefix("photos/") } && gone.contains { $0.hasPrefix("media/") }, "\(gone)")

        let kept = try await publish(site)
        XCTAssertEqual(kept.kept, gone.count)
        let listing = try await bucket().list(prefix: "")
        XCTAssertTrue(gone.allSatisfy { listing[$0] != nil }, "without --delete nothing goes")

        let dry = try await publish(site, delete: true, dryRun: true)
        XCTAssertEqual(Set(dry.plan.stale), gone)
        let afterDryRun = try await bucket().list(prefix: "")
        XCTAssertEqual(afterDryRun.count, listing.count, "a dry run changes nothing")

        try site.catalog("FakeData.plist", [
            ["path": "one.jpg", "name": "Retitled", "user": "Josh", "place": "Palo Alto, California, United States"],
            ["path": "two.jpg", "user": "Al", "place": "Nairobi, Kenya", "taken": Date(timeIntervalSince1970: 1_700_000_000)],
        ])
        try await site.build()
        let recorder = Recorder()
        let deleted = try await publish(site, delete: true, web: recorder)
        XCTAssertTrue(gone.isSubset(of: deleted.plan.stale), "\(deleted.plan.stale)")
        XCTAssertEqual(deleted.deleted, deleted.plan.stale.count)
        XCTAssertEqual(recorder.sent.filter { $0.hasPrefix("DELETE ") }.count, deleted.plan.stale.count)
        let lastPut = try XCTUnwrap(recorder.sent.lastIndex { $0.hasPrefix("PUT ") && !$0.hasSuffix(PublishManifest.name) })
        let firstDelete = try XCTUnwrap(recorder.sent.firstIndex { $0.hasPrefix("DELETE ") })
        XCTAssertLessThan(lastPut, firstDelete, "deletions once the new pages are up: \(recorder.sent)")
        try await assertBucketMatches(site)
    }

    func testAnInterruptedPublishIsResumedWithoutSendingAgainWhatWentUp() async throws {
        try await makeBucket()
        let site = try TestSite.threePhotos()
        try await site.build()
        let files = try PublishFile.scan(site.publicFolder)
        let media = files.filter { $0.phase == .media }.count
        // Cut in the middle of the theme's files and the search index: the media are up, five of
        // these went up and were saved in the manifest (every five uploads), two more went up
        // unrecorded, and no page is there yet.
        let cut = Recorder()
        cut.cutBefore = { puts in puts.filter { !$0.hasPrefix("media/") && !$0.hasSuffix(PublishManifest.name) }.count >= 7 }
        do {
            _ = try await publish(site, web: cut, checkpointEvery: 5)
            XCTFail("the cut connection must fail the publish")
        } catch {
            XCTAssertTrue("\(error)".contains("the test cut the connection"), "\(error)")
        }
        let listing = try await bucket().list(prefix: "")
        XCTAssertEqual(listing.keys.filter { $0.hasSuffix(".html") }, [], "no page before the files it uses are all up")
        let savedData = try await bucket().get(PublishManifest.name)
        let saved = PublishManifest(try XCTUnwrap(savedData, "a manifest was saved"))
        let savedOther = Set(saved.entries.keys.filter { PublishFile.Phase.of($0) != .media })
        XCTAssertEqual(savedOther.count, 5, "the manifest was saved as the publish went: \(saved.entries.keys.sorted())")

        let recorder = Recorder()
        let resumed = try await publish(site, web: recorder)
        let sent = Set(resumed.plan.uploads.map(\.file.path))
        XCTAssertTrue(sent.isDisjoint(with: saved.entries.keys), "what the manifest says went up is not sent again: \(sent.intersection(saved.entries.keys))")
        XCTAssertFalse(recorder.sent.contains { $0.hasPrefix("PUT media/") }, "the media went up before the cut")
        XCTAssertEqual(resumed.uploaded, files.count - media - 5, "all but the media and the five recorded")
        try await assertBucketMatches(site)
    }

    func testABusyBucketIsAskedAgain() async throws {
        try await makeBucket()
        let site = try TestSite.threePhotos()
        try await site.build()
        let recorder = Recorder()
        recorder.slowDownFirst = true
        let report = try await publish(site, web: recorder)
        let files = try localFiles(site)
        XCTAssertEqual(report.uploaded, files.count)
        for path in files.keys {
            XCTAssertEqual(recorder.sent.filter { $0 == "PUT \(path)" }.count, 2, "refused once, then sent: \(path)")
        }
        try await assertBucketMatches(site)
    }

    func testObjectsCarryTheirTypeAndCaching() async throws {
        try await makeBucket()
        let site = try TestSite.threePhotos()
        try await site.build()
        _ = try await publish(site)
        let media = try XCTUnwrap(try localFiles(site).keys.first { $0.hasPrefix("media/") && $0.hasSuffix(".jpg") })
        let expected: [(String, String, String)] = [
            (media, "image/jpeg", "public, max-age=31536000, immutable"),
            ("index.html", "text/html; charset=utf-8", "public, max-age=300"),
            ("places/index.html", "text/html; charset=utf-8", "public, max-age=300"),
            ("assets/style.css", "text/css; charset=utf-8", "public, max-age=300"),
            ("assets/favicon.svg", "image/svg+xml", "public, max-age=300"),
            ("assets/apple-touch-icon.png", "image/png", "public, max-age=300"),
            ("search/data/meta.js", "text/javascript; charset=utf-8", "public, max-age=300"),
            ("feed.xml", "application/xml; charset=utf-8", "public, max-age=300"),
            ("robots.txt", "text/plain; charset=utf-8", "public, max-age=300"),
        ]
        for (path, type, cache) in expected {
            let headers = try await bucket().head(path)
            XCTAssertEqual(headers?["content-type"], type, path)
            XCTAssertEqual(headers?["cache-control"], cache, path)
        }
    }

    /// moto checks no signature here: the query of a listing under a prefix holds "photos%2F",
    /// which moto's server turns back into "photos/" before checking, so no client (boto3
    /// neither) can sign it to moto's liking. AWS signs the encoded form, as Folio does; the
    /// signature suite (SigV4Tests) covers the encoding.
    func testASiteUnderAPrefixLivesThereAndIsComparedThere() async throws {
        moto.stop()
        moto = try await MotoServer.start(authenticated: false)
        try await makeBucket()
        _ = try await bucket().put("elsewhere/index.html", body: Data("another site".utf8), contentType: "text/html", cacheControl: "no-store")
        let site = try TestSite.threePhotos()
        try await site.build()
        let first = try await publish(site, prefix: "/photos")
        XCTAssertEqual(first.uploaded, try localFiles(site).count)
        try await assertBucketMatches(site, prefix: "photos/")
        let headers = try await bucket().head("photos/index.html")
        XCTAssertEqual(headers?["content-type"], "text/html; charset=utf-8")

        let again = try await publish(site, prefix: "photos", delete: true)
        XCTAssertEqual(again.uploaded, 0, "the manifest under the prefix says what is there")
        XCTAssertEqual(again.plan.stale, [], "another folder of the bucket is not this site's")
        let other = try await bucket().get("elsewhere/index.html")
        XCTAssertEqual(other, Data("another site".utf8))
    }

    func testALargeFileGoesUpInParts() async throws {
        try await makeBucket()
        let site = try TestSite.threePhotos()
        try await site.build()
        var big = Data(count: 11 << 20)
        big.withUnsafeMutableBytes { for i in stride(from: 0, to: $0.count, by: 4096) { $0[i] = UInt8(truncatingIfNeeded: i / 4096) } }
        try big.write(to: site.publicFolder.appendingPathComponent("media/big.bin"))
        let recorder = Recorder()
        let options = PublishOptions(bucket: "gallery", endpoint: moto.endpoint, multipartThreshold: 6 << 20, partSize: 5 << 20)
        _ = try await Publisher(bucket: bucket(web: recorder), options: options).run(site.publicFolder)
        XCTAssertEqual(recorder.sent.filter { $0 == "PUT media/big.bin" }.count, 3, "three parts of at most 5 MiB: \(recorder.sent.filter { $0.contains("big") })")
        XCTAssertEqual(recorder.sent.filter { $0 == "POST media/big.bin" }.count, 2, "started and completed")
        let back = try await bucket().get("media/big.bin")
        XCTAssertEqual(back, big)
        let headers = try await bucket().head("media/big.bin")
        XCTAssertEqual(headers?["cache-control"], "public, max-age=31536000, immutable")
    }

    func testWrongCredentialsAreSaidClearlyAndNeverShown() async throws {
        try await makeBucket()
        let site = try TestSite.threePhotos()
        try await site.build()
        for credentials in [S3Credentials(accessKey: moto.credentials.accessKey, secretKey: "not-the-secret-at-all"),
                            S3Credentials(accessKey: "AKIDNOSUCHKEY0000000", secretKey: "not-the-secret-at-all")] {
            let options = PublishOptions(bucket: "gallery", endpoint: moto.endpoint)
            do {
                _ = try await Publisher(bucket: bucket(credentials: credentials), options: options).run(site.publicFolder)
                XCTFail("wrong credentials must fail")
            } catch {
                let message = "\(error)"
                XCTAssertTrue(message.contains("the bucket refused the credentials"), message)
                XCTAssertTrue(message.contains("SignatureDoesNotMatch") || message.contains("InvalidAccessKeyId"), message)
                XCTAssertFalse(message.contains("not-the-secret-at-all"), message)
            }
        }
        let listing = try await bucket().list(prefix: "")
        XCTAssertEqual(listing.count, 0, "nothing was written")
    }
}

@testable import FolioModel
@testable import FolioNetwork
@testable import FolioPublish
import FolioTestSupport
import Foundation
import XCTest

/// `folio publish` as a user runs it, against moto on 127.0.0.1 (which checks every signature):
/// the dry run's plan, credentials from a profile, wrong or missing credentials in one line, and
/// a publish killed (SIGKILL) part-way, which never leaves a page showing a missing image and is
/// finished by the next publish.
final class PublishCLITests: CLITestCase {
    var moto: MotoServer!

    override func setUp() async throws {
        moto = try await MotoServer.start()
    }

    override func tearDown() async throws {
        moto?.stop()
    }

    func bucket(_ name: String) throws -> S3Bucket {
        try S3Bucket(name: name, endpoint: moto.endpoint, region: "us-east-1", credentials: moto.credentials,
                 retry: RetryPolicy(attempts: 2, sleep: { _ in }))
    }

    func makeBucket(_ name: String) async throws -> S3Bucket {
        let bucket = try bucket(name)
        _ = try await bucket.send(.put, "")
        return bucket
    }

    /// The keys, and nothing else that could stand in for them.
    var credentials: [String: String] {
        ["AWS_ACCESS_KEY_ID": moto.credentials.accessKey, "AWS_SECRET_ACCESS_KEY": moto.credentials.secretKey,
         "AWS_SESSION_TOKEN": "", "AWS_PROFILE": "", "AWS_REGION": "", "AWS_DEFAULT_REGION": ""]
    }

    func publish(_ site: URL, _ bucket: String, _ more: [String] = [], environment: [String: String]? = nil) throws -> Run {
        try folio(["publish", "--site", site.path, "--bucket", bucket, "--endpoint", moto.endpoint.absoluteString] + more,
                  environment: environment ?? credentials)
    }

    /// Three photos, built.
    func makeSite() throws -> URL {
        let site = try temporaryFolder()
        let content = site.appendingPathComponent("content")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        for n in 1...3 {
            try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("content/photo\(n).jpg"),
                                             to: content.appendingPathComponent("p\(n).jpg"))
        }
        try catalog(site, ["p1.jpg", "p2.jpg", "p3.jpg"])
        let build = try folio(["build", "--site", site.path])
        XCTAssertEqual(build.status, 0, build.errors)
        return site
    }

    func catalog(_ site: URL, _ paths: [String]) throws {
        let day = Date(timeIntervalSince1970: 1_700_000_000)
        let plist = paths.map { ["path": $0, "name": "Photo \($0)", "user": "Ann", "place": "Nice, Provence, France", "taken": day,
                                 "uploaded": day] as [String: Any] }
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: site.appendingPathComponent("content/catalog.plist"))
    }

    func files(_ site: URL) throws -> [PublishFile] {
        try PublishFile.scan(site.appendingPathComponent("public"))
    }

    /// The bucket holds exactly `public/` and the manifest, byte for byte.
    func assertBucketMatches(_ site: URL, _ bucket: S3Bucket, file: StaticString = #filePath, line: UInt = #line) async throws {
        let local = try files(site)
        let listing = try await bucket.list(prefix: "")
        XCTAssertEqual(Set(listing.keys), Set(local.map(\.path) + [PublishManifest.name]), file: file, line: line)
        for entry in local {
            let remote = try await bucket.get(entry.path)
            let data = try Data(contentsOf: site.appendingPathComponent("public/\(entry.path)"))
            XCTAssertEqual(remote, data, entry.path, file: file, line: line)
        }
    }

    /// What a visitor would meet missing: each image, srcset candidate, stylesheet, script and icon
    /// that a page in the bucket names and the bucket does not hold.
    func missingResources(_ bucket: S3Bucket) async throws -> [String] {
        let listing = try await bucket.list(prefix: "")
        var missing: [String] = []
        for page in listing.keys.sorted() where page.hasSuffix(".html") {
            let html = String(decoding: try await bucket.get(page) ?? Data(), as: UTF8.self)
            let srcset = PublicTreeChecks.matches(#"\ssrcset="([^"]*)""#, in: html).flatMap { value in
                value.split(separator: ",").compactMap { $0.split(separator: " ").first.map(String.init) }
            }
            // Stylesheets and icons; not the feed a page points to (rel="alternate"), which goes up last.
            let links = PublicTreeChecks.matches(#"(<link\b[^>]*>)"#, in: html).filter { !$0.contains(#"rel="alternate""#) }
                .flatMap { PublicTreeChecks.matches(#"\shref="([^"]*)""#, in: $0) }
            for reference in PublicTreeChecks.matches(#"\ssrc="([^"]*)""#, in: html) + srcset + links {
                if reference.contains("://") || reference.hasPrefix("#") { continue }
                let target = URL(fileURLWithPath: "/" + page).deletingLastPathComponent().appendingPathComponent(reference)
                    .standardizedFileURL.path.dropFirst()
                if listing[String(target)] == nil { missing.append("\(page) → \(reference)") }
            }
        }
        return missing
    }

    func testADryRunPrintsThePlanAndChangesNothing() async throws {
        let store = try await makeBucket("gallery")
        let site = try makeSite()
        let local = try files(site)
        let dry = try publish(site, "gallery", ["--dry-run"])
        XCTAssertEqual(dry.status, 0, dry.errors)
        let lines = dry.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, local.count + 1, dry.output)
        for file in local {
            XCTAssertTrue(lines.contains("upload \(file.path) (new, \(file.size) bytes)"), "\(file.path) in the plan")
        }
        XCTAssertTrue(lines[0].hasPrefix("upload media/"), "media first: \(lines[0])")
        XCTAssertTrue(lines.last?.hasPrefix("would upload \(local.count) files (") ?? false, dry.output)
        let afterDry = try await store.list(prefix: "")
        XCTAssertEqual(afterDry.count, 0, "a dry run sends nothing")

        XCTAssertEqual(try publish(site, "gallery").status, 0)
        // One photo gone: the pages that listed it change, and its page and media are stale.
        try catalog(site, ["p1.jpg", "p2.jpg"])
        try FileManager.default.removeItem(at: site.appendingPathComponent("content/p3.jpg"))
        XCTAssertEqual(try folio(["build", "--site", site.path]).status, 0)
        let before = try await store.list(prefix: "")
        let keep = try publish(site, "gallery", ["--dry-run"])
        let delete = try publish(site, "gallery", ["--dry-run", "--delete"])
        let stale = delete.output.split(separator: "\n").filter { $0.hasPrefix("delete ") }.map { String($0.dropFirst(7)) }
        XCTAssertTrue(stale.contains { $0.hasPrefix("media/") } && stale.contains { $0.hasPrefix("photos/") }, delete.output)
        XCTAssertTrue(stale.allSatisfy { before[$0] != nil && !FileManager.default.fileExists(atPath: site.path + "/public/" + $0) })
        for path in stale {
            XCTAssertTrue(keep.output.contains("keep \(path) (no longer in public/; --delete removes it)"), keep.output)
        }
        XCTAssertTrue(delete.output.contains("upload index.html (changed, "), delete.output)
        XCTAssertFalse(delete.output.contains("upload media/"), "no photo changed: \(delete.output)")
        XCTAssertTrue(delete.output.split(separator: "\n").last?.contains("\(stale.count) no longer in public/") ?? false, delete.output)
        let after = try await store.list(prefix: "")
        XCTAssertEqual(after, before, "a dry run with --delete deletes nothing")
    }

    func testCredentialsComeFromAProfileAndWrongOnesAreOneClearLine() async throws {
        let store = try await makeBucket("gallery")
        let site = try makeSite()
        let home = try temporaryFolder()
        let profiles = home.appendingPathComponent(".aws/credentials")
        try FileManager.default.createDirectory(at: profiles.deletingLastPathComponent(), withIntermediateDirectories: true)
        try """
            [default]
            aws_access_key_id = AKIDDEFAULTNOTTHISONE
            aws_secret_access_key = wrong-secret-of-the-default-profile

            [gallery]
            aws_access_key_id = \(moto.credentials.accessKey)
            aws_secret_access_key = \(moto.credentials.secretKey)
            """.write(to: profiles, atomically: true, encoding: .utf8)
        let noVariables = ["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_SESSION_TOKEN": "", "AWS_SHARED_CREDENTIALS_FILE": "",
                           "HOME": home.path]

        let refused = try publish(site, "gallery", environment: noVariables.merging(["AWS_PROFILE": ""]) { $1 })
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.output, "")
        XCTAssertEqual(refused.errors, "error: the bucket refused the credentials (InvalidAccessKeyId): check AWS_ACCESS_KEY_ID and "
                       + "AWS_SECRET_ACCESS_KEY (or AWS_PROFILE)\n", "one line; the default profile was used")
        XCTAssertFalse(refused.errors.contains("wrong-secret"), "the secret is never shown")

        let wrongSecret = credentials.merging(["AWS_SECRET_ACCESS_KEY": "not-the-secret-at-all"]) { $1 }
        let wrong = try publish(site, "gallery", environment: wrongSecret)
        XCTAssertEqual(wrong.status, 1)
        XCTAssertEqual(wrong.errors, "error: the bucket refused the credentials (SignatureDoesNotMatch): check AWS_ACCESS_KEY_ID and "
                       + "AWS_SECRET_ACCESS_KEY (or AWS_PROFILE)\n")
        XCTAssertFalse((wrong.output + wrong.errors).contains("not-the-secret-at-all"))

        let none = try publish(site, "gallery", environment: noVariables.merging(["HOME": try temporaryFolder().path, "AWS_PROFILE": ""]) { $1 })
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.errors.hasPrefix("error: no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE"), none.errors)
        XCTAssertEqual(none.errors.filter { $0 == "\n" }.count, 1, none.errors)
        let empty = try await store.list(prefix: "")
        XCTAssertEqual(empty.count, 0, "nothing was written")

        let profile = try publish(site, "gallery", environment: noVariables.merging(["AWS_PROFILE": "gallery"]) { $1 })
        XCTAssertEqual(profile.status, 0, profile.errors)
        XCTAssertEqual(profile.output, "uploaded \(try files(site).count) files (\(PublishReport.size(try files(site).reduce(0) { $0 + $1.size }))), 0 unchanged\n")
        try await assertBucketMatches(site, store)
    }

    /// Every URL of a bucket is made from its name and region: one that cannot be part of an
    /// address is one clear line, not a crash (it was a force-unwrapped nil).
    func testABucketOrRegionThatCannotBeAnAddressIsOneLine() throws {
        let site = try makeSite()
        for (more, expected) in [
            (["--bucket", "my photos"], "error: bucket 'my photos': a bucket's name holds only letters, digits, '.', '-' and '_'\n"),
            (["--bucket", "photos", "--region", "us east"], "error: region 'us east': a region is letters, digits and '-' (eu-west-1, auto)\n"),
            (["--bucket", "photos/x"], "error: bucket 'photos/x': a bucket's name holds only letters, digits, '.', '-' and '_'\n"),
        ] {
            let run = try folio(["publish", "--site", site.path, "--dry-run"] + more, environment: credentials)
            XCTAssertEqual(run.status, 1, "\(more)")
            XCTAssertEqual(run.errors, expected, "\(more)")
        }
    }

    /// Killed when the bucket holds a tenth, a half and three quarters of the site: strace slows
    /// each connection a little so the test can watch the bucket fill and kill at the moment it
    /// chose.
    func testAPublishKilledPartWayShowsNoBrokenImageAndTheNextFinishesIt() async throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: KillTests.strace.path), "strace is needed (scripts/setup.sh installs it)")
        let site = try makeSite()
        let total = try files(site).count
        XCTAssertGreaterThan(total, 40, "enough files for a checkpoint (every 25) before the kill")
        var resumedPastMedia = false
        for (n, threshold) in [total / 10, total / 2, total * 3 / 4].enumerated() {
            let name = "gallery\(n)"
            let store = try await makeBucket(name)
            let process = Process()
            process.executableURL = KillTests.strace
            process.arguments = ["-f", "-qq", "-o", "/dev/null", "-e", "trace=connect", "-e", "inject=connect:delay_enter=40000",
                                 executable.path, "publish", "--site", site.path, "--bucket", name, "--endpoint", moto.endpoint.absoluteString]
            process.environment = ProcessInfo.processInfo.environment.merging(credentials) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            var seen = 0
            while process.isRunning {
                seen = try await store.list(prefix: "").count
                if seen >= threshold { break }
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            // strace's child is folio; SIGKILL, which no program can catch or clean up after.
            let children = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/task/\(process.processIdentifier)/children",
                                        encoding: .utf8)) ?? ""
            let folio = try XCTUnwrap(children.split(separator: " ").first.flatMap { Int32($0) }, "folio still running at \(seen) objects")
            kill(folio, SIGKILL)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal, "killed at \(seen) objects")

            let killedAt = try await store.list(prefix: "")
            XCTAssertLessThan(killedAt.count, total + 1, "the kill came before the end")
            let recorded = PublishManifest(try await store.get(PublishManifest.name) ?? Data()).entries.keys
                .filter { PublishFile.Phase.of($0) != .media }
            let missing = try await missingResources(store)
            XCTAssertEqual(missing, [], "killed at \(killedAt.count) of \(total): no page names what is not there")

            let resumed = try publish(site, name)
            XCTAssertEqual(resumed.status, 0, resumed.errors)
            let uploaded = try XCTUnwrap(Int(PublicTreeChecks.matches(#"^uploaded (\d+) files? \(.*\), \d+ unchanged\n$"#,
                                                                      in: resumed.output).first ?? ""), resumed.output)
            // Not sent again: media already there (named by their content), and the other files the
            // manifest had recorded when the kill came; sent: everything else.
            let mediaThere = killedAt.keys.filter { PublishFile.Phase.of($0) == .media }
            XCTAssertEqual(uploaded, total - recorded.count - mediaThere.count, "killed at \(killedAt.count): \(resumed.output)")
            resumedPastMedia = resumedPastMedia || !recorded.isEmpty
            try await assertBucketMatches(site, store)
            let again = try publish(site, name)
            XCTAssertEqual(again.output, "uploaded 0 files (0 B), \(total) unchanged\n")
        }
        XCTAssertTrue(resumedPastMedia, "one kill came after the manifest recorded pages or assets")
    }

    func testPublishIsAmongTheCommandsWithItsOptions() throws {
        XCTAssertTrue(try folio(["--help"]).output.contains("publish"))
        let help = try folio(["publish", "--help"])
        XCTAssertEqual(help.status, 0)
        for option in ["--bucket", "--endpoint", "--region", "--prefix", "--dry-run", "--delete", "--concurrency"] {
            XCTAssertTrue(help.output.contains(option), "\(option): \(help.output)")
        }
        let noBucket = try folio(["publish"])
        XCTAssertNotEqual(noBucket.status, 0)
        XCTAssertTrue(noBucket.errors.contains("--bucket"), noBucket.errors)
    }
}

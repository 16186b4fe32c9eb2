@testable import FolioPipeline
@testable import FolioPreview
import FolioTestSupport
import Foundation
import XCTest

/// A real site in a temporary folder, built and served by a `PreviewSession` in this process on
/// a free port, watching its files closely so changes show within a fraction of a second.
final class PreviewFixture: @unchecked Sendable {
    let site: TestSite
    let session: PreviewSession
    let port: UInt16
    let lines = LogLines()

    final class LogLines: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [String] = []
        func append(_ line: String) { lock.withLock { all.append(line) } }
        var text: String { lock.withLock { all.joined(separator: "\n") } }
    }

    /// Two photos by two people, one loose file, and a secret beside `public/` that no request
    /// may ever read.
    static func makeSite() throws -> TestSite {
        let site = try TestSite()
        try site.photo("one.jpg")
        try site.photo("two.jpg", from: TestSite.repository.appendingPathComponent("content/photo2.jpg"))
        try site.catalog("FakeData.plist", [
            ["path": "one.jpg", "name": "Harbour", "user": "Josh", "place": "Palo Alto, California, United States"],
            ["path": "two.jpg", "name": "Market", "user": "Al", "place": "Nairobi, Kenya"],
        ])
        try site.write(Data("top secret".utf8), to: "secret.txt")
        return site
    }

    init(site: TestSite? = nil, port: UInt16 = 0, idleTimeout: TimeInterval = 30) async throws {
        self.site = try site ?? Self.makeSite()
        let lines = lines
        session = PreviewSession(
            paths: self.site.paths,
            options: PreviewOptions(port: port, build: BuildOptions(themeFolder: TestSite.theme), pollInterval: 0.05, settleDelay: 0.05,
                                    idleTimeout: idleTimeout),
            log: { lines.append($0) })
        let url = try await session.start()
        self.port = UInt16(url.port!)
        await session.idle()
    }

    func stop() async { await session.stop() }

    /// Writes several files that belong together as one change: the watcher does not look
    /// while `body` runs, so it never builds half of them.
    func changeAtOnce(_ body: () throws -> Void) rethrows {
        session.watchPause.pause()
        defer { session.watchPause.resume() }
        try body()
    }

    func get(_ target: String, _ method: String = "GET", headers: [String: String] = [:]) async throws -> PreviewTestClient.Response {
        try await PreviewTestClient.request(port: port, target, method: method, headers: headers)
    }

    /// A file under `public/` that the build made, by the start of its name.
    func published(_ prefix: String) throws -> String {
        let files = try FileManager.default.subpathsOfDirectory(atPath: site.publicFolder.path)
        return try XCTUnwrap(files.sorted().first { $0.hasPrefix(prefix) }, "nothing published under \(prefix)")
    }
}

extension PreviewFixture {
    /// Requests `target` and checks the status; the response is there for more checks.
    @discardableResult
    func expect(_ target: String, _ method: String = "GET", headers: [String: String] = [:], status: Int, _ message: String = "",
                file: StaticString = #filePath, line: UInt = #line) async throws -> PreviewTestClient.Response {
        let response = try await get(target, method, headers: headers)
        XCTAssertEqual(response.status, status, "\(method) \(target) \(message)", file: file, line: line)
        return response
    }
}

/// A test case with a preview server on a fresh fixture site for each test.
class PreviewTestCase: XCTestCase {
    var fixture: PreviewFixture!

    override func setUp() async throws {
        fixture = try await PreviewFixture()
    }

    override func tearDown() async throws {
        await fixture?.stop()
        fixture = nil
    }
}

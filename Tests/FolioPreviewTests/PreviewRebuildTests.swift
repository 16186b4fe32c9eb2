import FolioTestSupport
import Foundation
import XCTest

/// `folio serve` end to end: a change on disk, the watcher, a serialized incremental rebuild, the
/// event to the open tabs, and the new site (or the old one and the error) served.
final class PreviewRebuildTests: PreviewTestCase {
    func testANewPhotoIsBuiltServedAndAnnounced() async throws {
        let tab = try await PreviewEventClient(port: fixture.port)
        let hello = try await tab.next("hello")
        XCTAssertTrue(hello.data.contains(#""error":null"#), hello.data)
        try await fixture.expect("/people/zoe.html", status: 404)

        try fixture.changeAtOnce {
            try fixture.site.photo("three.jpg", from: TestSite.repository.appendingPathComponent("content/photo3.jpg"))
            try fixture.site.catalog("more.plist", [["path": "three.jpg", "name": "Lighthouse", "user": "Zoe", "place": "Brest, France"]])
        }

        let reload = try await tab.next("reload")
        XCTAssertTrue(reload.data.contains(#""error":null"#), reload.data)
        let person = try await fixture.expect("/people/zoe.html", status: 200, fixture.lines.text)
        XCTAssertTrue(person.text.contains("Lighthouse"))
        try await fixture.expect("/places/brest-france.html", status: 200)
        let last = await fixture.session.lastReport
        let report = try XCTUnwrap(last)
        XCTAssertEqual(report.imported, 1, "only the new photo is read")
        XCTAssertGreaterThan(report.renditionsMade, 0, "the new photo's renditions are made")
        XCTAssertGreaterThan(report.renditionsReused, 0, "the others' are reused")
        XCTAssertTrue(fixture.lines.text.contains("three.jpg"), fixture.lines.text)
    }

    /// `.nomedia` is hidden, and the watcher looks at it all the same: dropped in while serving,
    /// it takes what it names out of the site at once.
    func testANomediaDroppedInWhileServingTakesItsPhotosOut() async throws {
        let tab = try await PreviewEventClient(port: fixture.port)
        _ = try await tab.next("hello")
        try await fixture.expect("/people/al.html", status: 200)
        try fixture.site.write(Data("two.jpg\n".utf8), to: "content/.nomedia")
        _ = try await tab.next("reload")
        try await fixture.expect("/people/al.html", status: 404, fixture.lines.text)
        try await fixture.expect("/people/josh.html", status: 200)
        XCTAssertTrue(fixture.lines.text.contains("left out 1 file: 1 by content/.nomedia"), fixture.lines.text)
    }

    func testATemplateEditRerendersPagesAndDecodesNoPhoto() async throws {
        let tab = try await PreviewEventClient(port: fixture.port)
        _ = try await tab.next("hello")
        let layout = try String(contentsOf: TestSite.theme.appendingPathComponent("layout.mustache"), encoding: .utf8)
        try fixture.site.write(Data(layout.replacingOccurrences(of: "</footer>", with: "<p id=\"edited\">edited</p></footer>").utf8),
                               to: "templates/layout.mustache")
        _ = try await tab.next("reload")
        let home = try await fixture.expect("/", status: 200)
        XCTAssertTrue(home.text.contains(#"<p id="edited">"#))
        let last = await fixture.session.lastReport
        let report = try XCTUnwrap(last)
        XCTAssertEqual(report.imported, 0)
        XCTAssertEqual(report.renditionsMade, 0, "a template edit decodes no photo")
    }

    func testABrokenTemplateKeepsTheLastGoodSiteAndShowsTheError() async throws {
        let before = try await fixture.expect("/", status: 200)
        let tab = try await PreviewEventClient(port: fixture.port)
        _ = try await tab.next("hello")

        try fixture.site.write(Data("<p>\n{{#page}}unclosed".utf8), to: "templates/photo.mustache")
        let failed = try await tab.next("build-failed")
        XCTAssertTrue(failed.data.contains("templates/photo.mustache"), failed.data)
        XCTAssertTrue(failed.data.contains("line 2"), failed.data)
        XCTAssertTrue(fixture.lines.text.contains("templates/photo.mustache"), "the terminal says it too: \(fixture.lines.text)")

        let after = try await fixture.expect("/", status: 200, "the last good site is still served")
        XCTAssertEqual(after.body, before.body)
        // A tab opened now learns of the error at once.
        let late = try await PreviewEventClient(port: fixture.port)
        let hello = try await late.next("hello")
        XCTAssertTrue(hello.data.contains("templates/photo.mustache"), hello.data)

        try FileManager.default.removeItem(at: fixture.site.root.appendingPathComponent("templates/photo.mustache"))
        let fixed = try await tab.next("reload")
        XCTAssertTrue(fixed.data.contains(#""error":null"#), fixed.data)
    }

    func testABadPhotoIsReportedOnThePageWhileTheRestIsServed() async throws {
        let tab = try await PreviewEventClient(port: fixture.port)
        _ = try await tab.next("hello")
        try fixture.changeAtOnce {
            try fixture.site.write(Data("not a picture".utf8), to: "content/garbage.jpg")
            try fixture.site.photo("fine.jpg")
        }

        let reload = try await tab.next("reload")
        XCTAssertTrue(reload.data.contains(#""error":"content/garbage.jpg: not an image (unknown format)""#),
                      "the reloaded page shows the problem: \(reload.data)")
        XCTAssertTrue(reload.data.contains(#""headline":"built, 1 photo skipped""#),
                      "a site in place without one photo is not a failed build: \(reload.data)")
        XCTAssertFalse(reload.data.contains(fixture.site.root.path), "paths are shown relative to the site")
        let home = try await fixture.expect("/index.html", status: 200)
        XCTAssertTrue(home.text.contains(">fine<"), "the good photo is published")
        XCTAssertTrue(fixture.lines.text.contains("garbage.jpg"), fixture.lines.text)

        try FileManager.default.removeItem(at: fixture.site.content.appendingPathComponent("garbage.jpg"))
        let fixed = try await tab.next("reload")
        XCTAssertTrue(fixed.data.contains(#""error":null"#), "gone once fixed: \(fixed.data)")
        XCTAssertTrue(fixed.data.contains(#""headline":null"#), fixed.data)
    }

    func testBuildsNeverOverlapAndChangesDuringOneGoIntoTheNext() async throws {
        let session = fixture.session
        let gate = BuildGate()
        await session.setBuildStarting { changed in await gate.arrive(changed) }
        let before = await session.builds

        let first = await session.requestBuild(["a"])
        await gate.waitForArrivals(1)  // the first build is held before it starts
        await session.requestBuild(["b"])
        await session.requestBuild(["c"])
        await gate.open()
        await first.value

        let builds = await session.builds - before
        XCTAssertEqual(builds, 2, "everything asked for during a build goes into one build after it")
        let arrivals = await gate.arrivals
        XCTAssertEqual(arrivals, [["a"], ["b", "c"]])
        let overlapping = await session.overlappingBuilds
        XCTAssertEqual(overlapping, 0)
    }

    /// Holds every build at its start until opened, and remembers what each was asked to build.
    actor BuildGate {
        private(set) var arrivals: [[String]] = []
        private var isOpen = false
        private var held: [CheckedContinuation<Void, Never>] = []
        private var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        func arrive(_ changed: [String]) async {
            arrivals.append(changed)
            let ready = watchers.filter { arrivals.count >= $0.count }
            watchers.removeAll { arrivals.count >= $0.count }
            ready.forEach { $0.continuation.resume() }
            if !isOpen { await withCheckedContinuation { held.append($0) } }
        }

        func waitForArrivals(_ count: Int) async {
            if arrivals.count >= count { return }
            await withCheckedContinuation { watchers.append((count, $0)) }
        }

        func open() {
            isOpen = true
            held.forEach { $0.resume() }
            held = []
        }
    }

    func testRequestsDuringRebuildsAllSucceed() async throws {
        let media = "/" + (try fixture.published("media/"))
        let targets = ["/", "/places/", "/people/josh.html", "/assets/style.css", media]
        let session = fixture.session
        let rebuilding = Task {
            for _ in 0..<3 { await session.requestBuild([]).value }
        }
        let port = fixture.port
        let failures = await withTaskGroup(of: [String].self) { group in
            for client in 0..<8 {
                group.addTask {
                    var failures: [String] = []
                    for round in 0..<25 {
                        let target = targets[(client + round) % targets.count]
                        do {
                            let response = try await PreviewTestClient.request(port: port, target)
                            if response.status != 200 { failures.append("\(target): \(response.status)") }
                        } catch {
                            failures.append("\(target): \(error)")
                        }
                    }
                    return failures
                }
            }
            var all: [String] = []
            for await some in group { all += some }
            return all
        }
        await rebuilding.value
        XCTAssertEqual(failures, [])
    }
}

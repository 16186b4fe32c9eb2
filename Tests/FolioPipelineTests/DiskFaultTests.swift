@testable import FolioCore
@testable import FolioModel
@testable import FolioPipeline
import FolioTestSupport
import Foundation
import GRDB
import XCTest

/// The disk failing at any one change of a build (ENOSPC, EIO), as SQLite's tests fail its I/O:
/// the build stops with a disk failure or finishes, `public/` is the whole old site or the whole
/// new one, the model is sound, and the next build makes what a fresh build makes.
final class DiskFaultTests: XCTestCase, @unchecked Sendable {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let people = ["Ana", "Ben", "Chloé"]
    let places = ["Nice, Provence, France", "Porto, Porto District, Portugal", "Kyoto, Kyoto, Japan"]

    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("folio-fault-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// Photos `numbers` under `site`/content, each a small JPEG of its own, and their catalog.
    func put(_ numbers: [Int], titled title: (Int) -> String, in site: URL) throws {
        let content = site.appendingPathComponent("content")
        if FileManager.default.fileExists(atPath: content.path) { try FileManager.default.removeItem(at: content) }
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        var records: [[String: Any]] = []
        for number in numbers {
            let name = "p\(number).jpg"
            try SamplePhoto(width: 48, height: 32, seed: UInt64(number)).jpeg().write(to: content.appendingPathComponent(name))
            records.append(["path": name, "name": title(number), "user": people[number % 3], "place": places[number % 3],
                            "taken": now.addingTimeInterval(-Double(number) * 86_400), "uploaded": now.addingTimeInterval(-Double(number) * 3_600),
                            "favorite": number % 4 == 0])
        }
        try PropertyListSerialization.data(fromPropertyList: records, format: .xml, options: 0)
            .write(to: content.appendingPathComponent("catalog.plist"))
    }

    func build(_ site: URL, disk: any Disk = LocalDisk()) async throws -> BuildReport {
        let options = BuildOptions(themeFolder: TestSite.theme, now: now, concurrency: 1, disk: disk)
        return try await SiteBuild(paths: SitePaths(root: site), options: options).run()
    }

    func tree(_ site: URL) throws -> [String: Data] { try TestSite.files(under: site.appendingPathComponent("public")) }

    /// A copy as `cp -a` makes it, the two trees' hard links kept, in a folder of its own the
    /// caller removes.
    func copy(_ site: URL) throws -> URL {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("folio-fault-\(UUID().uuidString)/site")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        let process = try Process.run(URL(fileURLWithPath: "/bin/cp"), arguments: ["-a", site.path, copy.path])
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return copy
    }

    func integrity(_ site: URL) throws -> String? {
        try DatabaseQueue(path: SitePaths(root: site).database.path).read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
    }

    func testADiskFailureAtAnyChangeOfARebuildLeavesOneWholeSite() async throws {
        // The site before: ten photos. The edit: one gone, two new, one retitled.
        let before = try folder().appendingPathComponent("site")
        try put(Array(1...10), titled: { "Photo \($0)" }, in: before)
        _ = try await build(before)
        let old = try tree(before)
        let edited = Array(2...12)
        let title = { (number: Int) in number == 5 ? "Photo five, retitled" : "Photo \(number)" }
        try put(edited, titled: title, in: before)
        let fresh = try folder().appendingPathComponent("site")
        try put(edited, titled: title, in: fresh)
        _ = try await build(fresh)
        let new = try tree(fresh)
        XCTAssertNotEqual(old, new)

        let counting = FaultyDisk()
        let counted = try copy(before)
        defer { try? FileManager.default.removeItem(at: counted.deletingLastPathComponent()) }
        _ = try await build(counted, disk: counting)
        XCTAssertEqual(try tree(counted), new, "the edited site built without faults")
        let changes = counting.count
        XCTAssertGreaterThan(changes, 50, "the rebuild's changes were counted")

        // Two at a time, each build on one core: every one of them is checked the same.
        var outcomes: [Outcome] = []
        try await withThrowingTaskGroup(of: Outcome.self) { group in
            var next = 1
            func start() {
                let k = next
                next += 1
                group.addTask { try await self.failing(at: k, before: before, old: old, new: new) }
            }
            while next <= min(2, changes) { start() }
            while let outcome = try await group.next() {
                outcomes.append(outcome)
                if next <= changes { start() }
            }
        }
        XCTAssertEqual(outcomes.flatMap(\.problems).sorted(), [])
        let stopped = outcomes.filter(\.stopped).count
        XCTAssertGreaterThan(stopped, changes / 2, "most failures stop the build")
    }

    /// What one build failing at change `k` left wrong.
    struct Outcome: Sendable {
        var stopped = false
        var problems: [String] = []
    }

    /// Builds a copy of `before` with its change `k` failing, then again with none: the first
    /// stops with a disk failure or finishes, leaving `old` or `new` published; the next leaves `new`.
    func failing(at k: Int, before: URL, old: [String: Data], new: [String: Data]) async throws -> Outcome {
        let code = k % 2 == 0 ? EIO : ENOSPC
        let site = try copy(before)
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        let disk = FaultyDisk(failing: k, with: code)
        var outcome = Outcome()
        func problem(_ text: String) { outcome.problems.append("change \(k) (\(disk.failure ?? "?")): \(text)") }
        do {
            _ = try await build(site, disk: disk)
        } catch let failure as DiskFailure {
            outcome.stopped = true
            if failure.code != code { problem("the failure says errno \(failure.code)") }
            if failure.description.contains("INSERT") { problem("the message quotes SQL: \(failure)") }
        } catch {
            problem("not a disk failure: \(error)")
        }
        let published = try tree(site)
        if published != old && published != new { problem("public/ is neither the old site nor the new") }
        if try integrity(site) != "ok" { problem("the model is not sound") }
        let next = try await build(site)
        if !next.errors.isEmpty { problem("the next build: \(next.errors)") }
        let after = try tree(site)
        let differing = Set(after.keys).symmetricDifference(new.keys).union(after.keys.filter { after[$0] != new[$0] })
        if !differing.isEmpty { problem("the next build left these unlike a fresh build's: \(differing.sorted())") }
        return outcome
    }
}

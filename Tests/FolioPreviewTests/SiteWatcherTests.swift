@testable import FolioCore
@testable import FolioPreview
import FolioTestSupport
import Foundation
import XCTest

/// The watcher on a script: each look returns the next snapshot of a list, each wait moves a
/// fake clock, so what it reports depends on nothing but the script.
final class SiteWatcherTests: XCTestCase {
    /// The scripted file system and clock. The last snapshot stays once the script runs out.
    final class Script: @unchecked Sendable {
        private let lock = NSLock()
        private var snapshots: [FolderSnapshot]
        private var clock = Date(timeIntervalSince1970: 0)
        private var lookCount = 0

        init(_ snapshots: [FolderSnapshot]) { self.snapshots = snapshots }

        func look() -> FolderSnapshot {
            lock.withLock {
                lookCount += 1
                return snapshots.count > 1 ? snapshots.removeFirst() : snapshots[0]
            }
        }

        var exhausted: Bool { lock.withLock { snapshots.count == 1 } }
        /// Read under the lock: the watcher looks from another thread (ThreadSanitizer caught it).
        var looks: Int { lock.withLock { lookCount } }
        func wait(_ seconds: TimeInterval) { lock.withLock { clock += seconds } }
        var now: Date { lock.withLock { clock } }
    }

    final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [[String]] = []
        func add(_ paths: [String]) { lock.withLock { all.append(paths) } }
        var value: [[String]] { lock.withLock { all } }
    }

    static func snapshot(_ files: [String: Int64]) -> FolderSnapshot {
        var snapshot = FolderSnapshot()
        for (path, modified) in files { snapshot.files[path] = .init(size: 1, modified: modified, inode: 1) }
        return snapshot
    }

    /// Runs the watcher over `snapshots` (the first is the baseline) until the script is spent
    /// and it has settled, and returns what it reported.
    func reports(_ snapshots: [FolderSnapshot], longestWait: TimeInterval = 5) async -> [[String]] {
        let script = Script(Array(snapshots.dropFirst()))
        var watcher = SiteWatcher(interval: 0.25, settle: 0.15, look: { script.look() })
        watcher.sleep = { seconds in script.wait(seconds); await Task.yield() }
        watcher.now = { script.now }
        watcher.longestWait = longestWait
        let reports = Reports()
        let task = Task { await watcher.run(from: snapshots[0]) { reports.add($0) } }
        // Past the end of the script, every look finds the same files: a few more settle nothing.
        while !script.exhausted || script.looks < snapshots.count + 3 { await Task.yield() }
        task.cancel()
        await task.value
        return reports.value
    }

    func testABurstOfWritesIsOneChangeOnceTheFilesSettle() async {
        let s = Self.snapshot
        let found = await reports([
            s(["a": 1]),
            s(["a": 1]),                       // nothing yet
            s(["a": 1, "b": 1]),               // b appears: the burst starts
            s(["a": 2, "b": 1]),               // a is rewritten before it settles
            s(["a": 2, "b": 1, "c": 1]),       // c too
            s(["a": 2, "b": 1, "c": 1]),       // settled
        ])
        XCTAssertEqual(found, [["a", "b", "c"]])
    }

    func testTwoBurstsWithAQuietLookBetweenAreTwoChanges() async {
        let s = Self.snapshot
        let found = await reports([
            s(["a": 1]),
            s(["a": 2]), s(["a": 2]),          // a changes and settles
            s(["a": 2]),                       // a quiet poll
            s([:]), s([:]),                    // a goes and that settles
        ])
        XCTAssertEqual(found, [["a"], ["a"]])
    }

    func testABurstLongerThanTheLongestWaitIsReportedAnyway() async {
        let s = Self.snapshot
        // A copy that never pauses: every look finds one more file.
        let copying = (1...40).map { n in s(Dictionary(uniqueKeysWithValues: (0..<n).map { ("f\($0)", Int64(1)) })) }
        let found = await reports([s([:])] + copying, longestWait: 1)
        XCTAssertGreaterThan(found.count, 1, "a long copy shows progress instead of waiting for its end")
        XCTAssertEqual(Set(found.flatMap { $0 }).count, 40, "every file is reported once the copy ends")
    }

    func testAPausedWatcherSeesSeveralWritesAsOne() async throws {
        let site = try TestSite()
        let pause = WatchPause()
        let watcher = SiteWatcher(roots: [site.content], excluded: [], interval: 0, settle: 0, pause: pause)
        pause.pause()
        let looked = Task { await watcher.look() }
        try site.photo("a.jpg")
        try site.photo("b.jpg")
        pause.resume()
        let snapshot = await looked.value
        XCTAssertEqual(Set(snapshot.files.keys.map { RelativePath($0).name }), ["a.jpg", "b.jpg"])
    }
}

@testable import FolioCore
import Foundation
import XCTest


/// What `ReadAhead` asks the kernel for, watched through its `ask`: every file once, in the
/// readers' order, never further ahead of them than its window allows, nothing after `stop`.
final class ReadAheadTests: XCTestCase {
    /// The files asked for, and the readers' count when each was.
    final class Asked: @unchecked Sendable {
        private let lock = NSCondition()
        private(set) var files: [(index: Int, taken: Int)] = []
        var taken = 0

        func record(_ path: String) {
            lock.withLock {
                files.append((Int(path.dropFirst(5))!, taken))
                lock.broadcast()
            }
        }

        func setTaken(_ count: Int) { lock.withLock { taken = count } }

        var snapshot: [(index: Int, taken: Int)] { lock.withLock { files } }

        /// Waits until `index` has been asked for; false after five seconds.
        func wait(for index: Int) -> Bool {
            let deadline = Date().addingTimeInterval(5)
            return lock.withLock {
                while !files.contains(where: { $0.index == index }) {
                    guard lock.wait(until: deadline) else { return false }
                }
                return true
            }
        }
    }

    func files(_ count: Int, size: Int) -> [(path: String, size: Int)] {
        (0..<count).map { ("file-\($0)", size) }
    }

    /// Reading ahead of `list`, asked of it a file at a time.
    func ahead(of list: [(path: String, size: Int)?], threads: Int, window: Int, bytes: Int = 1 << 20, asked: Asked) -> ReadAhead {
        ReadAhead(count: list.count, threads: threads, window: window, bytes: bytes, ask: asked.record) { list[$0] }
    }

    /// Readers slower than the threads: each file is taken only once it has been asked for.
    /// What was asked, once all have been taken.
    func readAll(_ count: Int, ahead: ReadAhead, asked: Asked) -> [(index: Int, taken: Int)] {
        for index in 0..<count {
            XCTAssertTrue(asked.wait(for: index), "file \(index) was never asked for")
            asked.setTaken(index + 1)
            ahead.take(index + 1)
        }
        ahead.stop()
        return asked.snapshot
    }

    func testEveryFileIsAskedForOnceAndNeverBeyondTheWindow() {
        let asked = Asked()
        let ahead = ahead(of: files(600, size: 1), threads: 4, window: 16, asked: asked)
        let seen = readAll(600, ahead: ahead, asked: asked)
        XCTAssertEqual(seen.map(\.index).sorted(), Array(0..<600), "each file once")
        for (index, taken) in seen {
            XCTAssertLessThan(index, taken + 16, "file \(index) asked for with the readers at \(taken)")
        }
    }

    func testTheBytesAheadAreBoundedButTheNextFileIsAlwaysAskedFor() {
        let asked = Asked()
        // Ten bytes each and thirty-five allowed: three files ahead at most. File 200 is larger
        // than the bound on its own, and is asked for all the same once it is next.
        var list = files(300, size: 10)
        list[200].size = 1_000
        let seen = readAll(300, ahead: ahead(of: list, threads: 3, window: 100, bytes: 35, asked: asked), asked: asked)
        XCTAssertEqual(seen.count, 300)
        for (index, taken) in seen {
            let ahead = list[taken...index].reduce(0) { $0 + $1.size }
            XCTAssertTrue(index == taken || ahead <= 35, "file \(index) asked for \(ahead) bytes ahead of the readers at \(taken)")
        }
    }

    func testAFileItIsNotToAskForIsPassedOverAndTakesNoRoom() {
        let asked = Asked()
        // Every third file is not to be asked for (a video), and is as large as the whole bound:
        // the files after it are asked for as if it were not there.
        let list: [(path: String, size: Int)?] = (0..<90).map { $0 % 3 == 2 ? nil : ("file-\($0)", 10) }
        let ahead = ahead(of: list, threads: 2, window: 50, bytes: 25, asked: asked)
        for index in 0..<90 {
            if list[index] != nil { XCTAssertTrue(asked.wait(for: index), "file \(index) was never asked for") }
            asked.setTaken(index + 1)
            ahead.take(index + 1)
        }
        ahead.stop()
        let seen = asked.snapshot
        XCTAssertEqual(seen.map(\.index).sorted(), (0..<90).filter { $0 % 3 != 2 })
        for (index, taken) in seen {
            let bytes = list[taken...index].reduce(0) { $0 + ($1?.size ?? 0) }
            XCTAssertTrue(index == taken || bytes <= 25, "file \(index) asked for \(bytes) bytes ahead of the readers at \(taken)")
        }
    }

    func testFilesTheReadersHavePassedAreSkippedAndNothingIsAskedAfterStop() {
        let asked = Asked()
        let ahead = ahead(of: files(1_000, size: 1), threads: 2, window: 8, asked: asked)
        // The readers are far ahead at once: what lies behind them is theirs already.
        asked.setTaken(900)
        ahead.take(900)
        XCTAssertTrue(asked.wait(for: 907))
        let behind = asked.snapshot.filter { $0.index < 900 }.count
        XCTAssertLessThanOrEqual(behind, 8 + 2, "only what was asked before the readers jumped")
        ahead.stop()
        Thread.sleep(forTimeInterval: 0.05)
        let count = asked.snapshot.count
        ahead.take(1_000)
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertEqual(asked.snapshot.count, count, "nothing after stop")
        XCTAssertFalse(asked.snapshot.contains { $0.index >= 908 }, "nothing beyond the window of the readers at 900")
    }

    func testReadersPassingTheThreadsTwiceIsNoHarm() {
        // One thread, held in its first ask: the readers take five files, then a sixth, while
        // the thread has reached only the first.
        let held = NSCondition()
        nonisolated(unsafe) var released = false
        let asked = Asked()
        let ahead = ReadAhead(count: 20, threads: 1, window: 4, ask: { path in
            held.withLock { while !released { held.wait() } }
            asked.record(path)
        }) { ("file-\($0)", 1) }
        ahead.take(5)
        ahead.take(6)
        held.withLock {
            released = true
            held.broadcast()
        }
        XCTAssertTrue(asked.wait(for: 9), "the thread goes on from where the readers are")
        ahead.stop()
        XCTAssertFalse(asked.snapshot.contains { (1..<6).contains($0.index) }, "nothing the readers had passed")
    }

    func testTheKernelIsAskedForRealFilesAndAMissingOneIsNoHarm() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("read-ahead-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var list: [(path: String, size: Int)] = []
        for index in 0..<20 {
            let path = "photo-\(index).jpg"
            if index != 7 { try Data(repeating: UInt8(index), count: 4_096).write(to: folder.appendingPathComponent(path)) }
            list.append((path, 4_096))
        }
        let ahead = try XCTUnwrap(LocalFileAccess().readAhead(count: list.count, under: folder.path) { [list] in list[$0] })
        for index in 0..<20 {
            ahead.take(index + 1)
            if index != 7 {
                XCTAssertEqual(try LocalFileAccess().read(folder.appendingPathComponent(list[index].path)), Data(repeating: UInt8(index), count: 4_096))
            }
        }
        ahead.stop()
        XCTAssertNil(LocalFileAccess().readAhead(count: 0, under: folder.path) { _ in nil })
    }
}

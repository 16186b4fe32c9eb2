@testable import FolioModel
import FolioTestSupport
import Foundation
import XCTest

/// `folio build` killed (SIGKILL, which no program can catch) at each rename it makes, strace
/// injecting the signal: `public/` is always one whole site, the old one or the new one, never a
/// mixture or a missing folder, and the next build is a normal one.
final class KillTests: CLITestCase {
    static let strace = URL(fileURLWithPath: "/usr/bin/strace")
    static let renames = "rename,renameat,renameat2"

    /// Three photos; the edit that follows adds one, renames one and removes one, so the new
    /// site has new pages, changed pages, new media and media to delete.
    func makeSite() throws -> URL {
        let site = try temporaryFolder()
        let content = site.appendingPathComponent("content")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        for n in 1...3 {
            try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("content/photo\(n).jpg"),
                                             to: content.appendingPathComponent("p\(n).jpg"))
        }
        try catalog(site, [("p1.jpg", "First"), ("p2.jpg", "Second"), ("p3.jpg", "Third")])
        return site
    }

    func catalog(_ site: URL, _ records: [(String, String)]) throws {
        // Fixed dates: pages say "hours ago" of recent photos, which would differ from build to build.
        let day = Date(timeIntervalSince1970: 1_700_000_000)
        let plist = records.map { ["path": $0.0, "name": $0.1, "user": "Ann", "place": "Nice, Provence, France",
                                   "taken": day, "uploaded": day] as [String: Any] }
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: site.appendingPathComponent("content/catalog.plist"))
    }

    func edit(_ site: URL) throws {
        let content = site.appendingPathComponent("content")
        try FileManager.default.removeItem(at: content.appendingPathComponent("p3.jpg"))
        try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("content/cc0/coffee.png"),
                                         to: content.appendingPathComponent("p4.png"))
        try catalog(site, [("p1.jpg", "First, renamed"), ("p2.jpg", "Second"), ("p4.png", "Fourth")])
    }

    /// The pages of a built site and their text.
    func pages(_ site: URL) throws -> [String: String] {
        let checks = PublicTreeChecks(root: site.appendingPathComponent("public"))
        return Dictionary(uniqueKeysWithValues: try checks.pages.map { ($0, try checks.html($0)) })
    }

    func copy(_ site: URL) throws -> URL {
        let copy = try temporaryFolder()
        try FileManager.default.removeItem(at: copy)
        XCTAssertEqual(try run(URL(fileURLWithPath: "/bin/cp"), ["-a", site.path, copy.path]).status, 0)
        return copy
    }

    func testAKillAtAnyRenameLeavesOneWholeSite() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: Self.strace.path), "strace is needed (scripts/setup.sh installs it)")
        let site = try makeSite()
        XCTAssertEqual(try folio(["build", "--site", site.path]).status, 0)
        let old = try pages(site)
        try edit(site)
        let expected = try copy(site)
        XCTAssertEqual(try folio(["build", "--site", expected.path]).status, 0)
        let new = try pages(expected)
        XCTAssertNotEqual(old, new)

        // How many renames a build makes: each is a moment to die at.
        let log = try temporaryFolder().appendingPathComponent("strace.log")
        let traced = try run(Self.strace, ["-f", "-qq", "-o", log.path, "-e", "trace=\(Self.renames)",
                                           executable.path, "build", "--site", try copy(site).path])
        XCTAssertEqual(traced.status, 0, traced.errors)
        let count = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("rename") }.count
        XCTAssertGreaterThanOrEqual(count, 4, "a build renames the new photo's media and its site into place")

        var killed = 0
        for when in 1...count {
            for set in [Self.renames, "renameat2"] where set == Self.renames || when == 1 {
                let victim = try copy(site)
                let run = try self.run(Self.strace, ["-f", "-qq", "-o", "/dev/null", "-e", "trace=\(set)",
                                                     "-e", "inject=\(set):signal=KILL:when=\(when)",
                                                     executable.path, "build", "--site", victim.path])
                if run.status != 0 { killed += 1 }
                let label = "killed at the \(when)th of \(set)"
                XCTAssertEqual(try PublicTreeChecks(root: victim.appendingPathComponent("public")).problems(), [], label)
                let found = try pages(victim)
                XCTAssertTrue(found == old || found == new, "public/ is the old site or the new one, \(label)")
                let again = try folio(["build", "--site", victim.path])
                XCTAssertEqual(again.status, 0, "\(label): \(again.errors)")
                XCTAssertEqual(try pages(victim), new, "the next build makes the new site, \(label)")
                XCTAssertEqual(try PublicTreeChecks(root: victim.appendingPathComponent("public")).problems(), [], label)
            }
        }
        XCTAssertGreaterThan(killed, count / 2, "the kills happened")
    }

    /// Killed at moments spread over every kind of change a rebuild makes to the disk (files
    /// opened and written, links, deletions, folders made and removed): whatever the killed build
    /// left in the tree beside the site (half a page, half a folder of links, a media file with
    /// no name yet), the next build finishes and makes the new site.
    func testAKillAtAnyChangeToTheDiskIsFollowedByABuildThatSucceeds() throws {
        let site = try makeSite()
        XCTAssertEqual(try folio(["build", "--site", site.path]).status, 0)
        let old = try pages(site)
        try edit(site)
        let expected = try copy(site)
        XCTAssertEqual(try folio(["build", "--site", expected.path]).status, 0)
        let new = try pages(expected)
        var killed = 0
        for call in ["openat", "write", "link", "unlink", "mkdir", "rmdir"] {
            let log = try temporaryFolder().appendingPathComponent("strace.log")
            XCTAssertEqual(try run(Self.strace, ["-f", "-qq", "-o", log.path, "-e", "trace=\(call)",
                                                 executable.path, "build", "--site", try copy(site).path]).status, 0)
            let count = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("\(call)(") }.count
            XCTAssertGreaterThan(count, 0, call)
            for when in stride(from: 1, through: count, by: max(1, count / 6)) {
                let victim = try copy(site)
                let run = try self.run(Self.strace, ["-f", "-qq", "-o", "/dev/null", "-e", "trace=\(call)",
                                                     "-e", "inject=\(call):signal=KILL:when=\(when)",
                                                     executable.path, "build", "--site", victim.path])
                if run.status != 0 { killed += 1 }
                let label = "killed at the \(when)th \(call) of \(count)"
                let found = try pages(victim)
                XCTAssertTrue(found == old || found == new, "public/ is the old site or the new one, \(label)")
                let again = try folio(["build", "--site", victim.path])
                XCTAssertEqual(again.status, 0, "\(label): \(again.errors)")
                XCTAssertEqual(again.errors, "", label)
                XCTAssertEqual(try pages(victim), new, "the next build makes the new site, \(label)")
                XCTAssertEqual(try PublicTreeChecks(root: victim.appendingPathComponent("public")).problems(), [], label)
                try? FileManager.default.removeItem(at: victim)
            }
        }
        XCTAssertGreaterThan(killed, 20, "the kills happened")
    }

    func testAKillWhileTheModelIsWrittenLosesNothingThatWasThere() throws {
        let site = try makeSite()
        XCTAssertEqual(try folio(["build", "--site", site.path]).status, 0)
        let old = try pages(site)
        try edit(site)
        let expected = try copy(site)
        XCTAssertEqual(try folio(["build", "--site", expected.path]).status, 0)
        let new = try pages(expected)
        // SQLite writes its pages and its journal with pwrite64: each is a moment to die at.
        let log = try temporaryFolder().appendingPathComponent("strace.log")
        XCTAssertEqual(try run(Self.strace, ["-f", "-qq", "-o", log.path, "-e", "trace=pwrite64", executable.path, "build", "--site", try copy(site).path]).status, 0)
        let writes = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("pwrite64") }.count
        XCTAssertGreaterThan(writes, 4)
        for when in stride(from: 1, through: writes, by: max(1, writes / 12)) {
            let victim = try copy(site)
            _ = try run(Self.strace, ["-f", "-qq", "-o", "/dev/null", "-e", "trace=pwrite64", "-e", "inject=pwrite64:signal=KILL:when=\(when)",
                                      executable.path, "build", "--site", victim.path])
            let label = "killed at write \(when) of \(writes)"
            let model = try GalleryDatabase.open(at: victim.appendingPathComponent("folio.sqlite"))
            XCTAssertEqual(try model.integrityProblems(), [], label)
            let found = try pages(victim)
            XCTAssertTrue(found == old || found == new, "public/ is the old site or the new one, \(label)")
            let again = try folio(["build", "--site", victim.path])
            XCTAssertEqual(again.status, 0, "\(label): \(again.errors)")
            XCTAssertEqual(try PublicTreeChecks(root: victim.appendingPathComponent("public")).problems(), [], label)
            XCTAssertTrue(try pages(victim) == new, "the next build makes the new site, \(label)")
        }
    }

    func testASecondBuildOfTheSameSiteIsRefusedWithAClearMessage() throws {
        let site = try makeSite()
        // The first build is held at its first rename by strace, its lock taken.
        let held = Process()
        held.executableURL = Self.strace
        held.arguments = ["-f", "-qq", "-o", "/dev/null", "-e", "trace=\(Self.renames)",
                          "-e", "inject=\(Self.renames):delay_enter=3000000:when=1", executable.path, "build", "--site", site.path]
        held.standardOutput = FileHandle.nullDevice
        held.standardError = FileHandle.nullDevice
        try held.run()
        defer { held.waitUntilExit() }
        try waitUntilLocked(site.appendingPathComponent(".folio-lock"))
        let second = try folio(["build", "--site", site.path])
        XCTAssertEqual(second.status, 1)
        XCTAssertTrue(second.errors.contains("another Folio is building this site right now"), second.errors)
        held.waitUntilExit()
        XCTAssertEqual(held.terminationStatus, 0)
        XCTAssertEqual(try folio(["build", "--site", site.path]).status, 0, "the lock goes with the build")
    }

    /// Waits until some process holds a `flock` on `file`, as `/proc/locks` lists it (by inode),
    /// without taking the lock itself, which would make the build it waits for fail.
    func waitUntilLocked(_ file: URL, within seconds: Double = 60) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var info = stat()
            if stat(file.path, &info) == 0,
               let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8),
               locks.split(separator: "\n").contains(where: { $0.contains("FLOCK") && $0.hasSuffix(":\(info.st_ino) 0 EOF") }) {
                return
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        XCTFail("no process took the lock on \(file.path) within \(seconds) s")
    }
}

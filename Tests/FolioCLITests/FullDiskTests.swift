@testable import FolioCore
import FolioTestSupport
import Foundation
import GRDB
import XCTest

/// A site on a small disk that fills up: a real tmpfs the test mounts, so SQLite's and FFmpeg's
/// own writes fail as they would. The build stops with one line saying the disk is full, exits 1,
/// leaves the previous `public/` and a sound model, and once there is room again builds what a
/// fresh build does. Mounting needs root, which CI has: there, no skip.
final class FullDiskTests: CLITestCase {
    static let epoch = "1796000000"
    var disk: URL!

    override func setUpWithError() throws {
        guard getuid() == 0 else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("CI runs as root: the full-disk tests must run") }
            throw XCTSkip("mounting a tmpfs needs root")
        }
        disk = try temporaryFolder()
        XCTAssertEqual(try run(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=24m", "tmpfs", disk.path]).status, 0)
        addTeardownBlock { [disk] in _ = try? self.run(URL(fileURLWithPath: "/bin/umount"), ["-l", disk!.path]) }
    }

    /// Fills the disk but for `room` bytes, with a file removed to make room again.
    func fill(leaving room: Int) throws -> URL {
        var info = statvfs()
        XCTAssertEqual(statvfs(disk.path, &info), 0)
        let free = Int(info.f_bavail) * Int(info.f_frsize)
        let filler = disk.appendingPathComponent("filler")
        let descriptor = open(filler.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        let chunk = [UInt8](repeating: 0xA5, count: 1 << 16)
        var left = max(0, free - room)
        while left > 0 {
            let written = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, min(left, $0.count)) }
            if written <= 0 { break }
            left -= written
        }
        close(descriptor)
        return filler
    }

    func site(_ name: String, photos: [String], in folder: URL) throws -> URL {
        let site = folder.appendingPathComponent(name)
        let content = site.appendingPathComponent("content")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        try add(photos, to: site)
        return site
    }

    func add(_ photos: [String], to site: URL) throws {
        for photo in photos {
            let source = Self.repository.appendingPathComponent("content/\(photo)")
            try FileManager.default.copyItem(at: source, to: site.appendingPathComponent("content/\(source.lastPathComponent)"))
        }
    }

    /// `folio build` with standard error into `errors` (a file, maybe on the full disk), or a pipe.
    func build(_ site: URL, errorsTo errors: URL? = nil) throws -> Run {
        let environment = ["SOURCE_DATE_EPOCH": Self.epoch]
        guard let errors else { return try folio(["build", "--site", site.path], environment: environment) }
        return try run(URL(fileURLWithPath: "/bin/sh"), ["-c", "exec \"$0\" build --site \"$1\" 2> \"$2\"", executable.path, site.path, errors.path],
                       environment: environment)
    }

    func published(_ site: URL) throws -> [String: Data] {
        let root = site.appendingPathComponent("public")
        var files: [String: Data] = [:]
        for path in try LocalFileAccess().files(under: root) { files[path] = try Data(contentsOf: root.appendingPathComponent(path)) }
        return files
    }

    func integrity(_ site: URL) throws -> String? {
        try DatabaseQueue(path: site.appendingPathComponent("folio.sqlite").path).read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
    }

    /// The same content built on a roomy disk.
    func fresh(_ photos: [String]) throws -> [String: Data] {
        let site = try site("fresh", photos: photos, in: try temporaryFolder())
        XCTAssertEqual(try build(site).status, 0)
        return try published(site)
    }

    func assertFullAndNothingChanged(_ run: Run, _ site: URL, before: [String: Data], doing: String,
                                     file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(run.status, 1, run.errors, file: file, line: line)
        let said = run.errors.split(separator: "\n").filter { $0.hasPrefix("error:") }
        XCTAssertEqual(said.count, 1, run.errors, file: file, line: line)
        XCTAssertTrue(run.errors.contains("error: the disk holding \(site.path) is full (\(doing))"), run.errors, file: file, line: line)
        XCTAssertFalse(run.errors.contains("INSERT"), run.errors, file: file, line: line)
        XCTAssertEqual(try published(site), before, "the previous public/ stays", file: file, line: line)
        XCTAssertEqual(try integrity(site), "ok", file: file, line: line)
    }

    func testAFullDiskStopsTheBuildAndLosesNothing() throws {
        let first = ["photo1.jpg", "photo2.jpg", "photo3.jpg"]
        let site = try site("site", photos: first, in: disk)
        XCTAssertEqual(try build(site).status, 0)
        let before = try published(site)

        // Room for the model's new rows, not for the renditions: standard error on the full disk too.
        let more = ["cc0/astronaut.png", "cc0/coffee.png", "cc0/chelsea.png"]
        try add(more, to: site)
        var filler = try fill(leaving: 256 << 10)
        let crashed = try build(site, errorsTo: disk.appendingPathComponent("build.log"))
        XCTAssertEqual(crashed.status, 1, "a failed write of its own output never crashes Folio")
        XCTAssertEqual(try published(site), before)
        try assertFullAndNothingChanged(try build(site), site, before: before, doing: "writing renditions")

        // No room at all and one more photo: the import's own writes to the model fail.
        try FileManager.default.removeItem(at: filler)
        try add(["cc0/rocket.jpg"], to: site)
        filler = try fill(leaving: 0)
        try assertFullAndNothingChanged(try build(site), site, before: before, doing: "writing the model")

        // Room again: the site a fresh build makes.
        try FileManager.default.removeItem(at: filler)
        let again = try build(site)
        XCTAssertEqual(again.status, 0, again.errors)
        XCTAssertEqual(try published(site), try fresh(first + more + ["cc0/rocket.jpg"]))
    }

    func testAReadOnlyDiskStopsTheBuildWithOneLine() throws {
        let site = try site("site", photos: ["photo1.jpg"], in: disk)
        XCTAssertEqual(try build(site).status, 0)
        let before = try published(site)
        try add(["photo2.jpg"], to: site)
        XCTAssertEqual(try run(URL(fileURLWithPath: "/bin/mount"), ["-o", "remount,ro", disk.path]).status, 0)
        let refused = try build(site)
        XCTAssertEqual(refused.status, 1, refused.errors)
        XCTAssertEqual(refused.errors.split(separator: "\n").filter { $0.hasPrefix("error:") }.count, 1, refused.errors)
        XCTAssertTrue(refused.errors.contains("is read-only"), refused.errors)
        XCTAssertEqual(try published(site), before)
        XCTAssertEqual(try run(URL(fileURLWithPath: "/bin/mount"), ["-o", "remount,rw", disk.path]).status, 0)
        XCTAssertEqual(try build(site).status, 0)
    }

    func testAFullDiskWhileAWebVideoIsWrittenStopsTheBuild() throws {
        let site = try site("site", photos: ["photo1.jpg"], in: disk)
        XCTAssertEqual(try build(site).status, 0)
        let before = try published(site)
        try VideoTools.clip(width: 640, height: 480, seconds: 4, audio: true)
            .write(to: site.appendingPathComponent("content/walk.mp4"))
        let filler = try fill(leaving: 192 << 10)
        try assertFullAndNothingChanged(try build(site), site, before: before, doing: "writing renditions")
        try FileManager.default.removeItem(at: filler)
        XCTAssertEqual(try build(site).status, 0)
    }
}

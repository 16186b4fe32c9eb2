import Foundation
import XCTest

/// Folio's own output failing: a reader gone (EPIPE) ends the command as other tools end, by
/// SIGPIPE; a full disk under standard output or error loses the lines and nothing else.
final class OutputFailureTests: CLITestCase {
    /// A site whose build has something to say on both streams: a skipped file (standard
    /// output) and a bad photo (standard error).
    func talkativeSite() throws -> URL {
        let site = try temporaryFolder()
        let content = site.appendingPathComponent("content")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("content/photo1.jpg"),
                                         to: content.appendingPathComponent("good.jpg"))
        try Data("not a photo".utf8).write(to: content.appendingPathComponent("broken.jpg"))
        try Data("notes".utf8).write(to: content.appendingPathComponent("notes.txt"))
        return site
    }

    func shell(_ script: String, _ site: URL) throws -> Run {
        try run(URL(fileURLWithPath: "/bin/bash"), ["-c", script, executable.path, site.path])
    }

    func testAReaderThatGoesAwayEndsTheCommandBySIGPIPE() throws {
        let site = try talkativeSite()
        // `true` reads nothing and is gone long before the build has its summary to print.
        let piped = try shell("\"$0\" build --site \"$1\" | true; echo \"status ${PIPESTATUS[0]}\"", site)
        XCTAssertEqual(piped.output, "status 141\n", piped.errors)
        XCTAssertFalse(piped.errors.contains("Fatal error"), piped.errors)
        let stderrGone = try shell("\"$0\" build --site \"$1\" 2>&1 >/dev/null | true; echo \"status ${PIPESTATUS[0]}\"", site)
        XCTAssertEqual(stderrGone.output, "status 141\n", stderrGone.errors)
    }

    func testAFullDiskUnderItsOutputLosesOnlyTheLines() throws {
        let site = try talkativeSite()
        // /dev/full: every write fails with ENOSPC, as a file on a full disk does.
        let full = try shell("\"$0\" build --site \"$1\" >/dev/full 2>/dev/full; echo \"status $?\"", site)
        XCTAssertEqual(full.output, "status 0\n", "the site was built, a photo named as failed: status 0")
        XCTAssertTrue(FileManager.default.fileExists(atPath: site.appendingPathComponent("public/index.html").path))
        let strict = try shell("\"$0\" build --strict --site \"$1\" >/dev/full 2>/dev/full; echo \"status $?\"", site)
        XCTAssertEqual(strict.output, "status 2\n", "--strict still says something was left out")
    }
}

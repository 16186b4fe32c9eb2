import Foundation
import XCTest

/// What a deploy script sees of a build: the exit status, what is named, and that problems are
/// named again by every build until they are fixed.
final class ExitStatusTests: CLITestCase {
    /// A site with one good photo and one corrupt JPEG (its first 30 KB only, as a copy cut short).
    func siteWithACorruptPhoto() throws -> (site: URL, corrupt: URL) {
        let site = try temporaryFolder()
        let content = site.appendingPathComponent("content")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("content/photo2.jpg"),
                                         to: content.appendingPathComponent("good.jpg"))
        let corrupt = content.appendingPathComponent("corrupted.jpg")
        try Data(try Data(contentsOf: Self.repository.appendingPathComponent("content/photo1.jpg")).prefix(30_000)).write(to: corrupt)
        return (site, corrupt)
    }

    static let corruptMessage = "error: content/corrupted.jpg: corrupt or truncated JPEG data (Premature end of JPEG file)"

    func testASiteBuiltWithASkippedPhotoExitsZeroAndNamesIt() throws {
        let (site, _) = try siteWithACorruptPhoto()
        let run = try folio(["build", "--site", site.path])
        XCTAssertEqual(run.status, 0, "the site was put in place: \(run.errors)")
        XCTAssertTrue(run.errors.contains(Self.corruptMessage), run.errors)
        XCTAssertTrue(run.errors.contains("1 error above; the site was built without what they name."), run.errors)
        XCTAssertTrue(run.output.hasPrefix("1 photo, "), run.output)
        XCTAssertTrue(run.output.contains("1 photo failed, 1 error"), run.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: site.appendingPathComponent("public/index.html").path))
    }

    func testStrictExitsTwoWhenAnythingWasLeftOutAndZeroWhenNothingWas() throws {
        let (site, corrupt) = try siteWithACorruptPhoto()
        let strict = try folio(["build", "--site", site.path, "--strict"])
        XCTAssertEqual(strict.status, 2, strict.errors)
        XCTAssertTrue(strict.errors.contains(Self.corruptMessage), strict.errors)
        XCTAssertTrue(FileManager.default.fileExists(atPath: site.appendingPathComponent("public/index.html").path),
                      "--strict still puts the site in place")

        try FileManager.default.removeItem(at: corrupt)
        let clean = try folio(["build", "--site", site.path, "--strict"])
        XCTAssertEqual(clean.status, 0, clean.errors)
        XCTAssertEqual(clean.errors, "")
    }

    func testABuildThatCannotPutASiteInPlaceExitsOne() throws {
        let (site, _) = try siteWithACorruptPhoto()
        // public/ cannot be made: a file is where its folder's parent would be.
        let run = try folio(["build", "--site", site.path, "--output", site.appendingPathComponent("content/good.jpg/public").path])
        XCTAssertEqual(run.status, 1, run.errors)
        XCTAssertTrue(run.errors.hasPrefix("error: "), run.errors)
    }

    func testProblemsAreNamedByEveryBuildUntilFixed() throws {
        let (site, corrupt) = try siteWithACorruptPhoto()
        // A sidecar that cannot be read is a warning, found only when the photo is read.
        let sidecar = site.appendingPathComponent("content/good.xmp")
        try Data(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF"#.utf8).write(to: sidecar)
        let sidecarMessage = "warning: content/good.xmp: not readable XMP (line 1: it ends before its elements close); ignored"

        let first = try folio(["build", "--site", site.path])
        XCTAssertEqual(first.status, 0, first.errors)
        XCTAssertTrue(first.errors.contains(Self.corruptMessage), first.errors)
        XCTAssertTrue(first.errors.contains(sidecarMessage), first.errors)
        XCTAssertTrue(first.output.contains("1 error, 1 warning"), first.output)

        let second = try folio(["build", "--site", site.path])
        XCTAssertEqual(second.status, first.status, second.errors)
        XCTAssertTrue(second.output.contains("(up to date)"), "nothing read again: \(second.output)")
        XCTAssertTrue(second.errors.contains(Self.corruptMessage), second.errors)
        XCTAssertTrue(second.errors.contains(sidecarMessage), "the sidecar was not read again, and is still wrong: \(second.errors)")
        XCTAssertTrue(second.output.contains("1 error, 1 warning"), second.output)

        let quiet = try folio(["build", "--site", site.path, "-q"])
        XCTAssertFalse(quiet.errors.contains(sidecarMessage), quiet.errors)
        XCTAssertTrue(quiet.output.contains("1 error, 1 warning"), "-q still counts them: \(quiet.output)")
        XCTAssertTrue(quiet.errors.contains("1 error and 1 warning ('folio problems' lists them all)"), quiet.errors)

        let listed = try folio(["problems", "--site", site.path])
        XCTAssertEqual(listed.status, 0, listed.errors)
        XCTAssertEqual(listed.output, Self.corruptMessage + "\n" + sidecarMessage + "\n")

        try FileManager.default.removeItem(at: corrupt)
        try Data(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"/>"#.utf8).write(to: sidecar)
        let fixed = try folio(["build", "--site", site.path])
        XCTAssertEqual(fixed.status, 0, fixed.errors)
        XCTAssertEqual(fixed.errors, "", "fixed, no longer named")
        XCTAssertFalse(fixed.output.contains("error"), fixed.output)
        XCTAssertEqual(try folio(["problems", "--site", site.path]).output, "")
        let again = try folio(["build", "--site", site.path])
        XCTAssertTrue(again.output.contains("(up to date)"), again.output)
        XCTAssertEqual(again.errors, "")
    }

    func testAWarningIsNamedEvenByABuildThatFindsEverythingUpToDate() throws {
        let (site, corrupt) = try siteWithACorruptPhoto()
        try FileManager.default.removeItem(at: corrupt)
        try Data(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF"#.utf8).write(to: site.appendingPathComponent("content/good.xmp"))
        XCTAssertEqual(try folio(["build", "--site", site.path]).status, 0)
        let again = try folio(["build", "--site", site.path, "--strict"])
        XCTAssertTrue(again.output.hasPrefix("1 photo, 10 pages (up to date), 1 warning"), again.output)
        XCTAssertTrue(again.errors.contains("warning: content/good.xmp: not readable XMP"), again.errors)
        XCTAssertEqual(again.status, 2, "--strict counts a warning found by an earlier build")
    }

    /// A folder that cannot be opened is named and left out; the rest is built. As root
    /// (containers, CI) mode 000 stops nothing, so the build then runs as `nobody` through
    /// setpriv, for whom it does.
    func testAnUnreadableFolderIsNamedAndTheRestBuilds() throws {
        let site = try temporaryFolder()
        let content = site.appendingPathComponent("content")
        let locked = content.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("content/photo2.jpg"),
                                         to: content.appendingPathComponent("good.jpg"))
        try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("content/photo1.jpg"),
                                         to: locked.appendingPathComponent("hidden.jpg"))
        let asUser = try self.asUnprivilegedUser(owning: site)
        let first = try run(asUser.program, asUser.arguments + [executable.path, "build", "--site", site.path])
        XCTAssertEqual(first.status, 0, first.errors)
        XCTAssertTrue(first.output.hasPrefix("2 photos"), first.output)

        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: locked.path)
        addTeardownBlock { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path) }
        let second = try run(asUser.program, asUser.arguments + [executable.path, "build", "--site", site.path])
        XCTAssertEqual(second.status, 0, second.errors)
        XCTAssertTrue(second.errors.contains("error: content/locked/: cannot be read: Permission denied; the photos in it are left out"),
                      second.errors)
        XCTAssertTrue(second.output.hasPrefix("1 photo, "), second.output)
        XCTAssertTrue(second.output.contains("0 removed"), "the model keeps the photos it cannot see: \(second.output)")

        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path)
        let third = try run(asUser.program, asUser.arguments + [executable.path, "build", "--site", site.path])
        XCTAssertEqual(third.status, 0, third.errors)
        XCTAssertEqual(third.errors, "")
        XCTAssertTrue(third.output.hasPrefix("2 photos, "), third.output)
    }

    /// setpriv to `nobody` when running as root, with the site given to it; else the build as is.
    func asUnprivilegedUser(owning site: URL) throws -> (program: URL, arguments: [String]) {
        guard getuid() == 0 else { return (URL(fileURLWithPath: "/usr/bin/env"), []) }
        let setpriv = URL(fileURLWithPath: "/usr/bin/setpriv")
        guard FileManager.default.isExecutableFile(atPath: setpriv.path) else {
            throw XCTSkip("running as root without setpriv: mode 000 cannot be tested")
        }
        for path in [site.path] + (FileManager.default.subpaths(atPath: site.path) ?? []).map({ site.path + "/" + $0 }) {
            XCTAssertEqual(chown(path, 65534, 65534), 0, path)
        }
        return (setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups"])
    }
}

import FolioContent
import FolioCore
import FolioTestSupport
import Foundation
import XCTest

/// A Google Takeout export's parts, as archives written by other tools (Python's zipfile and
/// tarfile), unpacked into content/ as those tools extract them; whatever would leave content/,
/// or is no file, left out and said; a broken part or a failing disk leaving only whole files.
final class TakeoutArchivesTests: XCTestCase {
    /// A real export's folder (`Tests/Fixtures/Takeout`), as Google packs it: `Takeout/Google Photos/…`.
    private static let export = TestSite.repository.appendingPathComponent("Tests/Fixtures/Takeout/Takeout1")

    private func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("folio-takeout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// Runs `script` with python3, `folder` as its working folder.
    private func python(_ script: String, in folder: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        process.currentDirectoryURL = folder
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "python3 failed")
    }

    /// The export split in two parts, a .zip and a .tgz, each with something of another Google product.
    private func parts(in folder: URL) throws -> [URL] {
        try python("""
            import os, tarfile, zipfile
            root = \(String(reflecting: Self.export.path))
            files = sorted((os.path.join(d, f), "Takeout/" + os.path.relpath(os.path.join(d, f), root))
                           for d, _, names in os.walk(root) for f in names)
            half = len(files) // 2
            with zipfile.ZipFile("takeout-001.zip", "w", zipfile.ZIP_DEFLATED) as part:
                for path, name in files[:half]:
                    part.write(path, name)
                part.writestr("Takeout/Drive/notes.txt", "another product")
            with tarfile.open("takeout-002.tgz", "w:gz") as part:
                for path, name in files[half:]:
                    part.add(path, name)
                part.add(os.path.join(root, "Google Photos"), "Takeout/Mail", recursive=False)
            """, in: folder)
        return [folder.appendingPathComponent("takeout-001.zip"), folder.appendingPathComponent("takeout-002.tgz")]
    }

    /// Every file under `root`, by its path there, with its bytes.
    private func tree(_ root: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for case let url as URL in FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)! where !url.hasDirectoryPath {
            files[String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))] = try Data(contentsOf: url)
        }
        return files
    }

    func testPartsAreUnpackedAsPythonExtractsThemAndPassedOverWhenUnpackedAgain() async throws {
        let folder = try temporaryFolder()
        let archives = try parts(in: folder)
        let site = try TestSite()
        let summary = TakeoutArchives(contentRoot: site.content).unpack(archives)
        XCTAssertEqual(summary.errors, [])
        XCTAssertEqual(summary.leftOut, [])
        XCTAssertEqual(summary.unpacked, 10)
        XCTAssertEqual(summary.otherProducts, 1, "Drive's file; Mail's folder is no file")

        try python("""
            import tarfile, zipfile
            zipfile.ZipFile("takeout-001.zip").extractall("reference")
            tarfile.open("takeout-002.tgz").extractall("reference")
            """, in: folder)
        var reference = try tree(folder.appendingPathComponent("reference"))
        reference["Takeout/Drive/notes.txt"] = nil
        var unpacked = try tree(site.content)
        unpacked["photos.plist"] = nil
        XCTAssertEqual(unpacked.keys.sorted(), reference.keys.sorted())
        XCTAssertEqual(unpacked, reference, "the same bytes")

        // The tar part's times are kept to the second: the next build's stamps are the archive's.
        let json = "Takeout/Google Photos/Album test 6-10-23/métadonnées.json"
        let times = try [site.content, folder.appendingPathComponent("reference")].map {
            try XCTUnwrap(FileManager.default.attributesOfItem(atPath: $0.appendingPathComponent(json).path)[.modificationDate] as? Date)
        }
        XCTAssertEqual(times[0].timeIntervalSince1970, times[1].timeIntervalSince1970.rounded(.down), accuracy: 1)

        let again = TakeoutArchives(contentRoot: site.content).unpack(archives)
        XCTAssertEqual([again.unpacked, again.alreadyThere], [0, 10])

        // And the build reads them as an extracted export: no sidecar is a skipped file.
        let report = try await site.build()
        XCTAssertTrue(report.succeeded, report.issues.description)
        XCTAssertEqual(report.photos, 1, "the one photo the fixture keeps")
        XCTAssertFalse(report.skippedLines.contains { $0.contains("skipped") }, report.skippedLines.description)
        XCTAssertTrue(report.skippedLines.contains { $0.hasPrefix("Google Takeout: ") }, "the sidecars of the photos left out say so")
    }

    func testWhatWouldLeaveContentOrIsNoFileIsLeftOutAndSaid() throws {
        let folder = try temporaryFolder()
        try python("""
            import io, tarfile
            with tarfile.open("evil.tgz", "w:gz") as part:
                def add(name, kind=tarfile.REGTYPE, link="", data=b"x"):
                    info = tarfile.TarInfo(name)
                    info.type, info.linkname, info.size = kind, link, len(data) if kind == tarfile.REGTYPE else 0
                    part.addfile(info, io.BytesIO(data) if kind == tarfile.REGTYPE else None)
                add("Takeout/Google Photos/../../../outside.jpg")
                add("/etc/passwd-copy.jpg")
                add("Takeout/Google Photos/a/link.jpg", tarfile.SYMTYPE, "/etc/passwd")
                add("Takeout/Google Photos/a/hard.jpg", tarfile.LNKTYPE, "Takeout/Google Photos/a/fine.jpg")
                add("Takeout/Google Photos/a/fifo", tarfile.FIFOTYPE)
                add("Takeout/Google Photos/a/./fine.jpg", data=b"fine")
            """, in: folder)
        let site = try TestSite()
        let summary = TakeoutArchives(contentRoot: site.content).unpack([folder.appendingPathComponent("evil.tgz")])
        XCTAssertEqual(summary.errors, [])
        XCTAssertEqual(summary.leftOut.map(\.description), [
            "warning: evil.tgz: Takeout/Google Photos/../../../outside.jpg: leads outside content/; left out",
            "warning: evil.tgz: /etc/passwd-copy.jpg: leads outside content/; left out",
            "warning: evil.tgz: Takeout/Google Photos/a/link.jpg: is a link or a device, not a file; left out",
            "warning: evil.tgz: Takeout/Google Photos/a/hard.jpg: is a link or a device, not a file; left out",
            "warning: evil.tgz: Takeout/Google Photos/a/fifo: is a link or a device, not a file; left out",
        ])
        XCTAssertEqual(try tree(site.root).keys.filter { !$0.hasPrefix("content/photos.plist") }.sorted(),
                       ["content/Takeout/Google Photos/a/fine.jpg"], "nothing else written, inside content/ or out")
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.root.deletingLastPathComponent().appendingPathComponent("outside.jpg").path))
    }

    func testABrokenPartLeavesWholeFilesAndTheNextPartIsUnpacked() throws {
        let folder = try temporaryFolder()
        let archives = try parts(in: folder)
        // The zip cut inside its one photo's compressed bytes.
        let zip = try Data(contentsOf: archives[0])
        let cut = folder.appendingPathComponent("cut-001.zip")
        try zip.prefix(zip.count - 20_000).write(to: cut)
        let site = try TestSite()
        let summary = TakeoutArchives(contentRoot: site.content).unpack([cut, archives[1], folder.appendingPathComponent("missing.zip")])
        XCTAssertEqual(summary.errors.count, 2, summary.errors.description)
        XCTAssertTrue(summary.errors[0].description.hasPrefix("error: cut-001.zip: "), summary.errors[0].description)
        XCTAssertTrue(summary.errors[0].description.hasSuffix("; the files before it are unpacked"), summary.errors[0].description)
        XCTAssertTrue(summary.errors[1].description.hasPrefix("error: missing.zip: "), summary.errors[1].description)
        let files = try tree(site.content).keys
        XCTAssertFalse(files.contains { $0.contains("folio-unpacking") }, "no part-written file is left")
        XCTAssertGreaterThanOrEqual(summary.unpacked, 5, "the tgz part's files, and the zip's before the break")
    }

    func testAFailingDiskStopsWithTheFileNamedAndLeavesNoPartOfIt() throws {
        let folder = try temporaryFolder()
        let archives = try parts(in: folder)
        let probe = FaultyDisk()
        _ = TakeoutArchives(contentRoot: try TestSite().content, disk: probe).unpack(archives)
        // Each change in turn fails (opens, writes, closes, renames, folders made).
        for failing in 1...probe.count {
            let site = try TestSite()
            let disk = FaultyDisk(failing: failing)
            let summary = TakeoutArchives(contentRoot: site.content, disk: disk).unpack(archives)
            // (A write may take one call or several, as libarchive hands the bytes over.)
            guard disk.failure != nil else { continue }
            XCTAssertFalse(summary.errors.isEmpty, "change \(failing): \(summary)")
            XCTAssertTrue(summary.errors.allSatisfy { $0.description.contains("content/") }, "\(failing): \(summary.errors)")
            XCTAssertFalse(try tree(site.content).keys.contains { $0.contains("folio-unpacking") }, "change \(failing)")
        }
    }
}

@testable import FolioContent
@testable import FolioCore
@testable import FolioModel
import FolioTestSupport
import Foundation
import XCTest

/// `folio serve` while a content folder named anyhow is renamed under it as fast as a script can:
/// folders and photos given names of one character, of 255 bytes, of combining marks and
/// controls, hidden and shown again, while builds run. The server answers every request
/// throughout, and once the storm is over the site it serves is the folder as it is.
final class PreviewRenameStormTests: XCTestCase {
    func testARenameStormWhileServingKeepsServing() async throws {
        var random = SplitMix64(2026)
        var tree = RandomContentTree(photos: 14, using: &random)
        tree.catalog = nil
        let site = try TestSite()
        try tree.write(to: site.content, photo: TestInputs.photo)
        let fixture = try await PreviewFixture(site: site)
        let buildsBefore = await fixture.session.builds

        var failures: [String] = []
        var renames = 0
        for round in 0..<120 {
            if try rename(in: site.content, using: &random) { renames += 1 }
            if round % 4 == 0 {
                let response = try await fixture.get("/")
                if response.status != 200 { failures.append("round \(round): / answered \(response.status)") }
            }
            try await Task.sleep(nanoseconds: UInt64.random(in: 2_000_000...40_000_000, using: &random))
        }
        XCTAssertEqual(failures, [])
        XCTAssertGreaterThan(renames, 100)
        let buildsDuring = await fixture.session.builds - buildsBefore
        XCTAssertGreaterThan(buildsDuring, 1, "the storm was built while it blew, not only after")

        // Settled: the last build is of the folder as it is now.
        try await Task.sleep(nanoseconds: 300_000_000)
        await fixture.session.idle()
        await fixture.session.requestBuild(["content"]).value
        let last = await fixture.session.lastReport
        let report = try XCTUnwrap(last)
        let shown = try LocalFileAccess().files(under: site.content).filter(ContentPath.isImage)
        XCTAssertEqual(report.issues.map(\.description), [])
        XCTAssertEqual(report.photos, shown.count)
        XCTAssertEqual(Set(try site.database.knownPhotos(of: .content).keys), Set(shown.map { PhotoSource.content(path: $0) }))
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])
        try await fixture.expect("/", status: 200)
        await fixture.stop()
    }

    /// Renames one photo or folder, in its own folder, to a new name (now and then a hidden one,
    /// now and then back out of hiding). False when the name it drew was taken.
    private func rename(in content: URL, using random: inout SplitMix64) throws -> Bool {
        var all: [RelativePath] = []
        var pending: [RelativePath] = [.root]
        while let folder = pending.popLast() {
            let url = URL(fileURLWithPath: content.path + "/" + folder.text)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
                let path = folder.appending(name)
                all.append(path)
                var info = stat()
                if lstat(content.path + "/" + path.text, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { pending.append(path) }
            }
        }
        guard let chosen = all.randomElement(using: &random) else { return false }
        let isFile = ContentPath.isImage(chosen.name)
        var name = RandomContentTree.name(maxBytes: 250, using: &random)
        switch Int.random(in: 0..<10, using: &random) {
        case 0: name = "." + name
        case 1 where chosen.name.hasPrefix("."): name = String(chosen.name.dropFirst())
        default: break
        }
        if isFile { name += ".jpg" }
        let target = (chosen.parent ?? .root).appending(name)
        var info = stat()
        guard lstat(content.path + "/" + target.text, &info) != 0 else { return false }
        return Glibc.rename(content.path + "/" + chosen.text, content.path + "/" + target.text) == 0
    }
}

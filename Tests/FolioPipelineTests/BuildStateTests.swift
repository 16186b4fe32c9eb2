@testable import FolioCore
@testable import FolioModel
@testable import FolioPipeline
import FolioChanges
import FolioTestSupport
import Foundation
import XCTest

/// What a build keeps for the next one: beside the model, never in `public/`; with Folio's own
/// identity in it, so a site built by another Folio is drawn again.
final class BuildStateTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Every path under `folder`, hidden ones included.
    func everything(under folder: URL) -> [String] {
        let walker = FileManager.default.enumerator(atPath: folder.path)
        var found: [String] = []
        while let path = walker?.nextObject() as? String { found.append(path) }
        return found
    }

    func testTheBuildStateLivesBesideTheModelAndNothingOfFolioIsPublished() async throws {
        let site = try TestSite.threePhotos()
        try await site.build(now: now, identity: "folio A")
        XCTAssertEqual(everything(under: site.publicFolder).filter { $0.split(separator: "/").contains { $0.hasPrefix(".") } }, [],
                       "no hidden file in public/")
        let state = site.paths.state
        XCTAssertTrue(FileManager.default.fileExists(atPath: state.appendingPathComponent("public.build").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: state.appendingPathComponent("public.pages").path))
        let unchanged = try await site.build(now: now.addingTimeInterval(60), identity: "folio A")
        XCTAssertTrue(unchanged.upToDate)

        // The state names the folder it describes: another public/ put in its place is taken
        // for it only where its files are the bytes the manifest says (see below).
        let copy = site.root.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: site.publicFolder, to: copy)
        try FileManager.default.removeItem(at: site.publicFolder)
        try FileManager.default.moveItem(at: copy, to: site.publicFolder)
        try Data("<!doctype html><title>not this site's</title>".utf8).write(to: site.publicFolder.appendingPathComponent("index.html"))
        let moved = try await site.build(now: now.addingTimeInterval(120), identity: "folio A")
        XCTAssertFalse(moved.upToDate)
        XCTAssertEqual(moved.pagesWritten, 1, "the page that is not as the manifest says")
        XCTAssertFalse(try site.read("index.html").contains("not this site's"))

        // Without its script, public/ is still known as Folio's: the state says this site built it.
        try FileManager.default.removeItem(at: site.publicFolder.appendingPathComponent("assets/folio.js"))
        XCTAssertNil(site.paths.outputRefusal())
        let rebuilt = try await site.build(now: now.addingTimeInterval(180), identity: "folio A")
        XCTAssertTrue(rebuilt.succeeded, rebuilt.issues.description)
    }

    func testASiteBuiltByAnotherFolioIsDrawnAgainAndOnlyPagesThatDifferAreWritten() async throws {
        let site = try TestSite.threePhotos()
        let first = try await site.build(now: now, identity: "folio A")
        let sameFolio = try await site.build(now: now.addingTimeInterval(60), identity: "folio A")
        XCTAssertTrue(sameFolio.upToDate)

        // Folio A drew the home page differently from how Folio B draws it.
        let state = BuildState(paths: site.paths)
        var pages = state.pages()
        let older = Data("<!doctype html><title>as Folio A drew it</title>".utf8)
        let home = try XCTUnwrap(pages["index.html"])
        var drawnByA = home
        drawnByA.checksum = ContentHash.hash(older)
        pages["index.html"] = drawnByA
        try FileManager.default.removeItem(at: site.publicFolder.appendingPathComponent("index.html"))
        try older.write(to: site.publicFolder.appendingPathComponent("index.html"))
        try state.save(pages: pages, digest: nil, mark: state.mark())
        let asFolioADrewIt = try await site.build(now: now.addingTimeInterval(120), identity: "folio A")
        XCTAssertTrue(asFolioADrewIt.upToDate, "to Folio A, the site is as it drew it")

        let upgraded = try await site.build(now: now.addingTimeInterval(180), identity: "folio B")
        XCTAssertFalse(upgraded.upToDate, "another Folio may draw the same model differently")
        XCTAssertEqual(upgraded.pagesRendered, upgraded.pages, "every page is drawn again")
        XCTAssertEqual(upgraded.pagesWritten, 1, "only the page that came out different is written")
        XCTAssertEqual(upgraded.renditionsMade, 0)
        XCTAssertFalse(try site.read("index.html").contains("as Folio A drew it"))
        XCTAssertEqual(BuildState(paths: site.paths).pages().entries["index.html"]?.checksum, home.checksum)
        XCTAssertEqual(upgraded.pages, first.pages)
        let upgradedAgain = try await site.build(now: now.addingTimeInterval(240), identity: "folio B")
        XCTAssertTrue(upgradedAgain.upToDate)
    }

    /// A site moved, copied or restored from a CI cache: its `public/` is another folder (inode)
    /// than the one the state names. Its files are read and held to the manifest; those that
    /// are as it says are the last build's, and the build writes only what is not.
    func testASiteRestoredFromACopyIsKnownByItsBytesAndNotWrittenAgain() async throws {
        let site = try TestSite.threePhotos()
        let first = try await site.build(now: now, identity: "folio A")
        let built = try tree(site.publicFolder)
        let manifest = BuildState(paths: site.paths).pages()

        // The whole site as a cache restores it: every file a copy (its times kept, as tar
        // keeps them), every folder another.
        let restored = try TestSite()
        try FileManager.default.removeItem(at: restored.content)
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/cp")
        copy.arguments = ["-a", site.root.path + "/.", restored.root.path]
        try copy.run()
        copy.waitUntilExit()
        XCTAssertEqual(copy.terminationStatus, 0)
        // One page damaged on the way, one lost, one file that is no page of the site.
        let damaged = "places/index.html", lost = "people/index.html"
        XCTAssertNotNil(manifest[damaged])
        XCTAssertNotNil(manifest[lost])
        try Data("<!doctype html><title>damaged</title>".utf8).write(to: restored.publicFolder.appendingPathComponent(damaged))
        try FileManager.default.removeItem(at: restored.publicFolder.appendingPathComponent(lost))
        try Data("stray".utf8).write(to: restored.publicFolder.appendingPathComponent("stray.txt"))

        let report = try await restored.build(now: now.addingTimeInterval(60), identity: "folio A")
        XCTAssertTrue(report.succeeded, report.issues.description)
        XCTAssertFalse(report.upToDate, "the media are looked at once more")
        XCTAssertEqual(report.pagesRendered, 2, "only the damaged and the lost page are drawn: \(report.summary)")
        XCTAssertEqual(report.pagesWritten, 2)
        XCTAssertEqual(report.renditionsMade, 0)
        XCTAssertEqual(report.pages, first.pages)
        let after = try tree(restored.publicFolder)
        XCTAssertEqual(Set(after.keys).symmetricDifference(built.keys).sorted(), [])
        for (path, bytes) in built where after[path] != bytes { XCTFail("\(path) is not the page the site was built with") }
        let again = try await restored.build(now: now.addingTimeInterval(120), identity: "folio A")
        XCTAssertTrue(again.upToDate)

        // A page that is not the bytes the manifest says is never taken over: a folder of
        // other pages at the same paths put in place of public/ is drawn whole.
        let other = try TestSite.threePhotos()
        try await other.build(now: now, identity: "folio A")
        // Made before the old one goes, so it cannot take the old one's inode.
        let elsewhere = other.root.appendingPathComponent("elsewhere")
        for (path, _) in built where path.hasSuffix(".html") {
            let file = elsewhere.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("<!doctype html><title>\(path), elsewhere</title>".utf8).write(to: file)
        }
        try FileManager.default.createDirectory(at: elsewhere.appendingPathComponent("assets"), withIntermediateDirectories: true)
        try Data().write(to: elsewhere.appendingPathComponent("assets/folio.js"))
        try FileManager.default.removeItem(at: other.publicFolder)
        try FileManager.default.moveItem(at: elsewhere, to: other.publicFolder)
        let redrawn = try await other.build(now: now.addingTimeInterval(60), identity: "folio A")
        XCTAssertTrue(redrawn.succeeded, redrawn.issues.description)
        XCTAssertEqual(redrawn.pagesWritten, redrawn.pages, "no page is as any manifest says")
        XCTAssertFalse(try other.read("index.html").contains("elsewhere"))
    }

    /// Every file under `folder` (hidden ones aside) and its bytes.
    private func tree(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in everything(under: folder) where !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            var isFolder: ObjCBool = false
            let url = folder.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }

    func testAMarkSavedAloneIsTheRecordAWholeSaveWrites() async throws {
        let site = try TestSite.threePhotos()
        try await site.build(now: now, identity: "folio A")
        let state = BuildState(paths: site.paths)
        let record = site.paths.state.appendingPathComponent("public.build")
        let (pages, mark) = (state.pages(), try XCTUnwrap(state.mark()))
        // The digest the build kept (written a piece at a time) reads back as it was made.
        let digest = try XCTUnwrap(state.digest())
        XCTAssertFalse(digest.identities.isEmpty)
        try state.save(pages: pages, digest: digest, mark: mark)
        XCTAssertEqual(state.digest(), digest)
        try state.save(pages: pages, digest: nil, mark: nil)
        XCTAssertNil(state.digest(), "none kept")
        XCTAssertNil(state.mark())
        try state.save(mark: mark)
        XCTAssertEqual(state.mark(), mark)
        XCTAssertEqual(state.pages().entries.count, pages.entries.count, "the manifest as it was")
        let alone = try Data(contentsOf: record)
        try state.save(pages: pages, digest: nil, mark: mark)
        XCTAssertEqual(try Data(contentsOf: record), alone, "one encoding of the same state")
        XCTAssertTrue(String(decoding: alone, as: UTF8.self).hasPrefix(#"{"mark":{"#), "keys sorted, as every save writes them")

        // A mark is never saved for a folder the state does not describe.
        let copy = site.root.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: site.publicFolder, to: copy)
        try FileManager.default.removeItem(at: site.publicFolder)
        try FileManager.default.moveItem(at: copy, to: site.publicFolder)
        var later = mark
        later.builtAt = mark.builtAt.addingTimeInterval(60)
        try state.save(mark: later)
        XCTAssertEqual(try Data(contentsOf: record), alone)
        XCTAssertNil(state.mark())
    }

    func testAnOlderFoliosStateInPublicMovesBesideTheModelWithoutAFullRebuild() async throws {
        let site = try TestSite.threePhotos()
        try await site.build(now: now, identity: "folio 0.8")
        // As an older Folio left it: its state in public/, none beside the model.
        let state = BuildState(paths: site.paths)
        let pages = state.pages(), mark = try XCTUnwrap(state.mark())
        XCTAssertFalse(pages.entries.isEmpty)
        try JSONEncoder().encode(mark).write(to: site.publicFolder.appendingPathComponent(BuildMark.legacyFileName))
        try pages.encoded().write(to: site.publicFolder.appendingPathComponent(PageManifest.legacyFileName))
        try FileManager.default.removeItem(at: site.paths.state)
        try FileManager.default.removeItem(at: site.publicFolder.appendingPathComponent("assets/folio.js"))
        XCTAssertNil(site.paths.outputRefusal(), "an older Folio's state marks public/ as Folio's")

        let report = try await site.build(now: now.addingTimeInterval(3600), identity: "folio 0.9")
        XCTAssertTrue(report.succeeded, report.issues.description)
        XCTAssertEqual(report.renditionsMade, 0)
        XCTAssertEqual(report.pagesWritten, 0, "the pages came out as the older Folio wrote them: none is written")
        XCTAssertFalse(site.exists(BuildMark.legacyFileName))
        XCTAssertFalse(site.exists(PageManifest.legacyFileName))
        let moved = BuildState(paths: site.paths).pages()
        XCTAssertEqual(Set(moved.entries.keys), Set(pages.entries.keys))
        for (path, entry) in pages.entries {
            XCTAssertEqual(moved.entries[path]?.checksum, entry.checksum, path)
            XCTAssertEqual(moved.entries[path]?.changed, entry.changed, "\(path): when its HTML last changed is kept")
        }
        let afterTheMove = try await site.build(now: now.addingTimeInterval(3660), identity: "folio 0.9")
        XCTAssertTrue(afterTheMove.upToDate)
    }

    func testFoliosOwnIdentityIsAHashOfItsExecutableKeptBetweenBuilds() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-identity-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let identity = FolioIdentity.current(cache: folder, disk: LocalDisk())
        XCTAssertTrue(identity.hasPrefix("folio \(FolioVersion.number) "), identity)
        XCTAssertEqual(identity.split(separator: " ").last?.count, 16, identity)
        XCTAssertEqual(FolioIdentity.current(cache: folder, disk: LocalDisk()), identity)
        let cached = try String(contentsOf: folder.appendingPathComponent(FolioIdentity.cacheName), encoding: .utf8)
        XCTAssertTrue(cached.hasSuffix(" \(identity.split(separator: " ").last!)\n"), "kept with what says which executable it is")
    }

    /// A ledger against the photos as they are: the unchanged keep their entries, the changed
    /// and new are planned, the gone leave theirs; the names to look among are those of the
    /// changed photos, as recorded and as now, and of the gone.
    func testALedgerStandsThePhotosWhoseDigestMovedApartFromTheRest() async throws {
        let site = try TestSite.threePhotos()
        try await site.build()
        let photos = try site.database.snapshot().photos
        XCTAssertEqual(photos.count, 3)
        let (same, changed, new) = (photos[0].photo, photos[1].photo, photos[2].photo)
        var ledger = MediaLedger(drawing: "d", thumbnails: "t")
        // Each photo's digest is the one its snapshot holds (`GalleryPhoto.mediaDigest`).
        XCTAssertEqual(photos.map(\.mediaDigest), [same, changed, new].map(GalleryPhoto.mediaDigest(of:)))
        ledger.entries[same.id] = MediaLedger.entry(of: same, digest: GalleryPhoto.mediaDigest(of: same), renditions: 4)
        ledger.entries[changed.id] = MediaLedger.Entry(digest: GalleryPhoto.mediaDigest(of: changed) &+ 1, renditions: 4, prefix: "00aa", clipPrefix: "00bb")
        ledger.entries[9_999] = MediaLedger.Entry(digest: 3, renditions: 2, prefix: "00cc", clipPrefix: nil)
        let standing = ledger.standing(of: photos)
        XCTAssertEqual(standing.kept, [same.id: ledger.entries[same.id]!])
        XCTAssertEqual(standing.changed, [1, 2])
        let prefixes = [changed, new].compactMap { MediaLedger.namePrefix(of: $0.checksum) }
        XCTAssertEqual(prefixes.count, 2)
        XCTAssertEqual(standing.moved, Set(["00aa", "00bb", "00cc"] + prefixes))
        // Nothing moved: every entry kept, none looked among.
        let still = ledger.standing(of: PhotoRows(photos.filter { $0.photo.id == same.id }))
        XCTAssertEqual(still.changed, [])
        XCTAssertEqual(still.kept, [same.id: ledger.entries[same.id]!], "the absent photos' entries go")
        XCTAssertEqual(still.moved, ["00aa", "00bb", "00cc"])
        // A recorded photo whose names no prefix tells: every name is looked at.
        ledger.entries[9_999] = MediaLedger.Entry(digest: 3, renditions: 2, prefix: nil, clipPrefix: nil)
        ledger.entries[changed.id]?.digest = GalleryPhoto.mediaDigest(of: changed)
        XCTAssertNil(ledger.standing(of: photos).moved)
    }
}

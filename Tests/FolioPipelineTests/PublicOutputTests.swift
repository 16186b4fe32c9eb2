@testable import FolioCore
@testable import FolioPipeline
import Foundation
import XCTest

/// The two trees `public/` and `.public.next` take turns: the next tree's pages are brought up to
/// date in place, so an unchanged page costs no write, yet each swap puts exactly the pages of
/// the build that made it in place.
final class PublicOutputTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("public-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    /// One build: `pages` written (text) or taken over (nil) in the next tree, then swapped in.
    func build(_ pages: [String: String?]) throws -> PublicOutput {
        let output = try PublicOutput(destination: root.appendingPathComponent("public"))
        try output.prepare()
        for (path, text) in pages.sorted(by: { $0.key < $1.key }) {
            if let text {
                try output.write(Data(text.utf8), to: path)
            } else {
                XCTAssertTrue(output.reuse(path), "\(path) is published, so it can be taken over")
            }
        }
        try output.commit(keepingMedia: [])
        return output
    }

    func files(_ folder: String) -> [String: String] {
        let base = root.appendingPathComponent(folder)
        var found: [String: String] = [:]
        let walker = FileManager.default.enumerator(atPath: base.path)
        while let path = walker?.nextObject() as? String {
            var folder: ObjCBool = false
            let url = base.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &folder), !folder.boolValue {
                found[path] = (try? String(contentsOf: url, encoding: .utf8)) ?? "?"
            }
        }
        return found
    }

    func inode(_ path: String) throws -> UInt64 {
        (try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path)[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
    }

    /// When the file's inode last changed (a link made or removed changes it), in nanoseconds.
    func changed(_ path: String) -> Int {
        var info = stat()
        guard lstat(root.appendingPathComponent(path).path, &info) == 0 else { return -1 }
        return info.st_ctim.tv_sec * 1_000_000_000 + info.st_ctim.tv_nsec
    }

    func testEachSwapPutsExactlyItsBuildsPagesInPlace() throws {
        _ = try build(["index.html": "home 1", "a.html": "a 1", "gone/old.html": "old", "assets/app.js": "js"])
        _ = try build(["index.html": "home 2", "a.html": nil, "assets/app.js": nil])
        XCTAssertEqual(files("public"), ["index.html": "home 2", "a.html": "a 1", "assets/app.js": "js"])
        // The next tree is the site before, untouched by this build.
        XCTAssertEqual(files(".public.next"), ["index.html": "home 1", "a.html": "a 1", "gone/old.html": "old", "assets/app.js": "js"])

        // The third build's next tree is the first site: its page that is gone since, and the
        // folder that held it, go; the page both builds took over is already the published file.
        let before = changed("public/assets/app.js")
        Thread.sleep(forTimeInterval: 0.05)
        _ = try build(["index.html": nil, "a.html": "a 3", "assets/app.js": nil, "new/b.html": "b"])
        XCTAssertEqual(changed("public/assets/app.js"), before, "a file already in both trees costs no link and no unlink")
        XCTAssertEqual(files("public"), ["index.html": "home 2", "a.html": "a 3", "assets/app.js": "js", "new/b.html": "b"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("public/gone").path))
        XCTAssertEqual(try inode("public/index.html"), try inode(".public.next/index.html"), "taken over: one file for both sites")
    }

    /// A page the next tree holds alone (the site two builds ago) is written over in place:
    /// freeing its blocks (unlink, truncate) made every rewritten page wait for the disk's
    /// discard. It holds exactly the new bytes, shorter or longer than the old.
    func testAPageTheNextTreeHoldsAloneIsWrittenOverInPlace() throws {
        let long = String(repeating: "old page, long enough to span blocks. ", count: 400)
        _ = try build(["a.html": long, "b.html": "b 1"])
        _ = try build(["a.html": "a 2", "b.html": "b 2"])
        let alone = try inode(".public.next/a.html")
        _ = try build(["a.html": "a 3", "b.html": "b 3, and longer than the page it replaces"])
        XCTAssertEqual(try inode("public/a.html"), alone, "the old file, written over")
        XCTAssertEqual(files("public"), ["a.html": "a 3", "b.html": "b 3, and longer than the page it replaces"])
        XCTAssertEqual(files(".public.next"), ["a.html": "a 2", "b.html": "b 2"])
    }

    func testWritingAPageNeverChangesThePublishedFileItSharesANameWith() throws {
        _ = try build(["a.html": "a 1"])
        _ = try build(["a.html": nil])
        _ = try build(["a.html": nil])
        XCTAssertEqual(try inode("public/a.html"), try inode(".public.next/a.html"), "both trees hold the one file")

        let output = try PublicOutput(destination: root.appendingPathComponent("public"))
        try output.prepare()
        try output.write(Data("a 4".utf8), to: "a.html")
        XCTAssertEqual(files("public"), ["a.html": "a 1"], "the site visitors see is as it was until the swap")
        try output.commit(keepingMedia: [])
        XCTAssertEqual(files("public"), ["a.html": "a 4"])
        XCTAssertEqual(files(".public.next"), ["a.html": "a 1"])
    }


    /// A page gone from both trees is no longer where they differ: a build does not look for it
    /// again, nor does every build after (a library that lost thousands of pages did).
    func testAPathNeitherTreeHoldsIsNoLongerWhereTheyDiffer() throws {
        _ = try build(["a.html": "a 1", "gone.html": "g", "b.html": "b 1"])
        _ = try build(["a.html": "a 2", "b.html": nil])
        // The next tree is the first site, with gone.html; public/ is the second, without.
        let output = try PublicOutput(destination: root.appendingPathComponent("public"))
        try output.prepare()
        output.differing = ["a.html", "gone.html"]
        try output.write(Data("a 3".utf8), to: "a.html")
        XCTAssertTrue(output.reuse("b.html"))
        try output.commit(keepingMedia: [], pages: ["a.html", "b.html"])
        XCTAssertEqual(output.changedPaths.map { Set($0) }, ["a.html"], "gone.html is in neither tree now")
        XCTAssertEqual(files("public"), ["a.html": "a 3", "b.html": "b 1"])
        XCTAssertEqual(files(".public.next"), ["a.html": "a 2", "b.html": "b 1"])
    }

    /// A build beside a published site lists where it made the trees differ (for the ledger);
    /// a cold build lists nothing, as a large site's paths would be too many to hold: its twin
    /// becomes the tree beside the new site, one file with it at every path.
    func testOnlyABuildBesideAPublishedSiteListsWhatItChanged() throws {
        let cold = try build(["a.html": "a 1", "b.html": "b 1"])
        XCTAssertNil(cold.changedPaths)
        XCTAssertTrue(cold.twinIsNext)
        XCTAssertEqual(try inode("public/a.html"), try inode(".public.next/a.html"))

        let output = try PublicOutput(destination: root.appendingPathComponent("public"))
        try output.prepare()
        try output.write(Data("a 2".utf8), to: "a.html")
        XCTAssertTrue(output.reuse("b.html"))
        try output.writeMedia(Data("jpeg".utf8), to: "media/c.jpg")
        try output.commit(keepingMedia: ["media/c.jpg"])
        XCTAssertEqual(output.changedPaths.map { Set($0) }, ["a.html", "media/c.jpg"])
        XCTAssertFalse(output.twinIsNext)
    }
    func testAPageWhereAnOlderSiteHadAFolderAndAFolderWhereItHadAPage() throws {
        _ = try build(["x.html/index.html": "folder once", "y.html": "page once"])
        _ = try build(["other.html": "other"])
        _ = try build(["x.html": "page now", "y.html/index.html": "folder now"])
        XCTAssertEqual(files("public"), ["x.html": "page now", "y.html/index.html": "folder now"])
    }

    func testWhatAKilledBuildLeftHalfWrittenInTheNextTreeIsNotPublished() throws {
        _ = try build(["a.html": "a 1"])
        let next = root.appendingPathComponent(".public.next")
        try FileManager.default.createDirectory(at: next.appendingPathComponent("half"), withIntermediateDirectories: true)
        try Data("<html><bo".utf8).write(to: next.appendingPathComponent("half/page.html"))
        try Data("<html><bo".utf8).write(to: next.appendingPathComponent("a.html.tmp-123"))
        _ = try build(["a.html": nil, "b.html": "b"])
        XCTAssertEqual(files("public"), ["a.html": "a 1", "b.html": "b"])
    }
    /// A media file is written whole beside the trees (`incoming`) and only then takes its name:
    /// a killed build leaves no half file under a media name, what it left on the way is gone
    /// when the next build prepares, and nothing of the way is left beside the site after a build.
    func testAMediaFileTakesItsNameOnlyWholeAndTheWayInIsClearedBehind() throws {
        let output = try PublicOutput(destination: root.appendingPathComponent("public"))
        try output.prepare()
        let media = (0..<40).map { "media/\(String(format: "%016x", $0))-thumb-aa.jpg" }
        for (index, path) in media.enumerated() { try output.writeMedia(Data(repeating: UInt8(index), count: 1000 + index), to: path) }
        // The same name again (another job's photo with the same bytes): replaced, as before.
        try output.writeMedia(Data(repeating: 7, count: 1007), to: media[7])
        let incoming = root.appendingPathComponent(".public.next.incoming")
        let ways = try FileManager.default.subpathsOfDirectory(atPath: incoming.path)
        // Its folders (one level), each empty again: each way in let go once linked.
        XCTAssertEqual(ways.filter { $0.contains("/") }, [], "each way in let go once linked")
        // Spread over folders of their own, not all made and unlinked in one.
        XCTAssertGreaterThan(ways.filter { !$0.contains("/") }.count, 4)
        // A build killed on the way: a file half written, not yet in the media folder.
        try Data("half".utf8).write(to: incoming.appendingPathComponent("123"))
        try output.commit(keepingMedia: PathHashes(media))
        XCTAssertFalse(FileManager.default.fileExists(atPath: incoming.path), "nothing beside the site once it is in place")
        let published = files("public")
        XCTAssertEqual(Set(published.keys), Set(media))
        for (index, path) in media.enumerated() {
            XCTAssertEqual(try Data(contentsOf: root.appendingPathComponent("public/\(path)")),
                           Data(repeating: UInt8(index), count: 1000 + index), path)
        }

        let again = try PublicOutput(destination: root.appendingPathComponent("public"))
        try FileManager.default.createDirectory(at: incoming, withIntermediateDirectories: true)
        try Data("half".utf8).write(to: incoming.appendingPathComponent("456"))
        try again.prepare()
        XCTAssertFalse(FileManager.default.fileExists(atPath: incoming.appendingPathComponent("456").path),
                       "what a killed build left on the way is gone when the next one prepares")
        try again.writeMedia(Data("new".utf8), to: "media/00000000000000ff-thumb-aa.jpg")
        try again.commit(keepingMedia: PathHashes(media + ["media/00000000000000ff-thumb-aa.jpg"]))
        XCTAssertEqual(files("public")["media/00000000000000ff-thumb-aa.jpg"], "new")
    }
}

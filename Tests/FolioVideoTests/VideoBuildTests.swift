import CSystem
@testable import FolioCore
@testable import FolioModel
import FolioTestSupport
import Foundation
import XCTest


/// Videos and a Live Photo built into a site beside a photo and a damaged clip: imported with
/// what their containers and catalogs say, placed by their GPS, listed with their duration,
/// played on their pages from web videos made once.
final class VideoBuildTests: XCTestCase {
    func testVideosAndALivePhotoArePublishedAndADamagedClipIsNamed() async throws {
        let site = try TestSite()
        try site.write(try VideoTools.clip(seconds: 2, tags: [
            "creation_time": "2021-07-04T10:20:30Z", "location": "+48.8584+002.2945/", "title": "Tour Eiffel",
        ]), to: "content/trip/eiffel.mp4")
        try site.catalog("trip/trip.plist", [["path": "eiffel.mp4", "name": "At the tower", "user": "Ana"]])
        // A Live Photo: the still and, of its name, its clip (HEVC, as iPhones write them).
        let live = try VideoTools.clip(codec: .hevc, width: 240, height: 320, seconds: 1.5, fileExtension: "mov")
        try site.write(live, to: "content/phone/IMG_0042.MOV")
        try site.write(try VideoTools.frame(0, of: live, fileExtension: "mov"), to: "content/phone/IMG_0042.PNG")
        try site.write(try Data(contentsOf: VideoFileTests.sigalVideo), to: "content/sigal/example video.ogv")
        let whole = try VideoTools.clip(seconds: 1)
        try site.write(whole.prefix(whole.count / 2), to: "content/broken/cut.mp4")
        try site.photo("still.jpg")

        let report = try await site.build()
        XCTAssertEqual(report.photos, 4, report.issues.description)
        XCTAssertEqual(report.issues.map(\.description).filter { $0.hasPrefix("error") }, [
            "error: content/broken/cut.mp4: not a video Folio can read (Invalid data found when processing input)",
        ])
        XCTAssertEqual(report.skippedLines, [], "every video is imported: none is skipped")

        // The video: its catalog record over its container, placed by its GPS, dated by it.
        let database = try site.database
        let eiffel = try XCTUnwrap(database.photo(identifier: try site.identifier("trip/eiffel.mp4")))
        XCTAssertEqual(eiffel.motion?.kind, .video)
        XCTAssertEqual(try XCTUnwrap(eiffel.motion?.duration), 2, accuracy: 0.1)
        XCTAssertEqual(eiffel.title, "At the tower")
        XCTAssertEqual(eiffel.taken, LocalDateTime.date(from: "2021-07-04 10:20:30"))
        XCTAssertEqual([eiffel.width, eiffel.height], [320, 240])
        let page = try site.read("photos/\(eiffel.identifier).html")
        XCTAssertTrue(page.contains("Paris"), "placed by the gazetteer from its GPS")
        XCTAssertTrue(page.contains("Ana"))
        let player = try XCTUnwrap(page.firstMatch(of: #/<video class="photo-video" src="\.\./(media/[^"]+\.mp4)" controls preload="metadata" playsinline poster="\.\./(media/[^"]+\.jpg)"/#))
        let (video, poster) = (String(player.output.1), String(player.output.2))
        XCTAssertTrue(video.hasPrefix("media/\(eiffel.checksum.prefix(16))-video-"), video)
        XCTAssertTrue(site.exists(poster))
        let probe = try VideoTools.probe(site.publicFolder.appendingPathComponent(video))
        XCTAssertEqual([probe["video.codec_name"], probe["audio.codec_name"]], ["h264", "aac"])
        let published = try Data(contentsOf: site.publicFolder.appendingPathComponent(video))
        XCTAssertNil(published.range(of: Data("+48.8584".utf8)), "no GPS in what is published")
        XCTAssertNil(published.range(of: Data("Tour Eiffel".utf8)), "nor the original's title")
        XCTAssertFalse(page.contains("data-tiles"), "a video is played, not zoomed")

        // Listed with its duration; found by search.
        let home = try site.read("index.html")
        XCTAssertTrue(home.contains(#"<span class="visually-hidden">video, </span>0:02</span>"#))
        XCTAssertTrue(home.contains("Live<span class=\"visually-hidden\"> Photo</span>"))
        let search = try FileManager.default.subpathsOfDirectory(atPath: site.publicFolder.appendingPathComponent("search").path)
            .filter { !$0.hasSuffix("/") && RelativePath($0).lowercasedExtension != "" }
            .compactMap { try? String(contentsOf: site.publicFolder.appendingPathComponent("search/\($0)"), encoding: .utf8) }
        XCTAssertTrue(search.contains { $0.contains("At the tower") }, "in the search index")

        // The Live Photo: one photo, the still's, whose clip plays over it.
        let still = try XCTUnwrap(database.photo(identifier: try site.identifier("phone/IMG_0042.PNG")))
        XCTAssertEqual(still.motion?.kind, .live)
        XCTAssertEqual(still.motion?.clip, "phone/IMG_0042.MOV")
        let livePage = try site.read("photos/\(still.identifier).html")
        XCTAssertTrue(livePage.contains(#"<img class="photo-image""#), "the still is the photo")
        let motion = try XCTUnwrap(livePage.firstMatch(of: #/<video class="live-motion" src="\.\./(media/[^"]+\.mp4)"/#))
        XCTAssertTrue(site.exists(String(motion.output.1)))
        XCTAssertEqual(try VideoTools.probe(site.publicFolder.appendingPathComponent(String(motion.output.1)))["video.codec_name"], "h264")
        XCTAssertTrue(livePage.contains(#"class="live-toggle""#), "a control for keyboards")

        // sigal's sample, Theora in Ogg, is published as H.264.
        let ogv = try XCTUnwrap(database.photo(identifier: try site.identifier("sigal/example video.ogv")))
        XCTAssertEqual([ogv.width, ogv.height], [240, 98])
        XCTAssertTrue(try site.read("photos/\(ogv.identifier).html").contains("<video class=\"photo-video\""))

        // Nothing is made again: the web videos are named by their source's bytes.
        let made = try FileManager.default.attributesOfItem(atPath: site.publicFolder.appendingPathComponent(video).path)[.modificationDate] as? Date
        let again = try await site.build()
        XCTAssertEqual(again.renditionsMade, 0, again.summary)
        XCTAssertEqual(again.issues.map(\.description).filter { $0.hasPrefix("error") }.count, 1, "the damaged clip is still named")
        try FileManager.default.removeItem(at: site.content.appendingPathComponent("broken/cut.mp4"))
        _ = try await site.build()
        let noOp = try await site.build()
        XCTAssertTrue(noOp.upToDate, noOp.summary)
        // A Live Photo's clip replaced: the still is read again, its page plays the new clip, the
        // old web video goes.
        let oldMotion = String(motion.output.1)
        try site.write(try VideoTools.clip(codec: .h264, width: 240, height: 320, seconds: 1, audio: false, fileExtension: "mov"),
                       to: "content/phone/IMG_0042.MOV")
        let edited = try await site.build()
        XCTAssertEqual(edited.renditionsMade, 1, "the new clip's web video alone: \(edited.summary)")
        let newMotion = try XCTUnwrap(try site.read("photos/\(still.identifier).html").firstMatch(of: #/<video class="live-motion" src="\.\./(media/[^"]+\.mp4)"/#))
        XCTAssertNotEqual(String(newMotion.output.1), oldMotion)
        XCTAssertTrue(site.exists(String(newMotion.output.1)))
        XCTAssertFalse(site.exists(oldMotion), "no page uses the old one")

        try site.write(Data(#"{"title": "Holidays"}"#.utf8), to: "folio.json")
        let retitled = try await site.build()
        XCTAssertFalse(retitled.upToDate)
        XCTAssertEqual(retitled.renditionsMade, 0, "every page drawn again, no video made again")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: site.publicFolder.appendingPathComponent(video).path)[.modificationDate] as? Date, made)
    }

    /// Edits to videos and Live Photos leave, build after build, the site a cold build of the same
    /// content makes, byte for byte: every page that shows a video or a clip is keyed by it.
    func testVideoEditsLeaveTheSiteAColdBuildMakes() async throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let clips = [
            try VideoTools.clip(seconds: 1, tags: ["location": "+48.8584+002.2945/"]),
            try VideoTools.clip(codec: .hevc, seconds: 1, audio: false, fileExtension: "mov"),
            try VideoTools.clip(width: 240, height: 320, seconds: 1, audio: false),
        ]
        let photos = try ["photo1.jpg", "photo2.jpg"].map { try Data(contentsOf: TestSite.repository.appendingPathComponent("content/\($0)")) }
        var files: [String: Data] = [
            "a/one.jpg": photos[0], "a/clip.mp4": clips[0], "b/IMG_1.jpg": photos[1], "b/IMG_1.mov": clips[1], "b/walk.mp4": clips[2],
        ]
        var title = "Clip"
        func put(_ site: TestSite) throws {
            for path in try LocalFileAccess().files(under: site.content) where files[path] == nil && path != "catalog.plist" {
                try FileManager.default.removeItem(at: site.content.appendingPathComponent(path))
            }
            for (path, data) in files { try site.write(data, to: "content/\(path)") }
            // Every photo and video dated by the catalog, not by when its file was written: the
            // cold build writes its files later. A Live Photo's clip is its still's, unlisted.
            let listed = files.keys.filter { !$0.hasSuffix(".mov") }.sorted()
            try site.catalog("catalog.plist", listed.enumerated().map { index, path in
                ["path": path, "name": path == "a/clip.mp4" ? title : path, "user": "Ana",
                 "uploaded": now.addingTimeInterval(-Double(index) * 3600)] as [String: Any]
            })
        }
        func tree(_ root: URL) throws -> [String: Data] { try TestSite.files(under: root) }
        let site = try TestSite()
        try put(site)
        // The first build is given memory that held something, as a long-running process's
        // would be; the cold builds get what the process has. Their web videos must not differ.
        XCTAssertEqual(folio_perturb_memory(0x01), 0)
        do {
            defer { folio_perturb_memory(0) }
            try await site.build(now: now)
        }
        let edits: [(String, () -> Void)] = [
            ("retitled the video", { title = "Clip again" }),
            ("took the Live Photo's clip away", { files["b/IMG_1.mov"] = nil }),
            ("gave a still a clip", { files["a/one.mov"] = clips[1] }),
            ("gave a video another's bytes", { files["b/walk.mp4"] = clips[0] }),
            ("deleted a video", { files["a/clip.mp4"] = nil }),
        ]
        for (done, edit) in edits {
            edit()
            try put(site)
            let report = try await site.build(now: now)
            XCTAssertTrue(report.issues.isEmpty, "\(done): \(report.issues)")
            let fresh = try TestSite()
            try put(fresh)
            try await fresh.build(now: now)
            let (incremental, cold) = (try tree(site.publicFolder), try tree(fresh.publicFolder))
            XCTAssertEqual(Set(incremental.keys).symmetricDifference(cold.keys).sorted(), [], done)
            for (path, bytes) in cold where incremental[path] != bytes {
                XCTFail("after '\(done)': \(path) differs from a cold build's")
            }
        }
    }
}

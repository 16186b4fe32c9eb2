@testable import FolioCore
@testable import FolioModel
@testable import FolioPipeline
import FolioTestSupport
import Foundation
import XCTest

/// The build's steps, each run on its own: what each takes, returns and touches.
final class BuildPipelineTests: XCTestCase {
    func files(under folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    func testThePlanWritesNothingAndTheImagesStepRestoresThumbnailsFromTheModel() async throws {
        let site = try TestSite.threePhotos()
        try await site.build()
        let media = site.publicFolder.appendingPathComponent("media")
        let thumbnails = files(under: media).filter { $0.contains("-thumb") }
        XCTAssertEqual(thumbnails.count, 6)
        // Gone from both trees: the cold build left the next one holding the same files.
        let besides = site.root.appendingPathComponent(".public.next/media")
        for name in thumbnails {
            try FileManager.default.removeItem(at: media.appendingPathComponent(name))
            try FileManager.default.removeItem(at: besides.appendingPathComponent(name))
        }
        let before = files(under: site.publicFolder)

        let run = BuildRun(paths: site.paths, options: BuildOptions(themeFolder: TestSite.theme))
        let configured = try await ConfigureStep().run((), in: run)
        let walk = try await WalkContentStep().run(configured, in: run)
        let inventory = try await LoadContentStep().run((configured, walk), in: run)
        let imported = try await ImportStep().run((configured, inventory), in: run)
        XCTAssertEqual(imported.imported, 0)
        try configured.output.prepare()
        let plan = try await PlanStep().run((configured, imported, nil), in: run)
        XCTAssertEqual(files(under: site.publicFolder), before, "the plan writes no file")
        XCTAssertEqual(plan.restores.count, 6)
        XCTAssertEqual(plan.jobs.count, 0, "the thumbnails are in the model: nothing to decode")

        let images = try await ImagesStep().run((configured, plan), in: run)
        XCTAssertEqual(images.made, 0)
        let next = configured.output.next.appendingPathComponent("media")
        XCTAssertEqual(Set(files(under: next).filter { $0.contains("-thumb") }), Set(thumbnails), "in the site being made")
    }

    /// The plan keeps of each job its photos' places in the snapshot; the job is made again
    /// from them when its turn comes, as a job of every photo with those bytes.
    func testAPlannedJobIsMadeAgainForEveryPhotoWithItsBytes() async throws {
        let site = try TestSite.threePhotos()
        try site.photo("twin.jpg")  // one.jpg's bytes
        let run = BuildRun(paths: site.paths, options: BuildOptions(themeFolder: TestSite.theme))
        let configured = try await ConfigureStep().run((), in: run)
        let walk = try await WalkContentStep().run(configured, in: run)
        let inventory = try await LoadContentStep().run((configured, walk), in: run)
        let imported = try await ImportStep().run((configured, inventory), in: run)
        try configured.output.prepare()
        let plan = try await PlanStep().run((configured, imported, nil), in: run)
        XCTAssertEqual(plan.jobs.count, 3, "four photos, three kinds of bytes")
        let jobs = plan.jobs.compactMap(plan.job)
        XCTAssertEqual(jobs.count, 3)
        let sources = { (job: ImageJob) in job.photos.map(\.source.description).sorted() }
        XCTAssertEqual(jobs.map(sources).sorted { $0.count > $1.count }.first, ["content/one.jpg", "content/twin.jpg"])
        for (planned, job) in zip(plan.jobs, jobs) {
            XCTAssertEqual(plan.ids(planned), job.photos.map(\.id))
            XCTAssertEqual(planned.pixels, job.pixels)
            XCTAssertFalse(planned.isDownload)
            XCTAssertEqual(Set(job.requests).count, job.requests.count, "each rendition asked for once")
            XCTAssertFalse(job.requests.isEmpty)
            XCTAssertEqual(job.checksum, plan.snapshot.photos[Int(planned.first)].photo.checksum)
        }
        let images = try await ImagesStep().run((configured, plan), in: run)
        XCTAssertEqual(images.made, jobs.reduce(0) { $0 + $1.requests.count })
        XCTAssertEqual(images.failed, [])
    }

    /// The photos the plan indexes by key: those whose checksum's first 64 bits another photo
    /// looked at has too, held as a number or as text, each with the first of them.
    func testThePlanIndexesOnlyPhotosThatShareAChecksumKey() {
        let person = Person(id: 1, key: "al", name: "Al", slug: "al")
        let checksums = [
            "00000000000000aa", "00000000000000bb", "00000000000000aa",  // two alike, as numbers
            "00000000000000bb0", "00000000000000bb1",  // both begin as the second does: the same key
            "not hex", "not hex", "also not hex", "00000000000000cc",
        ]
        let photos = checksums.enumerated().map { at, checksum in
            var photo = Photo(identifier: "p\(at)", source: .content(path: "\(at).jpg"), uploaded: Date(timeIntervalSince1970: 0),
                              checksum: checksum)
            photo.id = Int64(at + 1)
            return GalleryPhoto(photo: photo, person: person, place: nil, region: nil)
        }
        XCTAssertEqual(PlanStep.sharingKeys(Array(photos.indices), of: PhotoRows(photos)), [0: 0, 2: 0, 1: 1, 3: 1, 4: 1, 5: 5, 6: 5])
        XCTAssertEqual(PlanStep.sharingKeys([2, 3, 6, 7, 8], of: PhotoRows(photos)), [:], "only the photos looked at")
        XCTAssertEqual(PlanStep.sharingKeys([], of: PhotoRows(photos)), [:])
    }

    func testTheRunnerLogsEveryStepAndStopsEarlyWhenNothingChanged() async throws {
        let site = try TestSite.threePhotos()
        let lines = Lines()
        let options = BuildOptions(themeFolder: TestSite.theme)
        let first = try await SiteBuild(paths: site.paths, options: options).run(log: lines.append)
        XCTAssertEqual(lines.take(), [
            "[1/9] configure", "[2/9] walk content", "[3/9] load content", "[4/9] import", "[5/9] plan", "[6/9] images",
            "[7/9] pages", "[8/9] render", "[9/9] write public/",
        ])
        XCTAssertEqual(first.stepTimes.map(\.0), SiteBuild.steps)
        XCTAssertEqual(first.issues, [])
        // Nothing under content/ moved: the walk is enough.
        let again = try await SiteBuild(paths: site.paths, options: options).run(log: lines.append)
        XCTAssertEqual(lines.take(), ["[1/9] configure", "[2/9] walk content", "up to date"])
        XCTAssertTrue(again.upToDate)
        XCTAssertEqual(again.stepTimes.map(\.0), ["configure", "walk content"])
        XCTAssertEqual(again.photos, first.photos)

        // The catalog written again as it was: read again, found to say the same, up to date
        // after the import; the build after it stops at the walk again.
        let catalog = site.root.appendingPathComponent("content/FakeData.plist")
        let bytes = try Data(contentsOf: catalog)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: catalog.path)
        let touched = try await SiteBuild(paths: site.paths, options: options).run(log: lines.append)
        XCTAssertEqual(lines.take(), ["[1/9] configure", "[2/9] walk content", "[3/9] load content", "[4/9] import", "up to date"])
        XCTAssertTrue(touched.upToDate)
        _ = try await SiteBuild(paths: site.paths, options: options).run(log: lines.append)
        XCTAssertEqual(lines.take(), ["[1/9] configure", "[2/9] walk content", "up to date"])

        // A title changed in it: read, and pages drawn again.
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.contains("<string>"))
        let changed = text.replacingOccurrences(of: "<key>name</key>\n\t\t<string>", with: "<key>name</key>\n\t\t<string>Edited ")
        XCTAssertNotEqual(changed, text)
        try changed.write(to: catalog, atomically: true, encoding: .utf8)
        let edited = try await SiteBuild(paths: site.paths, options: options).run(log: lines.append)
        XCTAssertEqual(lines.take().count, 9, "every step")
        XCTAssertFalse(edited.upToDate)
    }

    /// The search index's files, the feed and the sitemap are made whole on every build; one
    /// whose bytes are as last time is the published file itself (same inode, same time), so a
    /// one-photo edit to a large library does not write its thousands of search files again.
    func testFilesMadeWholeAreWrittenOnlyWhenTheirBytesChange() async throws {
        let site = try TestSite.threePhotos()
        try site.write(Data(#"{"baseURL": "https://photos.example.org/"}"#.utf8), to: "folio.json")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        try await site.build(now: now)
        func inode(_ path: String) throws -> UInt64 {
            try XCTUnwrap(FileManager.default.attributesOfItem(atPath: site.publicFolder.appendingPathComponent(path).path)[.systemFileNumber] as? UInt64)
        }
        let kept = ["search/data/i-0.js", "robots.txt"]
        let before = try kept.map(inode)
        let shard = try site.searchShard(of: "one.jpg")
        let shardBefore = try inode(shard)
        XCTAssertFalse(try site.read(shard).contains("Renamed"))

        try site.catalog("FakeData.plist", [
            ["path": "one.jpg", "name": "Renamed", "user": "Josh", "description": "Rubble",
             "place": "Palo Alto, California, United States", "favorite": true],
            ["path": "two.jpg", "user": "Al", "place": "Nairobi, Kenya", "taken": Date(timeIntervalSince1970: 1_700_000_000)],
        ])
        let report = try await site.build(now: now.addingTimeInterval(60))
        XCTAssertGreaterThan(report.pagesWritten, 0)
        XCTAssertEqual(try kept.map(inode), before, "the same bytes: the published files themselves")
        XCTAssertTrue(try site.read(shard).contains("Renamed"))
        XCTAssertNotEqual(try inode(shard), shardBefore, "the shard that shows the photo is written anew")
        XCTAssertFalse(try site.read("sitemap.xml").contains("search/data"), "the sitemap lists pages, not files")

        // And a cold build of the same content makes the very same files.
        let cold = try TestSite.threePhotos()
        try cold.write(Data(#"{"baseURL": "https://photos.example.org/"}"#.utf8), to: "folio.json")
        try FileManager.default.removeItem(at: cold.root.appendingPathComponent("content"))
        try FileManager.default.copyItem(at: site.root.appendingPathComponent("content"), to: cold.root.appendingPathComponent("content"))
        try await cold.build(now: now.addingTimeInterval(60))
        for path in kept + [shard, "search/data/meta.js"] {
            XCTAssertEqual(try cold.read(path), try site.read(path), path)
        }
    }

    /// A search file the last build made and someone removed from `public/` is not taken over
    /// from nothing: the build that finds it gone makes the whole index again.
    func testASearchFileGoneFromThePublishedSiteIsMadeAgain() async throws {
        let site = try TestSite.threePhotos()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        try await site.build(now: now)
        let bucket = "search/data/i-0.js"
        let made = try site.read(bucket)
        try FileManager.default.removeItem(at: site.publicFolder.appendingPathComponent(bucket))
        try site.catalog("FakeData.plist", [
            ["path": "one.jpg", "name": "Renamed", "user": "Josh", "place": "Palo Alto, California, United States"],
            ["path": "two.jpg", "user": "Al", "place": "Nairobi, Kenya", "taken": Date(timeIntervalSince1970: 1_700_000_000)],
        ])
        try await site.build(now: now.addingTimeInterval(60))
        XCTAssertEqual(try site.read(bucket), made)
        XCTAssertTrue(try site.read(try site.searchShard(of: "one.jpg")).contains("Renamed"))
    }

    func testASiteWithSomethingToSayStopsAtTheWalkAndSaysItAgain() async throws {
        // A skipped file is named on every build until it is fixed, from what the last build
        // kept: such a site's builds stop at the walk too.
        let site = try TestSite.threePhotos()
        try site.write(Data("not a photo".utf8), to: "content/notes.txt")
        let lines = Lines()
        let options = BuildOptions(themeFolder: TestSite.theme)
        let first = try await SiteBuild(paths: site.paths, options: options).run(log: lines.append)
        XCTAssertFalse(first.skipped.isEmpty)
        _ = lines.take()
        let again = try await SiteBuild(paths: site.paths, options: options).run(log: lines.append)
        XCTAssertEqual(lines.take(), ["[1/9] configure", "[2/9] walk content", "up to date"])
        XCTAssertEqual(again.skipped.map(\.path), first.skipped.map(\.path), "still said")
    }

    func testEveryStepReadsTheSiteThroughItsFileAccess() async throws {
        let site = try TestSite.threePhotos()
        try site.write(Data(#"{"title": "Seam"}"#.utf8), to: "folio.json")
        let files = RecordingFileAccess()
        let options = BuildOptions(themeFolder: TestSite.theme, files: files)
        try await SiteBuild(paths: site.paths, options: options).run()
        let read = Set(files.reads.map { site.paths.shown($0) })
        for path in ["folio.json", "content/FakeData.plist", "content/one.jpg", "content/loose/harbour-at-dawn.jpg"] {
            XCTAssertTrue(read.contains(path), "\(path) is read through the seam: \(read.sorted())")
        }
        XCTAssertTrue(read.contains { $0.hasSuffix("templates/layout.mustache") }, "the theme too")
        XCTAssertTrue(read.contains { $0.hasSuffix("assets/style.css") }, "and its assets")
        XCTAssertEqual(files.reads.filter { $0.pathExtension == "jpg" }.count, 6, "each photo read twice: at import and to decode it")

        files.reset()
        let again = try await SiteBuild(paths: site.paths, options: options).run()
        XCTAssertTrue(again.upToDate)
        XCTAssertEqual(files.reads.filter { $0.pathExtension == "jpg" }, [], "a no-op build reads no photo")
    }


    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        func take() -> [String] { lock.withLock { defer { lines = [] }; return lines } }
    }
}

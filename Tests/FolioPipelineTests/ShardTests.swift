@testable import FolioCore
@testable import FolioMedia
@testable import FolioModel
@testable import FolioNetwork
@testable import FolioPipeline
import FolioTestSupport
import Foundation
import XCTest

/// `folio build --shard`: shares, the rendition cache, and the final build that makes nothing a
/// shard made and writes the very `public/` one machine would.
final class ShardTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    // MARK: Naming a shard

    func testParsesKOfNAndRefusesWhatIsNoShard() throws {
        XCTAssertEqual(try Shard.parse("3/4", environment: [:]), try Shard(index: 3, count: 4))
        for bad in ["5/4", "0/0", "0/4", "text", "1/", "/4", "1/4/2", "-1/4", ""] {
            XCTAssertThrowsError(try Shard.parse(bad, environment: [:]), bad) { error in
                let reason = (error as? FolioError)?.reason ?? ""
                XCTAssertTrue(reason.contains("--shard"), "\(bad): \(reason)")
            }
        }
        XCTAssertEqual((try? Shard.parse("5/4", environment: [:])).map(\.index), nil)
    }

    func testAutoReadsEachEngineAndSaysWhichItUsed() throws {
        let slurm = try Shard.parse("auto", environment: ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"])
        XCTAssertEqual([slurm.index, slurm.count], [3, 4])
        XCTAssertTrue(slurm.origin.hasPrefix("Slurm (SLURM_ARRAY_TASK_ID=2"), slurm.origin)
        // An array numbered from 1: the first task is shard 1.
        let fromOne = try Shard.parse("auto", environment: ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"])
        XCTAssertEqual(fromOne.index, 1)
        let kubernetes = try Shard.parse("auto", environment: ["JOB_COMPLETION_INDEX": "0", "FOLIO_SHARD_COUNT": "8"])
        XCTAssertEqual([kubernetes.index, kubernetes.count], [1, 8])
        XCTAssertTrue(kubernetes.origin.hasPrefix("Kubernetes"), kubernetes.origin)
        let batch = try Shard.parse("auto", environment: ["AWS_BATCH_JOB_ARRAY_INDEX": "9", "AWS_BATCH_JOB_ARRAY_SIZE": "10"])
        XCTAssertEqual([batch.index, batch.count], [10, 10])
        XCTAssertTrue(batch.origin.hasPrefix("AWS Batch"), batch.origin)

        let refused: [([String: String], String)] = [
            ([:], "none of SLURM_ARRAY_TASK_ID"),
            (["SLURM_ARRAY_TASK_ID": "two", "SLURM_ARRAY_TASK_COUNT": "4"], "SLURM_ARRAY_TASK_ID is 'two'"),
            (["SLURM_ARRAY_TASK_ID": "1"], "SLURM_ARRAY_TASK_COUNT is not"),
            (["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4"], "does not exist"),
            (["JOB_COMPLETION_INDEX": "0"], "FOLIO_SHARD_COUNT"),
            (["AWS_BATCH_JOB_ARRAY_INDEX": "1", "AWS_BATCH_JOB_ARRAY_SIZE": "0"], "at least one shard"),
        ]
        for (environment, expected) in refused {
            XCTAssertThrowsError(try Shard.parse("auto", environment: environment)) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(environment): \(error)")
            }
        }
    }

    func testSharesAreBalancedByPixelsNotByCount() {
        // One huge photo and many small ones: by count, one shard would get the huge one and
        // half the rest.
        var random = SplitMix64(7)
        let costs = [48_000_000] + (0..<300).map { _ in Int(random.next() % 24_000_000) + 1_000_000 }
        for count in [2, 4, 8] {
            let owners = Shard.assign(costs: costs, count: count)
            var load = [Int](repeating: 0, count: count)
            for (cost, owner) in zip(costs, owners) { load[owner - 1] += cost }
            let mean = Double(load.reduce(0, +)) / Double(count)
            XCTAssertLessThan(Double(load.max()!) / mean, 1.02, "\(count) shards: \(load)")
            XCTAssertEqual(owners, Shard.assign(costs: costs, count: count), "every shard must split the same way")
        }
    }

    // MARK: Bundles

    func testABundleReadsBackWholeAndADamagedOneNotAtAll() throws {
        let bundle = RenditionBundle(media: [.init(path: "media/a-thumb.jpg", bytes: Data([1, 2, 3])), .init(path: "media/a.jpg", bytes: Data(count: 1000))],
                                     tilesFolder: "media/tiles/a", tiles: [.init(path: "0/0_0.jpg", bytes: Data([9]))],
                                     thumbnails: [.init(spec: "thumb", path: "media/a-thumb.jpg", width: 3, height: 1)], made: 3)
        let data = try bundle.encoded()
        XCTAssertEqual(RenditionBundle(decoding: data), bundle)
        XCTAssertNil(RenditionBundle(decoding: data.prefix(data.count - 1)), "truncated")
        var flipped = data
        flipped[flipped.count - 500] ^= 0xFF
        XCTAssertNil(RenditionBundle(decoding: flipped), "damaged")
        XCTAssertNil(RenditionBundle(decoding: Data("not a bundle".utf8)))
    }

    // MARK: Shards and the final build

    /// Six photos of several sizes (one big enough for tiles), all with upload dates so two
    /// builds of them agree to the byte, and one file that is no JPEG at all.
    func corpus() throws -> TestSite {
        let site = try TestSite()
        let sizes = [(2600, 1700), (1200, 800), (640, 960), (1800, 1200), (900, 900), (1500, 1000)]
        var records: [[String: Any]] = []
        for (number, size) in sizes.enumerated() {
            var photo = SamplePhoto(width: size.0, height: size.1, seed: UInt64(number + 1))
            photo.taken = Date(timeIntervalSince1970: 1_700_000_000 + Double(number) * 86_400)
            try site.write(try photo.jpeg(), to: "content/p\(number).jpg")
            records.append(["path": "p\(number).jpg", "name": "Photo \(number)", "user": number % 2 == 0 ? "Ana" : "Bo",
                            "uploaded": Date(timeIntervalSince1970: 1_750_000_000 + Double(number) * 3_600)])
        }
        // A JPEG cut short: its header imports, its pixels do not decode (in whichever shard has it).
        let whole = try SamplePhoto(width: 1000, height: 700, seed: 99).jpeg()
        try site.write(whole.prefix(whole.count / 3), to: "content/broken.jpg")
        records.append(["path": "broken.jpg", "name": "Broken", "user": "Ana", "uploaded": Date(timeIntervalSince1970: 1_750_000_000)])
        try site.catalog("FakeData.plist", records)
        return site
    }

    func options(_ cache: (any RenditionCache)? = nil) -> BuildOptions {
        BuildOptions(themeFolder: TestSite.theme, now: now, concurrency: 2, renditionCache: cache)
    }

    /// Every file of the output but the build's own state (`.folio-build`, `.folio-pages`: when
    /// and how it was built), by path.
    static func tree(_ folder: URL) throws -> [String: Data] { try TestSite.files(under: folder) }

    func assertSameSite(_ sharded: TestSite, _ alone: TestSite, file: StaticString = #filePath, line: UInt = #line) throws {
        let left = try Self.tree(sharded.publicFolder), right = try Self.tree(alone.publicFolder)
        XCTAssertEqual(Set(left.keys), Set(right.keys), "the same files", file: file, line: line)
        let different = left.keys.filter { left[$0] != right[$0] }.sorted()
        XCTAssertEqual(different, [], "byte for byte", file: file, line: line)
        XCTAssertGreaterThan(left.count, 20, file: file, line: line)
    }

    func testShardsThenAFinalBuildMakeOneMachinesSiteAndTheFinalBuildMakesNoRendition() async throws {
        let alone = try corpus()
        let aloneReport = try await SiteBuild(paths: alone.paths, options: options()).run()
        let sharded = try corpus()

        // Three shards at once, in the same site, as a job array's tasks would run.
        let paths = sharded.paths, options = options()
        let reports = try await withThrowingTaskGroup(of: ShardReport.self) { group in
            for index in 1...3 {
                group.addTask { try await ShardBuild(paths: paths, shard: Shard(index: index, count: 3), options: options).run() }
            }
            return try await group.reduce(into: []) { $0.append($1) }.sorted { $0.shard.index < $1.shard.index }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: paths.database.path), "shards never write the model")
        XCTAssertFalse(FileManager.default.fileExists(atPath: paths.output.path), "nor public/")
        XCTAssertEqual(reports.map(\.jobs), [7, 7, 7])
        XCTAssertEqual(reports.map(\.share).reduce(0, +), 7, "each job in exactly one share")
        XCTAssertEqual(reports.map(\.failed).reduce(0, +), 1, "broken.jpg")
        XCTAssertEqual(Set(reports.map(\.pixelsByShard)).count, 1, "every shard split the work the same way")
        XCTAssertEqual(reports.map(\.made).reduce(0, +), 6)

        let final = try await SiteBuild(paths: paths, options: options).run()
        XCTAssertEqual(final.renditionsMade, 0, "the final build makes nothing a shard made")
        XCTAssertEqual(final.renditionsFromCache, aloneReport.renditionsMade)
        XCTAssertEqual(final.failedPhotos, [.content(path: "broken.jpg")], "a shard's failure is the final build's")
        XCTAssertEqual(final.failedPhotos, aloneReport.failedPhotos)
        XCTAssertTrue(final.errors.contains { $0.path == "broken.jpg" || "\($0)".contains("broken.jpg") }, "\(final.issues)")
        try assertSameSite(sharded, alone)
        // The thumbnails are in the model: a rebuild makes nothing either.
        let database = try sharded.database
        XCTAssertEqual(try database.thumbnailKeys(specs: RenditionSet(SiteSettings()).thumbnailSpecs).count,
                       try alone.database.thumbnailKeys(specs: RenditionSet(SiteSettings()).thumbnailSpecs).count)
    }

    func testARerunMakesOnlyWhatIsMissingAndADamagedBundleIsMadeAgain() async throws {
        let site = try corpus()
        let cache = ShardBuild.defaultCache(site.paths)
        let first = try await ShardBuild(paths: site.paths, shard: Shard(index: 1, count: 1), options: options()).run()
        XCTAssertEqual([first.made, first.alreadyCached, first.failed], [6, 0, 1])

        var bundles = try FileManager.default.subpathsOfDirectory(atPath: cache.folder.path).filter { $0.hasSuffix(".bundle") }.sorted()
        XCTAssertEqual(bundles.count, 7)
        // A task killed mid-write leaves a scratch file; a file system without atomic renames, a short file.
        let short = cache.folder.appendingPathComponent(bundles.removeFirst())
        let data = try Data(contentsOf: short)
        try data.prefix(data.count / 2).write(to: short)
        try FileManager.default.removeItem(at: cache.folder.appendingPathComponent(bundles.removeFirst()))
        try Data("half".utf8).write(to: cache.folder.appendingPathComponent(".leftover.bundle.tmp-1-2"))

        let rerun = try await ShardBuild(paths: site.paths, shard: Shard(index: 1, count: 1), options: options()).run()
        XCTAssertEqual(rerun.made + rerun.failed, 2, "only the missing and the damaged")
        XCTAssertEqual(rerun.alreadyCached, 5)

        let final = try await SiteBuild(paths: site.paths, options: options()).run()
        XCTAssertEqual(final.renditionsMade, 0)
        let alone = try corpus()
        try await SiteBuild(paths: alone.paths, options: options()).run()
        try assertSameSite(site, alone)
    }

    func testAFinalBuildWithoutSomeSharesMakesTheRestItself() async throws {
        let site = try corpus()
        let report = try await ShardBuild(paths: site.paths, shard: Shard(index: 1, count: 2), options: options()).run()
        let final = try await SiteBuild(paths: site.paths, options: options()).run()
        XCTAssertGreaterThan(final.renditionsFromCache, 0)
        XCTAssertGreaterThan(final.renditionsMade, 0, "shard 2 never ran: \(report.summary)")
        let alone = try corpus()
        try await SiteBuild(paths: alone.paths, options: options()).run()
        try assertSameSite(site, alone)
    }

    /// Workers that share no folder: the cache is a bucket (moto on 127.0.0.1, every request signed).
    func testTheCacheCanBeAnS3Bucket() async throws {
        let moto = try await MotoServer.start()
        defer { moto.stop() }
        let bucket = try S3Bucket(name: "renditions", endpoint: moto.endpoint, region: "us-east-1", credentials: moto.credentials,
                                  retry: RetryPolicy(attempts: 2, sleep: { _ in }))
        _ = try await bucket.send(.put, "")
        let cache = S3RenditionCache(bucket: bucket, prefix: "/gallery/")
        XCTAssertEqual(cache.description, "s3://renditions/gallery/")

        let site = try corpus()
        for index in 1...2 {
            let report = try await ShardBuild(paths: site.paths, shard: Shard(index: index, count: 2), options: options(cache)).run()
            XCTAssertEqual(report.errors, [], report.summary)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.paths.cache.appendingPathComponent("renditions").path),
                       "nothing in the site's folder")
        let stored = try await bucket.list(prefix: "")
        XCTAssertEqual(stored.keys.filter { $0.hasPrefix("gallery/") }.count, 7, "\(stored.keys)")
        let final = try await SiteBuild(paths: site.paths, options: options(cache)).run()
        XCTAssertEqual(final.renditionsMade, 0)
        XCTAssertEqual(final.failedPhotos, [.content(path: "broken.jpg")])
        let kept = try await bucket.list(prefix: "")
        XCTAssertEqual(kept.keys.filter { $0.hasPrefix("gallery/") }.count, 6, "a failure is tried again by the next build, not taken for ever")
        let alone = try corpus()
        try await SiteBuild(paths: alone.paths, options: options()).run()
        try assertSameSite(site, alone)
    }
}

extension ShardReport {
    var errors: [BuildIssue] { issues.filter { $0.severity == .error } }
}

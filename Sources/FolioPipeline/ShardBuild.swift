import FolioCore
import Foundation
import GRDB

/// One shard of a cold build spread over a batch engine's job array: every task runs one, at
/// the same time, in the same site, then one final `folio build` makes no image a shard made
/// and writes `public/`. Its steps: configure, walk, load, import, plan, and this shard's share
/// of the images, into the rendition cache.
/// SQLite is not safe to write from many machines on a network file system: a shard imports
/// into a private copy of `folio.sqlite` in its machine's temporary folder, deleted when done,
/// and never writes `public/`.
public struct ShardBuild: Sendable {
    public let paths: SitePaths
    public let shard: Shard
    public let options: BuildOptions

    public static let steps = [ConfigureStep.name, WalkContentStep.name, LoadContentStep.name, ImportStep.name, PlanStep.name, ShardImagesStep.name]

    public init(paths: SitePaths, shard: Shard, options: BuildOptions = BuildOptions()) {
        self.paths = paths
        self.shard = shard
        self.options = options
    }

    /// The cache shards fill when the options name none: beside the model, on the shared file system.
    public static func defaultCache(_ paths: SitePaths) -> FolderRenditionCache {
        FolderRenditionCache(folder: paths.cache.appendingPathComponent("renditions"))
    }

    /// Makes this shard's share. A thrown error, or an error in the report, means the task
    /// should fail (and be run again: it makes only what is still missing).
    public func run(log: @escaping (String) -> Void = { _ in }) async throws -> ShardReport {
        let run = BuildRun(paths: paths, options: options)
        log("\(shard), from \(shard.origin)")
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("folio-shard-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).sqlite")
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: scratch.path + suffix) }
        }
        try Self.copyModel(from: paths.database, to: scratch)
        let cache = options.renditionCache ?? Self.defaultCache(paths)
        var steps = StepRunner(run: run, count: Self.steps.count, log: log)
        let site = try await steps.step(ConfigureStep(scratchModel: scratch), ())
        defer { site.catalogWrites.finish() }
        let walk = try await steps.step(WalkContentStep(), site)
        let content = try await steps.step(LoadContentStep(), (site, walk))
        let imported = try await steps.step(ImportStep(), (site, content))
        let plan = try await steps.step(PlanStep(), (site, imported, nil))
        var report = try await steps.step(ShardImagesStep(shard: shard, cache: cache), (site, plan)).report
        report.issues = steps.issues
        report.duration = Date().timeIntervalSince(run.startedAt)
        return report
    }

    /// The site's model as it is now, copied whole (SQLite's backup: consistent even if it is
    /// mid-write) without writing to it; nothing when the site has none yet.
    static func copyModel(from source: URL, to scratch: URL) throws {
        guard FileManager.default.fileExists(atPath: source.path) else { return }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let from = try DatabaseQueue(path: source.path, configuration: configuration)
            let to = try DatabaseQueue(path: scratch.path)
            try from.backup(to: to)
            try from.close()
            try to.close()
        } catch {
            throw FolioError(path: source.path, reason: "cannot read the model for this shard: \(error)")
        }
    }
}

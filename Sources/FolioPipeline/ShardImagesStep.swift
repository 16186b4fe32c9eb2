import FolioCore
import FolioImaging
import Foundation

/// What one shard did, for its summary line and for tests.
public struct ShardReport: Sendable {
    public var shard: Shard
    /// Jobs (photos' distinct bytes) the whole build needs made, and this shard's share of them.
    public var jobs = 0
    public var share = 0
    /// Of its share: made now, found already in the cache (a rerun), and failed (the final
    /// build reports those).
    public var made = 0
    public var alreadyCached = 0
    public var failed = 0
    /// Jobs made but not kept: the cache could not take them. The task should fail, and run again.
    public var unstored = 0
    /// Pixels to decode per shard, by shard number - 1: what the shares are balanced by.
    public var pixelsByShard: [Int] = []
    public var issues: [BuildIssue] = []
    public var duration: TimeInterval = 0
    public var cache = ""

    /// The busiest shard's pixels over the mean: 1.0 is a perfect balance.
    public var balance: Double {
        let total = pixelsByShard.reduce(0, +)
        guard total > 0, let busiest = pixelsByShard.max() else { return 1 }
        return Double(busiest) / (Double(total) / Double(pixelsByShard.count))
    }

    public var summary: String {
        let pixels = pixelsByShard.isEmpty ? 0 : pixelsByShard[shard.index - 1]
        var line = "\(shard): \(share) of \(jobs) photos' images (\(Self.megapixels(pixels)) of \(Self.megapixels(pixelsByShard.reduce(0, +))); "
        line += "busiest shard \(String(format: "%.1f", (balance - 1) * 100))% over the mean): "
        line += "\(made) made, \(alreadyCached) already in the cache, \(failed) failed"
        if unstored > 0 { line += ", \(unstored) not kept" }
        line += ", into \(cache)"
        return line + String(format: " in %.1fs", duration)
    }

    static func megapixels(_ pixels: Int) -> String { String(format: "%.1f MP", Double(pixels) / 1_000_000) }
}

/// A shard's images step: of the jobs the plan found, makes its own share (as every shard
/// splits them the same way) into the rendition cache, each job one bundle. A job whose bundle
/// is already there (a rerun after a crash) is not made again. Writes neither the model nor
/// `public/`.
struct ShardImagesStep: BuildStep {
    static let name = "images"
    static let activity = "writing renditions"
    let shard: Shard
    let cache: any RenditionCache

    struct Output: StepOutput {
        var report: ShardReport
        var issues: [BuildIssue] { report.issues }
    }

    /// Every shard's jobs, by shard number - 1, from the same plan in every shard: ordered by
    /// checksum first, so the split depends on nothing but the work.
    static func split(_ jobs: [ImageJob], count: Int) -> [[ImageJob]] {
        let ordered = jobs.sorted { $0.checksum < $1.checksum }
        let owners = Shard.assign(costs: ordered.map(\.pixels), count: count)
        var shares = [[ImageJob]](repeating: [], count: count)
        for (job, owner) in zip(ordered, owners) { shares[owner - 1].append(job) }
        return shares
    }

    func run(_ input: (site: ConfiguredSite, plan: BuildPlan), in run: BuildRun) async throws -> Output {
        let (site, plan) = input
        // Every job, whole: a shard orders them all by checksum to find its share.
        let shares = Self.split(plan.jobs.compactMap(plan.job), count: shard.count)
        var report = ShardReport(shard: shard)
        report.cache = cache.description
        report.jobs = plan.jobs.count
        report.pixelsByShard = shares.map { $0.reduce(0) { $0 + $1.pixels } }
        let mine = shares[shard.index - 1]
        report.share = mine.count

        let sources = ImagesStep.Sources(files: run.files, disk: run.disk, web: run.options.web, retry: run.options.retry)
        let budget = MemoryBudget(bytes: site.settings.memoryLimit << 20)
        let progress = run.progress("images", total: mine.count)
        let counted = ImagesStep.Counted()
        let cache = self.cache, renditions = site.renditions, processor = site.processor
        let specs = Set(site.renditions.thumbnailSpecs)
        enum Outcome: Sendable { case made, cached, failed(String), unstored(String) }
        func work(_ jobs: [ImageJob], width: Int) async -> [Outcome] {
            await boundedMap(jobs, width: width, onEach: { _ in progress.update(counted.increment()) }) { job -> Outcome in
                let key = job.cacheKey
                if await cache.bundle(key) != nil { return .cached }
                let sink = BundleSink()
                let context = ImagesStep.Context(processor: processor, output: sink, sources: sources, renditions: renditions,
                                                 thumbnailSpecs: specs, budget: budget)
                var made: ImagesStep.Made
                do {
                    made = try await ImagesStep.make(job, context)
                } catch let error as ImagingError {
                    made = ImagesStep.Made(failure: error.reason)
                } catch {
                    made = ImagesStep.Made(failure: "\(error)")
                }
                do {
                    try await cache.put(key, sink.finished(made, job: job, renditions: renditions).encoded())
                } catch {
                    return .unstored("\(error)")
                }
                return made.failure.map { .failed($0) } ?? .made
            }
        }
        // Largest first, so the last job to finish is a small one; downloads wait on the
        // network, not the cores.
        let local = mine.filter { !$0.isDownload }.sorted { $0.pixels > $1.pixels }
        let downloads = mine.filter(\.isDownload)
        async let fetched = work(downloads, width: ImagesStep.downloadsInFlight)
        let outcomes = await work(local, width: run.concurrency) + fetched
        for (job, outcome) in zip(local + downloads, outcomes) {
            switch outcome {
            case .made: report.made += 1
            case .cached: report.alreadyCached += 1
            case .failed(let reason):
                report.failed += 1
                report.issues.append(.warning(job.photos[0].source.description, "\(reason) (the final build reports it)"))
            case .unstored(let reason):
                report.unstored += 1
                report.issues.append(.error(job.photos[0].source.description, "cannot keep what was made in the rendition cache: \(reason)"))
            }
        }
        return Output(report: report)
    }
}

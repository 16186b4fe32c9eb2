import FolioCore
import FolioImaging
import FolioMedia
import FolioModel
import FolioNetwork
import FolioVideo
import Foundation

/// What the images step made, and which photos it could not make anything of.
struct MadeImages: StepOutput {
    var made = 0
    /// Renditions shards made, taken from the rendition cache instead.
    var fromCache = 0
    /// Photos this build leaves out: their file would not decode, or shares its bytes with one
    /// that would not. The model keeps them.
    var failed = Set<Int64>()
    var issues: [BuildIssue] = []
}

/// Makes the renditions and tiles the plan asked for, on every core, one decode per photo.
/// Thumbnails go to the model (so they are never made again) and to `public/media/`; the rest
/// only to `public/media/`.
struct ImagesStep: BuildStep {
    static let name = "images"
    static let activity = "writing renditions"

    /// One job's outcome.
    struct Made: Sendable {
        var thumbnails: [Thumbnail] = []
        var count = 0
        var fromCache = 0
        var failure: String?
    }

    func run(_ input: (site: ConfiguredSite, plan: BuildPlan), in run: BuildRun) async throws -> MadeImages {
        let (site, plan) = input
        try restoreThumbnails(plan.restores, site: site)
        // Largest first: the last job to finish is then a small one, and no core waits long
        // for the other at the end. Downloads wait on the network, not the cores: more of them
        // at once. The jobs by their numbers in the plan, each made from its planned photos
        // when its turn comes, so a cold build never holds every job whole.
        let jobs = plan.jobs
        let local = jobs.indices.filter { !jobs[$0].isDownload }.sorted {
            (jobs[$0].hasTiles ? 1 : 0, jobs[$0].pixels) > (jobs[$1].hasTiles ? 1 : 0, jobs[$1].pixels)
        }
        let downloads = jobs.indices.filter { jobs[$0].isDownload }
        guard !local.isEmpty || !downloads.isEmpty else { return MadeImages() }
        let sources = Sources(files: run.files, disk: run.disk, web: run.options.web, retry: run.options.retry)
        let videoSeconds = local.reduce(0) { $0 + Int(jobs[$1].videoSeconds) }
        let context = Context(processor: site.processor, output: site.output, sources: sources,
                              renditions: site.renditions, thumbnailSpecs: Set(site.renditions.thumbnailSpecs),
                              budget: MemoryBudget(bytes: site.settings.memoryLimit << 20),
                              videos: VideoProgress(run.progress("video seconds", total: videoSeconds)),
                              videoThreads: max(1, min(run.concurrency, 4)))
        let progress = run.progress("images", total: local.count + downloads.count)
        let counted = Counted()
        let cache = run.renditionCache
        let store = ThumbnailStore(database: site.database)
        // Added up as jobs finish, not an outcome kept for each.
        let outcomes = Outcomes()
        func work(_ numbers: [Int], width: Int) async {
            _ = await boundedMap(numbers, width: width, onEach: { _ in progress.update(counted.increment()) }) { number in
                // The disk failed under an earlier job: the build stops, nothing more is made.
                guard !outcomes.isStopped, let job = plan.job(jobs[number]) else { return }
                do {
                    var made: Made
                    if let cache, let taken = try await Self.take(job, from: cache, context) {
                        made = taken
                    } else {
                        made = try await Self.make(job, context)
                    }
                    store.add(made.thumbnails, for: job.photos.map(\.id))
                    outcomes.add(made, of: number)
                } catch let failure as DiskFailure {
                    outcomes.stop(failure)
                } catch let error as ImagingError {
                    outcomes.add(Made(failure: error.reason), of: number)
                } catch {
                    outcomes.add(Made(failure: "\(error)"), of: number)
                }
            }
        }
        async let fetched: Void = work(downloads, width: Self.downloadsInFlight)
        await work(local, width: run.concurrency)
        await fetched
        if let failure = outcomes.stopped { throw failure }
        let order = local + downloads

        var result = MadeImages()
        result.made = outcomes.made
        result.fromCache = outcomes.fromCache
        let failed = outcomes.failures
        var failures: [PhotoSource: String] = [:]
        for number in order {
            guard let reason = failed[number] else { continue }
            // Every photo with these bytes stays out, each reported: a twin left on the
            // pages would point at media that were never made.
            let photos = plan.photos(of: jobs[number]).map { at in
                (id: plan.snapshot.photos[at].id, source: plan.snapshot.photos[at].photo.source)
            }
            let first = photos[0].source
            for (id, source) in photos {
                let said = source == first ? reason : "has the same bytes as \(first), which failed: \(reason)"
                result.issues.append(.error(source.description, said))
                result.failed.insert(id)
                failures[source] = said
            }
        }
        try store.finish()
        // Only the photos made for can have thumbnails gone stale, unless the plan looked at all.
        let madeFor = order.flatMap { plan.ids(jobs[$0]) }
        try site.database.forgetThumbnails(keepingSpecs: site.renditions.thumbnailSpecs, of: plan.moved == nil ? nil : madeFor)
        try site.database.recordFailures(failures, published: madeFor.filter { !result.failed.contains($0) })
        return result
    }

    /// The jobs' outcomes, added up as they finish.
    final class Outcomes: @unchecked Sendable {
        private let lock = NSLock()
        private var counts = (made: 0, fromCache: 0)
        private var failed: [Int: String] = [:]
        private var failure: DiskFailure?

        /// Job `number`'s outcome.
        func add(_ outcome: Made, of number: Int) {
            lock.withLock {
                counts.made += outcome.count
                counts.fromCache += outcome.fromCache
                if let failure = outcome.failure { failed[number] = failure }
            }
        }

        /// The first failure of the disk: no photo's fault, it stops the step.
        func stop(_ failure: DiskFailure) {
            lock.withLock { self.failure = self.failure ?? failure }
        }

        var stopped: DiskFailure? { lock.withLock { failure } }
        var isStopped: Bool { stopped != nil }

        var made: Int { lock.withLock { counts.made } }
        var fromCache: Int { lock.withLock { counts.fromCache } }
        /// Why jobs failed, by number.
        var failures: [Int: String] { lock.withLock { failed } }
    }

    /// Writes the thumbnails the model holds but `public/media/` lacks.
    func restoreThumbnails(_ restores: [ThumbnailRestore], site: ConfiguredSite) throws {
        guard !restores.isEmpty else { return }
        let files = Dictionary(restores.map { ($0.key, $0.file) }, uniquingKeysWith: { first, _ in first })
        for chunk in restores.map(\.key).chunked(500) {
            for thumbnail in try site.database.thumbnails(Array(chunk)) {
                if let file = files[ThumbnailKey(photoId: thumbnail.photoId, spec: thumbnail.spec)] {
                    try site.output.writeMedia(thumbnail.bytes, to: file)
                }
            }
        }
    }

    /// Downloads in flight at once.
    static let downloadsInFlight = 6

    /// What a job needs besides itself.
    struct Context: Sendable {
        var processor: ImageProcessor
        var output: any MediaSink
        var sources: Sources
        var renditions: RenditionSet
        var thumbnailSpecs: Set<String>
        var budget: MemoryBudget
        /// Seconds of video made into web videos so far, for the terminal.
        var videos: VideoProgress? = nil
        /// The threads each video's decoder uses (its encoder's are fixed: see RenditionWriter).
        var videoThreads = 2
    }

    /// Where a job's bytes come from: the site's files, or the web.
    struct Sources: Sendable {
        var files: any FileAccess
        var disk: any Disk
        var web: any WebClient
        var retry: RetryPolicy

        /// The bytes of the job's image, and what they are.
        func load(_ origin: ImageJob.Origin, processor: ImageProcessor) async throws -> (Data, ImageMetadata) {
            switch origin {
            case .file(let path, let metadata):
                return (try files.read(URL(fileURLWithPath: path)), metadata)
            case .video(let path):
                // The poster frame, upright, as a JPEG of almost no loss: the renditions are made
                // from it as from any photo.
                let poster = try VideoFile(url: URL(fileURLWithPath: path), pixelLimit: processor.pixelLimit).poster()
                let data = try processor.encode(poster, as: .jpeg, quality: 95)
                return (data, ImageMetadata(format: .jpeg, width: poster.width, height: poster.height))
            case .download(let url, let cache):
                if let cache, files.stamp(of: cache) != nil {
                    let data = try files.read(cache)
                    return (data, try processor.metadata(of: data))
                }
                let request = WebRequest(.get, url, timeout: 60, maximumResponseSize: 50 << 20)
                let response = try await retry.run({ _ in
                    let response = try await web.send(request)
                    guard response.status == 200 else {
                        throw DownloadError(url: request.shownURL, status: response.status, retryAfter: response.retryAfter())
                    }
                    return response
                }, decide: { error in
                    if let error = error as? DownloadError { return error.status == 429 || error.status >= 500 ? .retry(after: error.retryAfter) : .fail }
                    if let error = error as? WebError { return error.isTransient || error.kind == .hostNotFound ? .retry(after: nil) : .fail }
                    return .fail
                })
                let metadata = try processor.metadata(of: response.body)
                if let cache {
                    try disk.makeFolders(cache.deletingLastPathComponent().path)
                    try disk.writeFile(response.body, to: cache.path, atomically: true)
                }
                return (response.body, metadata)
            }
        }
    }

    struct DownloadError: Error, CustomStringConvertible {
        var url: String
        var status: Int
        var retryAfter: TimeInterval?
        var description: String { "cannot download \(url): HTTP \(status)" }
    }

    /// Seconds of video made, across the videos made at once.
    final class VideoProgress: @unchecked Sendable {
        private let line: ProgressLine
        private let lock = NSLock()
        private var done = 0

        init(_ line: ProgressLine) { self.line = line }

        /// A video's share of the line: its whole seconds, at least one.
        static func seconds(_ duration: Double) -> Int { max(1, Int(duration.rounded(.up))) }

        func add(_ seconds: Int) {
            guard seconds > 0 else { return }
            line.update(lock.withLock { done += seconds; return done })
        }
    }

    /// The thumbnails made, stored in the model a batch at a time as jobs finish, so a cold build
    /// never holds them all. A thumbnail stored before the build fails later is no harm: it is the
    /// photo's, made from the bytes its checksum names, and a later build would make the same.
    final class ThumbnailStore: @unchecked Sendable {
        private let database: GalleryDatabase
        /// Guards what waits; a batch is taken out under it and stored under `writing`, so
        /// the other cores go on adding while one stores.
        private let lock = NSLock()
        private let writing = NSLock()
        private var pending: [Thumbnail] = []
        private var bytes = 0
        private var failure: (any Error)?

        /// Stored once this many bytes wait: a few hundred small photos' thumbnails.
        static let batchBytes = 4 << 20

        init(database: GalleryDatabase) { self.database = database }

        /// A job's thumbnails, for every photo with its bytes (`photos`, by id).
        func add(_ thumbnails: [Thumbnail], for photos: [Int64]) {
            guard !thumbnails.isEmpty else { return }
            let batch: [Thumbnail]? = lock.withLock {
                for thumbnail in thumbnails {
                    for id in photos {
                        var copy = thumbnail
                        copy.photoId = id
                        pending.append(copy)
                        bytes += thumbnail.bytes.count
                    }
                }
                return bytes >= Self.batchBytes ? take() : nil
            }
            if let batch { store(batch) }
        }

        /// Stores what waits; throws the first failure to store any batch.
        func finish() throws {
            store(lock.withLock { take() })
            try writing.withLock {
                if let failure { throw failure }
            }
        }

        /// Called with `lock` held.
        private func take() -> [Thumbnail] {
            defer { pending = []; bytes = 0 }
            return pending
        }

        /// One writer at a time; after a failure, nothing more.
        private func store(_ batch: [Thumbnail]) {
            writing.withLock {
                guard failure == nil else { return }
                do {
                    try database.store(batch)
                } catch {
                    failure = error
                }
            }
        }
    }

    /// Counts finished jobs from both pools.
    final class Counted: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() -> Int { lock.withLock { count += 1; return count } }
    }

    static func make(_ job: ImageJob, _ context: Context) async throws -> Made {
        var made = job.requests.isEmpty && job.tiles == nil && job.animation == nil ? Made() : try await makeStills(job, context)
        // After the stills, whose memory is given back by then: a job never holds both shares.
        if let video = job.video {
            try await makeVideo(video, context)
            made.count += 1
        }
        return made
    }

    static func makeStills(_ job: ImageJob, _ context: Context) async throws -> Made {
        let processor = context.processor, output = context.output, thumbnailSpecs = context.thumbnailSpecs
        let (data, metadata) = try await context.sources.load(job.origin, processor: processor)
        let set = context.renditions
        let cost = processor.memoryCost(metadata: metadata, requests: job.requests, tiles: job.tiles?.request)
        guard context.budget.affords(cost) else {
            throw ImagingError(reason: "needs about \(cost >> 20) MB to decode, more than memoryLimit (\(context.budget.capacity >> 20) MB) allows")
        }
        await context.budget.acquire(cost)
        defer { Task { await context.budget.release(cost) } }
        var made = Made()
        var renditions: [Rendition] = []
        if case let (tiles, folder)? = job.tiles {
            try output.writeTiles(to: folder) { write in
                renditions = try processor.renditions(of: data, metadata: metadata, requests: job.requests, tiles: tiles) { tile in
                    try write("\(tile.path).\(tiles.format.fileExtension)", tile.bytes)
                }
            }
            made.count += 1
        } else {
            renditions = try processor.renditions(of: data, metadata: metadata, requests: job.requests)
        }
        for rendition in renditions {
            try output.writeMedia(rendition.bytes, to: set.fileName(rendition.request, checksum: job.checksum, colour: job.colour))
            let spec = set.spec(rendition.request, colour: job.colour)
            if thumbnailSpecs.contains(spec) {
                made.thumbnails.append(Thumbnail(photoId: job.photos[0].id, spec: spec, checksum: job.checksum,
                                                 width: rendition.width, height: rendition.height, bytes: rendition.bytes))
            }
        }
        made.count += renditions.count
        if let path = job.animation, let animation = try processor.animation(of: data, metadata: metadata) {
            try output.writeMedia(animation, to: path)
            made.count += 1
        }
        return made
    }

    /// The web video of a video or Live Photo clip: FFmpeg's work, the slowest Folio does. It
    /// holds its share of the memory budget (a decoder's and an encoder's frames) while it runs.
    static func makeVideo(_ video: (source: URL, file: String, duration: Double), _ context: Context) async throws {
        let file = try VideoFile(url: video.source, pixelLimit: context.processor.pixelLimit)
        let cost = min(context.budget.capacity, file.metadata.width * file.metadata.height * 4 * 40)
        await context.budget.acquire(cost)
        defer { Task { await context.budget.release(cost) } }
        var reported = 0
        try context.output.writeMedia(to: video.file) { url in
            try file.writeRendition(to: url, maxHeight: context.renditions.videoMaxHeight, threads: context.videoThreads) { share in
                let seconds = Int(share * Double(VideoProgress.seconds(video.duration)))
                context.videos?.add(seconds - reported)
                reported = seconds
            }
        }
    }
}

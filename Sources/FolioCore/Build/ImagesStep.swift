import Foundation

/// What the images step made, and which photos it could not make anything of.
struct MadeImages: StepOutput {
    var made = 0
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

    /// One job's outcome.
    struct Made: Sendable {
        var thumbnails: [Thumbnail] = []
        var count = 0
        var failure: String?
    }

    func run(_ input: (site: ConfiguredSite, plan: BuildPlan), in run: BuildRun) async throws -> MadeImages {
        let (site, plan) = input
        try restoreThumbnails(plan.restores, site: site)
        // Largest first: the last job to finish is then a small one, and no core waits long
        // for the other at the end.
        let jobs = plan.jobs.sorted { ($0.tiles == nil ? 0 : 1, $0.pixels) > ($1.tiles == nil ? 0 : 1, $1.pixels) }
        guard !jobs.isEmpty else { return MadeImages() }
        let processor = site.processor
        let output = site.output
        let files = run.files
        let thumbnailSpecs = Set(site.renditions.thumbnailSpecs)
        let progress = run.progress("images", total: jobs.count)

        let made = await boundedMap(jobs, width: run.concurrency, onEach: { progress.update($0) }) { job -> Made in
            do {
                return try Self.make(job, processor: processor, output: output, files: files, thumbnailSpecs: thumbnailSpecs)
            } catch let error as ImagingError {
                return Made(failure: error.reason)
            } catch {
                return Made(failure: "\(error)")
            }
        }

        var result = MadeImages()
        var thumbnails: [Thumbnail] = []
        var failures: [PhotoSource: String] = [:]
        var published: [PhotoSource] = []
        for (job, outcome) in zip(jobs, made) {
            result.made += outcome.count
            if let reason = outcome.failure {
                // Every photo with these bytes stays out, each reported: a twin left on the
                // pages would point at media that were never made.
                let first = job.photos[0].source
                for (id, source) in job.photos {
                    let said = source == first ? reason : "has the same bytes as \(first), which failed: \(reason)"
                    result.issues.append(.error(source.description, said))
                    result.failed.insert(id)
                    failures[source] = said
                }
                continue
            }
            published += job.photos.map(\.source)
            // The job made them for every photo with these bytes.
            for thumbnail in outcome.thumbnails {
                for (id, _) in job.photos {
                    var copy = thumbnail
                    copy.photoId = id
                    thumbnails.append(copy)
                }
            }
        }
        try site.database.replaceThumbnails(thumbnails, keepingSpecs: site.renditions.thumbnailSpecs)
        try site.database.recordFailures(failures, published: published)
        return result
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

    static func make(_ job: ImageJob, processor: ImageProcessor, output: PublicOutput, files: any FileAccess,
                     thumbnailSpecs: Set<String>) throws -> Made {
        let data = try files.read(job.file)
        var made = Made()
        var renditions: [Rendition] = []
        if case let (tiles, folder)? = job.tiles {
            try output.writeTiles(to: folder) { write in
                renditions = try processor.renditions(of: data, metadata: job.metadata, requests: job.requests, tiles: tiles) { tile in
                    try write("\(tile.path).\(tiles.format.fileExtension)", tile.bytes)
                }
            }
            made.count += 1
        } else {
            renditions = try processor.renditions(of: data, metadata: job.metadata, requests: job.requests)
        }
        for rendition in renditions {
            try output.writeMedia(rendition.bytes, to: RenditionSet.fileName(rendition.request, checksum: job.checksum))
            let spec = RenditionSet.spec(rendition.request)
            if thumbnailSpecs.contains(spec) {
                made.thumbnails.append(Thumbnail(photoId: job.photos[0].id, spec: spec, checksum: job.checksum,
                                                 width: rendition.width, height: rendition.height, bytes: rendition.bytes))
            }
        }
        made.count += renditions.count
        return made
    }
}

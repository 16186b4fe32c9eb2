import Foundation

/// Makes the renditions and tiles the plan asked for, on every core, one decode per photo.
/// Thumbnails go to the model (so they are never made again) and to `public/media/`; the rest
/// only to `public/media/`.
struct ImagesStep: BuildStep {
    let name = "images"

    struct Made: Sendable {
        var thumbnails: [Thumbnail] = []
        var count = 0
        var issue: BuildIssue?
    }

    func run(_ context: BuildContext) async throws {
        // Largest first: the last job to finish is then a small one, and no core waits long
        // for the other at the end.
        let jobs = context.imageWork.sorted { ($0.tiles == nil ? 0 : 1, $0.pixels) > ($1.tiles == nil ? 0 : 1, $1.pixels) }
        guard !jobs.isEmpty else { return }
        let processor = context.processor
        let output = context.output!
        let root = context.paths.root
        let thumbnailSpecs = Set(context.renditions.thumbnailSpecs)
        let progress = ProgressLine("images", total: jobs.count, enabled: context.options.progress)

        let made = await boundedMap(jobs, width: context.concurrency, onEach: { progress.update($0) }) { job -> Made in
            do {
                return try Self.make(job, processor: processor, output: output, thumbnailSpecs: thumbnailSpecs)
            } catch let error as ImagingError {
                return Made(issue: .error(SitePaths(root: root).shown(job.source), error.reason))
            } catch {
                return Made(issue: .error(SitePaths(root: root).shown(job.source), "\(error)"))
            }
        }

        var thumbnails: [Thumbnail] = []
        var failedSources: [String] = []
        let sources = Dictionary(uniqueKeysWithValues: context.snapshot.photos.map { ($0.photo.id!, $0.photo.source) })
        let sameBytes = Dictionary(grouping: context.snapshot.photos.map(\.photo), by: \.checksum).mapValues { $0.map(\.id!) }
        for (job, result) in zip(jobs, made) {
            if let issue = result.issue {
                context.issues.append(issue)
                context.images[job.photoId] = nil
                failedSources.append(sources[job.photoId]!)
            }
            // The job made them for every photo with these bytes.
            for thumbnail in result.thumbnails {
                for id in sameBytes[job.checksum] ?? [job.photoId] {
                    var copy = thumbnail
                    copy.photoId = id
                    thumbnails.append(copy)
                }
            }
            context.report.renditionsMade += result.count
        }
        try context.database.replaceThumbnails(thumbnails, keepingSpecs: context.renditions.thumbnailSpecs)
        if !failedSources.isEmpty {
            // The photo cannot be drawn: out of the model and the site, tried again next build.
            try context.database.apply(ImportBatch(removals: failedSources))
            context.snapshot = try context.database.snapshot()
        }
    }

    static func make(_ job: ImageJob, processor: ImageProcessor, output: PublicOutput, thumbnailSpecs: Set<String>) throws -> Made {
        let data = try LocalFileAccess().read(job.source)
        let metadata = try processor.metadata(of: data)
        var made = Made()
        var renditions: [Rendition] = []
        if let tiles = job.tiles, let folder = job.tilesFolder {
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
            try output.writeMedia(rendition.bytes, to: RenditionSet.fileName(rendition.request, checksum: job.checksum))
            let spec = RenditionSet.spec(rendition.request)
            if thumbnailSpecs.contains(spec) {
                made.thumbnails.append(Thumbnail(photoId: job.photoId, spec: spec, checksum: job.checksum,
                                                 width: rendition.width, height: rendition.height, bytes: rendition.bytes))
            }
        }
        made.count += renditions.count
        return made
    }
}

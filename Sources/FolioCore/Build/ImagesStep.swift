import Foundation

/// Makes the renditions the plan asked for, on every core, one decode per photo. Thumbnails go
/// to the model (so they are never made again) and to the output; screen renditions to the output.
struct ImagesStep: BuildStep {
    let name = "images"

    struct Made: Sendable {
        var renditions: [Rendition] = []
        var issue: BuildIssue?
    }

    func run(_ context: BuildContext) async throws {
        let jobs = context.imageWork
        guard !jobs.isEmpty else { return }
        let processor = context.processor
        let output = context.output!
        let root = context.paths.root
        let progress = ProgressLine("images", total: jobs.count, enabled: context.options.progress)

        let made = await boundedMap(jobs, width: context.concurrency, onEach: { progress.update($0) }) { job -> Made in
            let shown = SitePaths(root: root).shown(job.source)
            do {
                let data = try LocalFileAccess().read(job.source)
                let metadata = try processor.metadata(of: data)
                let renditions = try processor.renditions(of: data, metadata: metadata, requests: job.requests)
                for rendition in renditions {
                    try output.write(rendition.bytes, to: RenditionSet.fileName(rendition.request, checksum: job.checksum))
                }
                return Made(renditions: renditions)
            } catch let error as ImagingError {
                return Made(issue: .error(shown, error.reason))
            } catch {
                return Made(issue: .error(shown, "\(error)"))
            }
        }

        var thumbnails: [Thumbnail] = []
        var failedSources: [String] = []
        let sources = Dictionary(uniqueKeysWithValues: context.snapshot.photos.map { ($0.photo.id!, $0.photo.source) })
        for (job, result) in zip(jobs, made) {
            if let issue = result.issue {
                context.issues.append(issue)
                context.images[job.photoId] = nil
                failedSources.append(sources[job.photoId]!)
                continue
            }
            for rendition in result.renditions {
                let ref = ImageRef(src: RenditionSet.fileName(rendition.request, checksum: job.checksum),
                                   width: rendition.width, height: rendition.height)
                if rendition.request == context.renditions.thumbnail {
                    context.images[job.photoId, default: PhotoImages()].thumb = ref
                    thumbnails.append(Thumbnail(photoId: job.photoId, spec: RenditionSet.spec(rendition.request),
                                                checksum: job.checksum, width: rendition.width, height: rendition.height,
                                                bytes: rendition.bytes))
                } else {
                    context.images[job.photoId, default: PhotoImages()].screen = ref
                }
                context.report.renditionsMade += 1
            }
        }
        try context.database.replaceThumbnails(thumbnails, keepingSpecs: [RenditionSet.spec(context.renditions.thumbnail)])
        if !failedSources.isEmpty {
            // The photo cannot be drawn: out of the model and the site, tried again next build.
            try context.database.apply(ImportBatch(removals: failedSources))
            context.snapshot = try context.database.snapshot()
        }
    }
}

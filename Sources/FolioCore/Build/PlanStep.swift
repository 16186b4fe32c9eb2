import Foundation

/// Decides what images must be made: a photo whose thumbnail is in the model and whose screen
/// rendition the previous build published needs no decoding at all; those outputs are taken over.
struct PlanStep: BuildStep {
    let name = "plan"

    func run(_ context: BuildContext) async throws {
        let database = context.database!
        context.snapshot = try database.snapshot()
        let set = context.renditions
        let thumbSpec = RenditionSet.spec(set.thumbnail)
        let stored = try database.thumbnails(specs: [thumbSpec])
        let output = context.output!

        var jobs: [ImageJob] = []
        var images: [Int64: PhotoImages] = [:]
        for item in context.snapshot.photos {
            let photo = item.photo
            let id = photo.id!
            var entry = PhotoImages()
            var missing: [RenditionRequest] = []

            let thumbFile = RenditionSet.fileName(set.thumbnail, checksum: photo.checksum)
            if let thumb = stored[ThumbnailKey(photoId: id, spec: thumbSpec)] {
                if !output.reuse(thumbFile) { try output.write(thumb.bytes, to: thumbFile) }
                entry.thumb = ImageRef(src: thumbFile, width: thumb.width, height: thumb.height)
                context.report.renditionsReused += 1
            } else {
                missing.append(set.thumbnail)
            }

            let screenFile = RenditionSet.fileName(set.screen, checksum: photo.checksum)
            if output.reuse(screenFile) {
                let size = RenditionSet.outputSize(set.screen, width: photo.width, height: photo.height)
                entry.screen = ImageRef(src: screenFile, width: size.width, height: size.height)
                context.report.renditionsReused += 1
            } else {
                missing.append(set.screen)
            }

            images[id] = entry
            if !missing.isEmpty, let url = sourceURL(photo, context) {
                jobs.append(ImageJob(photoId: id, source: url, checksum: photo.checksum, requests: missing))
            }
        }
        context.images = images
        context.imageWork = jobs
    }

    func sourceURL(_ photo: Photo, _ context: BuildContext) -> URL? {
        guard photo.source.hasPrefix("content:") else { return nil }
        return context.paths.content.appendingPathComponent(String(photo.source.dropFirst("content:".count)))
    }
}

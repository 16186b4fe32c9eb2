import Foundation

/// Decides what images must be made. A photo whose thumbnails are in the model and whose other
/// renditions are already published needs no decoding at all.
struct PlanStep: BuildStep {
    let name = "plan"

    func run(_ context: BuildContext) async throws {
        let database = context.database!
        if try isUpToDate(context) {
            context.upToDate = true
            return
        }
        context.snapshot = try database.snapshot()
        let set = context.renditions
        let stored = try database.thumbnails(specs: set.thumbnailSpecs)
        let output = context.output!

        var jobs: [ImageJob] = []
        var images: [Int64: PhotoImages] = [:]
        // Photos with the same bytes share their media: one job makes them for all.
        var planned = Set<String>()
        for item in context.snapshot.photos {
            let photo = item.photo
            let id = photo.id!
            var missing: [RenditionRequest] = []
            let thumbnails = RenditionSet.distinct(set.thumbnails, width: photo.width, height: photo.height)
            let screens = RenditionSet.distinct(set.screens, width: photo.width, height: photo.height)
            for request in set.withFallbacks(thumbnails) {
                let file = RenditionSet.fileName(request, checksum: photo.checksum)
                if let thumbnail = stored[ThumbnailKey(photoId: id, spec: RenditionSet.spec(request))] {
                    if !output.hasMedia(file) { try output.writeMedia(thumbnail.bytes, to: file) }
                    context.report.renditionsReused += 1
                } else {
                    missing.append(request)
                }
            }
            for request in set.withFallbacks(screens) {
                if output.hasMedia(RenditionSet.fileName(request, checksum: photo.checksum)) {
                    context.report.renditionsReused += 1
                } else {
                    missing.append(request)
                }
            }
            let zoom = set.zoom(checksum: photo.checksum, width: photo.width, height: photo.height)
            let tilesMissing = zoom.map { !output.hasMedia($0.tilesBase) } ?? false

            images[id] = PhotoImages(
                thumb: set.imageRef(thumbnails, checksum: photo.checksum, width: photo.width, height: photo.height),
                screen: set.imageRef(screens, checksum: photo.checksum, width: photo.width, height: photo.height),
                zoom: zoom)
            if !missing.isEmpty || tilesMissing, planned.insert(photo.checksum).inserted {
                guard let url = sourceURL(photo, context) else { continue }
                jobs.append(ImageJob(photoId: id, source: url, checksum: photo.checksum, requests: missing,
                                     tiles: tilesMissing ? set.tiles : nil, tilesFolder: tilesMissing ? zoom?.tilesBase : nil,
                                     pixels: photo.width * photo.height))
            }
        }
        context.images = images
        context.imageWork = jobs
    }

    /// Nothing to do when the published site was made from this very model, theme and settings,
    /// and no photo is recent enough for its "hours ago" to have moved on since.
    func isUpToDate(_ context: BuildContext) throws -> Bool {
        let database = context.database!
        let fingerprint = BuildStamp.fingerprint(generation: try database.generation(), theme: context.theme, settings: context.settings)
        guard context.issues.allSatisfy({ $0.severity == .warning }),
              let stamp = BuildStamp.read(from: context.paths.output), stamp.fingerprint == fingerprint
        else { return false }
        let now = context.now
        guard stamp.builtAt <= now else { return false }
        context.report.photos = stamp.photos
        context.report.pages = stamp.pages
        return try !database.hasPhotosTaken(in: stamp.builtAt.addingTimeInterval(-24 * 3600)...now)
    }

    func sourceURL(_ photo: Photo, _ context: BuildContext) -> URL? {
        guard photo.source.hasPrefix("content:") else { return nil }
        return context.paths.content.appendingPathComponent(String(photo.source.dropFirst("content:".count)))
    }
}

import FolioModel
import Foundation

extension BuildRun {
    /// The rendition cache shards filled: the one the options name, else the site's
    /// `folio-cache/renditions/` when a shard made it.
    var renditionCache: (any RenditionCache)? {
        if let cache = options.renditionCache { return cache }
        let folder = paths.cache.appendingPathComponent("renditions")
        return files.isFolder(folder) ? FolderRenditionCache(folder: folder, disk: disk) : nil
    }
}

extension ImagesStep {
    /// What a shard made for this job, put where the build would have put it, without decoding
    /// anything; nil when no shard made it (or its bundle is damaged), and the build makes it.
    /// A shard's failure is this build's: reported, and its bundle dropped so the next build
    /// tries the photo again itself.
    static func take(_ job: ImageJob, from cache: any RenditionCache, _ context: Context) async throws -> Made? {
        let key = job.cacheKey
        guard let bundle = await cache.bundle(key) else { return nil }
        if let failure = bundle.failure {
            try? await cache.remove(key)
            return Made(failure: failure)
        }
        let byPath = Dictionary(bundle.media.map { ($0.path, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        guard bundle.thumbnails.allSatisfy({ byPath[$0.path] != nil }) else { return nil }
        for file in bundle.media {
            try context.output.writeMedia(file.bytes, to: file.path)
        }
        if let folder = bundle.tilesFolder {
            try context.output.writeTiles(to: folder) { write in
                for tile in bundle.tiles { try write(tile.path, tile.bytes) }
            }
        }
        var made = Made()
        made.fromCache = bundle.made
        made.thumbnails = bundle.thumbnails.map {
            Thumbnail(photoId: job.photos[0].id, spec: $0.spec, checksum: job.checksum, width: $0.width, height: $0.height,
                      bytes: byPath[$0.path]!)
        }
        return made
    }
}

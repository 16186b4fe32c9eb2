import FolioCore
import FolioModel
import Foundation

/// `folio prune`: Flickr photos older than an age leave the model, favorites excepted, and the
/// cached images of photos that are no longer favorites leave the cache.
public enum FlickrPrune {
    public struct Result: Sendable {
        public var photos: Int
        public var cacheFiles: Int
    }

    public static func run(paths: SitePaths, database: GalleryDatabase, olderThan age: Age, now: Date = Date()) throws -> Result {
        let removed = try database.prune(.flickr, uploadedBefore: now.addingTimeInterval(-age.seconds))
        let favorites = Set(try database.favorites(.flickr).compactMap { source -> String? in
            if case .flickr(let id) = source { return id }
            return nil
        })
        let folder = paths.cache.appendingPathComponent("flickr")
        var files = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            // "<photo id>-<hash of its URL>.jpg"
            let id = String(name.prefix { $0 != "-" })
            guard !favorites.contains(id) else { continue }
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            files += 1
        }
        return Result(photos: removed.count, cacheFiles: files)
    }
}

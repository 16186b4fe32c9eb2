import FolioMedia
import Foundation

/// Where a job's media go: the next `public/` tree for a build, a bundle for the rendition
/// cache for a shard.
protocol MediaSink: Sendable {
    /// Writes a media file ("media/….jpg") whole.
    func writeMedia(_ data: Data, to relative: String) throws
    /// Writes a media file that `make` writes itself at the URL it is given (a video, too
    /// large to hold in memory); it appears at `relative` only once `make` returns.
    func writeMedia(to relative: String, _ make: (URL) throws -> Void) throws
    /// Writes a tile pyramid that appears at `folder` only once complete.
    func writeTiles(to folder: String, _ body: (_ write: (String, Data) throws -> Void) throws -> Void) throws
}

extension PublicOutput: MediaSink {}

/// A shard's job output, kept in memory until it goes to the cache as one bundle.
final class BundleSink: MediaSink, @unchecked Sendable {
    private let lock = NSLock()
    private var bundle = RenditionBundle()

    func writeMedia(_ data: Data, to relative: String) throws {
        lock.withLock { bundle.media.append(RenditionBundle.File(path: relative, bytes: data)) }
    }

    /// A shard's bundle holds its files' bytes: the video is made in a scratch file and read in.
    func writeMedia(to relative: String, _ make: (URL) throws -> Void) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("folio-video-\(UUID().uuidString).mp4")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try make(scratch)
        try writeMedia(try Data(contentsOf: scratch), to: relative)
    }

    func writeTiles(to folder: String, _ body: (_ write: (String, Data) throws -> Void) throws -> Void) throws {
        var tiles: [RenditionBundle.File] = []
        try body { path, data in tiles.append(RenditionBundle.File(path: path, bytes: data)) }
        lock.withLock {
            bundle.tilesFolder = folder
            bundle.tiles = tiles
        }
    }

    /// What was written, with the job's thumbnails named by the files that hold their bytes.
    func finished(_ made: ImagesStep.Made, job: ImageJob, renditions: RenditionSet) -> RenditionBundle {
        lock.withLock {
            var result = bundle
            result.made = made.count
            result.failure = made.failure
            result.thumbnails = made.thumbnails.map { thumbnail in
                let path = result.media.first { $0.bytes == thumbnail.bytes }?.path ?? ""
                return RenditionBundle.ThumbnailFile(spec: thumbnail.spec, path: path, width: thumbnail.width, height: thumbnail.height)
            }
            return result
        }
    }
}

import FolioCore
import FolioSite
import Foundation

/// A file of `public/` as a publish sees it: where it goes, what it is, when it goes up.
public struct PublishFile: Sendable, Equatable {
    /// When a file goes up: media before the files that use them, pages before the home page,
    /// feed and sitemap that lead to them, so a visitor never meets a link to something not
    /// there yet.
    public enum Phase: Int, Sendable, Comparable, CaseIterable {
        case media, assets, pages, entrances

        public static func < (a: Phase, b: Phase) -> Bool { a.rawValue < b.rawValue }

        public static func of(_ path: String) -> Phase {
            if path.hasPrefix("media/") { return .media }
            if [Route.home.path, AtomFeed.path, Sitemap.robotsPath].contains(path) || Sitemap.isSitemap(path) { return .entrances }
            return path.hasSuffix(".html") ? .pages : .assets
        }
    }

    /// Relative to `public/`; the object's key is the prefix and this.
    public var path: String
    public var size: Int
    /// ContentHash of the bytes; nil for media, whose names already say what they hold.
    public var hash: String?

    public var phase: Phase { Phase.of(path) }

    /// Media are named by their content: a name is never reused for other bytes, so caches may
    /// keep them a year without asking. Everything else keeps its name across builds and must
    /// be asked for again soon.
    public var cacheControl: String {
        phase == .media ? "public, max-age=31536000, immutable" : "public, max-age=300"
    }

    public var contentType: String { ContentType.of(path) }

    /// Lists `public/` (hidden files, the build's own bookkeeping, are left out) and hashes
    /// every file but media.
    public static func scan(_ root: URL, files: any FileAccess = LocalFileAccess()) throws -> [PublishFile] {
        guard files.isFolder(root) else {
            throw FolioError(path: root.path, reason: "no site to publish here: run 'folio build' first")
        }
        return try files.entries(under: root).map { entry in
            let url = root.appendingPathComponent(entry.path)
            guard let stamp = files.stamp(of: url) else { throw FolioError(path: url.path, reason: "cannot be read") }
            let hash = Phase.of(entry.path) == .media ? nil : ContentHash.hex(try files.read(url))
            return PublishFile(path: entry.path, size: stamp.size, hash: hash)
        }
    }
}

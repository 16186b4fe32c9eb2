import FolioCore
import Foundation

/// The next tree's media: what a build makes (renditions, videos, tile pyramids), each put under
/// its name only once whole, and how the next tree is given `public/`'s media before a build.
extension PublicOutput {
    /// Whether the media file or folder `relative` ("media/…") is already made.
    public func hasMedia(_ relative: String) -> Bool {
        // The next tree holds all of public/'s media once a build has prepared it; a shard
        // looks at both, so it plans the very jobs the final build will.
        access(nextPath + "/" + relative, F_OK) == 0 || access(destinationPath + "/" + relative, F_OK) == 0
    }

    /// Writes a media file; atomically, so a build that dies never leaves half a file under a
    /// name that says it is complete.
    public func writeMedia(_ data: Data, to relative: String) throws {
        try write(data, to: relative, in: nextPath, atomically: true)
        mirror(relative)
        noteChanged(relative)
    }

    /// Lets `make` write a media file beside its final name, then renames it into place.
    public func writeMedia(to relative: String, _ make: (URL) throws -> Void) throws {
        let path = nextPath + "/" + relative
        try prepareFolder(Self.folder(of: relative, in: nextPath))
        let scratch = "\(path).tmp-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try make(URL(fileURLWithPath: scratch))
        } catch {
            _ = disk.unlink(scratch)
            throw error
        }
        guard disk.rename(scratch, path) == 0 else {
            let failure = DiskFailure(errno, path)
            _ = disk.unlink(scratch)
            throw failure
        }
        mirror(relative)
        noteChanged(relative)
    }

    /// Writes a tile pyramid into a scratch folder that becomes `folder` only once complete.
    public func writeTiles(to folder: String, _ body: (_ write: (String, Data) throws -> Void) throws -> Void) throws {
        let final = nextPath + "/" + RelativePath(folder).text
        let partial = final + ".partial"
        try disk.removeTree(partial)
        try body { path, data in try self.write(data, to: path, in: partial, atomically: false) }
        try disk.removeTree(final)
        try disk.move(partial, to: final)
        mirror(folder, tree: true)
        noteChanged(folder + "/")
    }

    // MARK: Preparing the next tree

    /// Deletes what a killed build left half made among the next tree's media: its pages are
    /// dealt with one by one (`write`, `reuse`, and `removeUnmade` before the swap).
    func clearPartialMedia() throws {
        for folder in [nextPath + "/media", nextPath + "/media/tiles"] {
            for entry in Self.names(in: folder, where: { $0.hasSuffix(".partial") || $0.contains(".tmp-") }) {
                try disk.removeTree(folder + "/" + entry)
            }
        }
    }

    /// Gives the next tree every media file and complete tile pyramid `public/` has, as the very
    /// files `public/` holds: one the next tree has under the same name but as a file of its own
    /// (a site restored from a copy holds copies) is linked again, or the two trees would keep
    /// two of every media file from then on. Tile folders are linked under a scratch name first,
    /// so a kill mid-way leaves no half pyramid under a name that says it is complete.
    /// `public/`'s names are read one at a time and each looked for in the next tree, neither
    /// folder listed whole: a large library's are millions of names.
    func linkMissingMedia() throws {
        let published = destinationPath + "/media"
        let media = nextPath + "/media"
        guard access(published, F_OK) == 0 else { return }
        try disk.makeFolders(media)
        try LocalFileAccess.forEachName(in: published) { name in
            guard name != "tiles" else { return }
            let (source, target) = (published + "/" + name, media + "/" + name)
            if Self.exists(target) {
                guard !Self.isSameFile(source, target) else { return }
                try makeWay(target)
            }
            try share(source, target)
        }
        let publishedTiles = published + "/tiles"
        guard access(publishedTiles, F_OK) == 0 else { return }
        let tiles = media + "/tiles"
        try disk.makeFolders(tiles)
        try LocalFileAccess.forEachName(in: publishedTiles) { name in
            guard !name.hasSuffix(".partial") else { return }
            let (source, target) = (publishedTiles + "/" + name, tiles + "/" + name)
            if Self.exists(target) {
                guard !Self.isSameTree(source, target) else { return }
                try disk.removeTree(target)
            }
            try linkPyramid(source, target)
        }
    }

    /// Whether anything is at `path`, a link that leads nowhere included.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Whether `a` and `b` are one file (two links to it).
    static func isSameFile(_ a: String, _ b: String) -> Bool {
        var (x, y) = (stat(), stat())
        return lstat(a, &x) == 0 && lstat(b, &y) == 0 && x.st_ino == y.st_ino && x.st_dev == y.st_dev
    }

    /// Whether the folders `a` and `b` hold the same names, each one file in both.
    static func isSameTree(_ a: String, _ b: String) -> Bool {
        guard access(a, F_OK) == 0, access(b, F_OK) == 0 else { return false }
        let names = Self.names(in: a, where: { _ in true })
        guard Set(names) == Set(Self.names(in: b, where: { _ in true })) else { return false }
        return names.allSatisfy { name in
            let (x, y) = (a + "/" + name, b + "/" + name)
            var info = stat()
            guard lstat(x, &info) == 0 else { return false }
            return info.st_mode & S_IFMT == S_IFDIR ? isSameTree(x, y) : isSameFile(x, y)
        }
    }

    /// Links a tile pyramid under a scratch name, renamed to `target` once whole.
    func linkPyramid(_ source: String, _ target: String) throws {
        let partial = target + ".partial"
        try disk.removeTree(partial)
        try linkTree(source, partial)
        try disk.move(partial, to: target)
    }

    /// Gives the next tree `public/`'s version of each of these media files and tile folders
    /// ("media/tiles/…/"), or none where `public/` has none: the media the last build made or
    /// deleted, where alone the trees differ.
    func bringMediaInStep(_ paths: [String]) throws {
        for relative in paths.sorted() {
            let isTiles = relative.hasSuffix("/")
            let name = isTiles ? String(relative.dropLast()) : relative
            let published = destinationPath + "/" + name, here = nextPath + "/" + name
            try disk.removeTree(here)
            guard access(published, F_OK) == 0 else { continue }
            try prepareFolder(Self.folder(of: name, in: nextPath))
            if isTiles {
                try linkPyramid(published, here)
            } else {
                try share(published, here)
            }
        }
    }
}

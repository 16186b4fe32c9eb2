import Foundation

/// The next tree's media: what a build makes (renditions, videos, tile pyramids), each put under
/// its name only once whole, and how the next tree is given `public/`'s media before a build.
extension PublicOutput {
    /// Whether the media file or folder `relative` ("media/…") is already made.
    public func hasMedia(_ relative: String) -> Bool {
        // The next tree holds all of public/'s media once a build has prepared it; a shard
        // looks at both, so it plans the very jobs the final build will.
        access(next.path + "/" + relative, F_OK) == 0 || access(destination.path + "/" + relative, F_OK) == 0
    }

    /// Writes a media file; atomically, so a build that dies never leaves half a file under a
    /// name that says it is complete.
    public func writeMedia(_ data: Data, to relative: String) throws {
        try write(data, to: relative, in: next.path, atomically: true)
        mirror(relative)
        noteChanged(relative)
    }

    /// Lets `make` write a media file beside its final name, then renames it into place.
    public func writeMedia(to relative: String, _ make: (URL) throws -> Void) throws {
        let path = next.path + "/" + relative
        do {
            try prepareFolder(Self.folder(of: relative, in: next.path))
        } catch {
            throw FolioError(path: path, reason: "cannot create its folder: \(error.localizedDescription)")
        }
        let scratch = "\(path).tmp-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try make(URL(fileURLWithPath: scratch))
        } catch {
            unlink(scratch)
            throw error
        }
        guard rename(scratch, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(scratch)
            throw FolioError(path: path, reason: "cannot put it in place: \(reason)")
        }
        mirror(relative)
        noteChanged(relative)
    }

    /// Writes a tile pyramid into a scratch folder that becomes `folder` only once complete.
    public func writeTiles(to folder: String, _ body: (_ write: (String, Data) throws -> Void) throws -> Void) throws {
        let final = next.appendingPathComponent(folder)
        let partial = final.deletingLastPathComponent().appendingPathComponent(final.lastPathComponent + ".partial")
        try? fm.removeItem(at: partial)
        try body { path, data in try self.write(data, to: path, in: partial.path, atomically: false) }
        do {
            try? fm.removeItem(at: final)
            try fm.moveItem(at: partial, to: final)
        } catch {
            throw FolioError(path: final.path, reason: "cannot put the tiles in place: \(error.localizedDescription)")
        }
        mirror(folder, tree: true)
        noteChanged(folder + "/")
    }

    // MARK: Preparing the next tree

    /// Deletes what a killed build left half made among the next tree's media: its pages are
    /// dealt with one by one (`write`, `reuse`, and `removeUnmade` before the swap).
    func clearPartialMedia() throws {
        for folder in [next.appendingPathComponent("media"), next.appendingPathComponent("media/tiles")] {
            for entry in (try? fm.contentsOfDirectory(atPath: folder.path)) ?? []
            where entry.hasSuffix(".partial") || entry.contains(".tmp-") {
                try fm.removeItem(at: folder.appendingPathComponent(entry))
            }
        }
    }

    /// Gives the next tree every media file and complete tile pyramid `public/` has, as the very
    /// files `public/` holds: one the next tree has under the same name but as a file of its own
    /// (a site restored from a copy holds copies) is linked again, or the two trees would keep
    /// two of every media file from then on. Tile folders are linked under a scratch name first,
    /// so a kill mid-way leaves no half pyramid under a name that says it is complete.
    func linkMissingMedia() throws {
        let published = destination.appendingPathComponent("media")
        let media = next.appendingPathComponent("media")
        guard fm.fileExists(atPath: published.path) else { return }
        try fm.createDirectory(at: media, withIntermediateDirectories: true)
        let have = Set((try? fm.contentsOfDirectory(atPath: media.path)) ?? [])
        for name in try fm.contentsOfDirectory(atPath: published.path) where name != "tiles" {
            let (source, target) = (published.appendingPathComponent(name).path, media.appendingPathComponent(name).path)
            if have.contains(name) {
                guard !Self.isSameFile(source, target) else { continue }
                Self.makeWay(target)
            }
            try share(source, target)
        }
        let publishedTiles = published.appendingPathComponent("tiles")
        guard fm.fileExists(atPath: publishedTiles.path) else { return }
        let tiles = media.appendingPathComponent("tiles")
        try fm.createDirectory(at: tiles, withIntermediateDirectories: true)
        let haveTiles = Set((try? fm.contentsOfDirectory(atPath: tiles.path)) ?? [])
        for name in try fm.contentsOfDirectory(atPath: publishedTiles.path) where !name.hasSuffix(".partial") {
            let (source, target) = (publishedTiles.appendingPathComponent(name).path, tiles.appendingPathComponent(name).path)
            if haveTiles.contains(name) {
                guard !Self.isSameTree(source, target) else { continue }
                try fm.removeItem(atPath: target)
            }
            try linkPyramid(source, target)
        }
    }

    /// Whether `a` and `b` are one file (two links to it).
    static func isSameFile(_ a: String, _ b: String) -> Bool {
        var (x, y) = (stat(), stat())
        return lstat(a, &x) == 0 && lstat(b, &y) == 0 && x.st_ino == y.st_ino && x.st_dev == y.st_dev
    }

    /// Whether the folders `a` and `b` hold the same names, each one file in both.
    static func isSameTree(_ a: String, _ b: String) -> Bool {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: a), let others = try? fm.contentsOfDirectory(atPath: b),
              Set(names) == Set(others) else { return false }
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
        try? fm.removeItem(atPath: partial)
        try linkTree(source, partial)
        try fm.moveItem(atPath: partial, toPath: target)
    }

    /// Gives the next tree `public/`'s version of each of these media files and tile folders
    /// ("media/tiles/…/"), or none where `public/` has none: the media the last build made or
    /// deleted, where alone the trees differ.
    func bringMediaInStep(_ paths: Set<String>) throws {
        for relative in paths.sorted() {
            let isTiles = relative.hasSuffix("/")
            let name = isTiles ? String(relative.dropLast()) : relative
            let published = destination.path + "/" + name, here = next.path + "/" + name
            try? fm.removeItem(atPath: here)
            guard access(published, F_OK) == 0 else { continue }
            try prepareFolder(Self.folder(of: name, in: next.path))
            if isTiles {
                try linkPyramid(published, here)
            } else {
                try share(published, here)
            }
        }
    }
}

import Foundation

/// The build's output. Pages and assets are written beside `public/` and swapped in whole at
/// the end, so a build that dies half-way leaves the previous site untouched. Media (renditions
/// and tiles) are named by content, so they are written straight into `public/media/`, never
/// overwritten, and those no page uses any more are deleted only once the new site is in place.
public final class PublicOutput: @unchecked Sendable {
    public let destination: URL
    public let staging: URL
    private let fm = FileManager.default
    private var folders = Set<String>()
    private let lock = NSLock()

    public init(destination: URL) throws {
        self.destination = destination
        let parent = destination.deletingLastPathComponent()
        let name = destination.lastPathComponent
        staging = parent.appendingPathComponent(".\(name).staging-\(ProcessInfo.processInfo.processIdentifier)")
        try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        // What an earlier build that died left behind.
        for leftover in (try? fm.contentsOfDirectory(atPath: parent.path)) ?? []
        where leftover.hasPrefix(".\(name).staging-") || leftover == ".\(name).previous" {
            try? fm.removeItem(at: parent.appendingPathComponent(leftover))
        }
        try fm.createDirectory(at: staging, withIntermediateDirectories: true)
    }

    private var previous: URL {
        destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).previous")
    }

    private func prepareFolder(_ folder: String) throws {
        lock.lock()
        let known = folders.contains(folder)
        lock.unlock()
        guard !known else { return }
        // Only recorded once it exists: another task may be writing into it right after.
        try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
        lock.lock()
        folders.insert(folder)
        lock.unlock()
    }

    /// Writes with plain POSIX calls on string paths: Foundation's Data.write fsyncs every file
    /// and URL path building is slow, together a third of writing ten thousand pages. Atomic
    /// writes go to a temporary name first and are renamed into place.
    private func write(_ data: Data, at path: String, atomically: Bool) throws {
        do {
            try prepareFolder((path as NSString).deletingLastPathComponent)
        } catch {
            throw FolioError(path: path, reason: "cannot create its folder: \(error.localizedDescription)")
        }
        let target = atomically ? "\(path).tmp-\(UInt32.random(in: 0...UInt32.max))" : path
        let descriptor = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FolioError(path: path, reason: "cannot write: \(String(cString: strerror(errno)))") }
        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        if failure == 0, atomically, rename(target, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(target)
            throw FolioError(path: path, reason: "cannot write: \(String(cString: strerror(failure)))")
        }
    }

    // MARK: Pages and assets

    /// Writes a page or an asset of the new site.
    public func write(_ data: Data, to relative: String) throws {
        try write(data, at: staging.path + "/" + relative, atomically: false)
    }

    /// Takes a page over from the previous build unchanged (a hard link: no copy, same mtime).
    public func reuse(_ relative: String) -> Bool {
        let old = destination.path + "/" + relative
        let new = staging.path + "/" + relative
        do {
            try prepareFolder((new as NSString).deletingLastPathComponent)
            if link(old, new) == 0 { return true }
            try fm.copyItem(atPath: old, toPath: new)
            return true
        } catch {
            return false
        }
    }

    /// Copies every file of the asset folders to `assets/`, later folders winning.
    public func copyAssets(from assetFolders: [URL], files: any FileAccess) throws {
        var chosen: [String: URL] = [:]
        for folder in assetFolders where files.isFolder(folder) {
            for name in try files.files(under: folder) {
                chosen[name] = folder.appendingPathComponent(name)
            }
        }
        for (name, url) in chosen.sorted(by: { $0.key < $1.key }) {
            try write(try files.read(url), to: "assets/\(name)")
        }
    }

    // MARK: Media

    /// Whether the media file or folder `relative` ("media/…") is already published.
    public func hasMedia(_ relative: String) -> Bool {
        access(destination.path + "/" + relative, F_OK) == 0
    }

    /// Publishes a media file; atomically, so a build that dies never leaves half a file
    /// under a name that says it is complete.
    public func writeMedia(_ data: Data, to relative: String) throws {
        try write(data, at: destination.path + "/" + relative, atomically: true)
    }

    /// Writes a tile pyramid into a scratch folder that becomes `folder` only once complete.
    public func writeTiles(to folder: String, _ body: (_ write: (String, Data) throws -> Void) throws -> Void) throws {
        let final = destination.appendingPathComponent(folder)
        let partial = final.deletingLastPathComponent().appendingPathComponent(final.lastPathComponent + ".partial")
        try? fm.removeItem(at: partial)
        try body { path, data in try self.write(data, at: partial.path + "/" + path, atomically: false) }
        do {
            try? fm.removeItem(at: final)
            try fm.moveItem(at: partial, to: final)
        } catch {
            throw FolioError(path: final.path, reason: "cannot put the tiles in place: \(error.localizedDescription)")
        }
    }

    // MARK: Commit

    /// Puts the new site in place of the old one, then deletes the media nothing refers to.
    /// `media` holds every media file ("media/….jpg") and tile folder ("media/tiles/…/") in use.
    public func commit(keepingMedia media: Set<String>) throws {
        let mediaNow = destination.appendingPathComponent("media")
        let mediaNext = staging.appendingPathComponent("media")
        do {
            if fm.fileExists(atPath: mediaNow.path) { try fm.moveItem(at: mediaNow, to: mediaNext) }
            if fm.fileExists(atPath: destination.path) { try fm.moveItem(at: destination, to: previous) }
            try fm.moveItem(at: staging, to: destination)
            try? fm.removeItem(at: previous)
        } catch {
            if !fm.fileExists(atPath: destination.path), fm.fileExists(atPath: previous.path) {
                try? fm.moveItem(at: previous, to: destination)
            }
            if fm.fileExists(atPath: mediaNext.path), !fm.fileExists(atPath: mediaNow.path) {
                try? fm.moveItem(at: mediaNext, to: mediaNow)
            }
            throw FolioError(path: destination.path, reason: "cannot put the new site in place: \(error.localizedDescription)")
        }
        removeUnused(media)
    }

    private func removeUnused(_ media: Set<String>) {
        let root = destination.appendingPathComponent("media")
        for name in (try? fm.contentsOfDirectory(atPath: root.path)) ?? [] where name != "tiles" {
            if !media.contains("media/\(name)") { try? fm.removeItem(at: root.appendingPathComponent(name)) }
        }
        let tiles = root.appendingPathComponent("tiles")
        for name in (try? fm.contentsOfDirectory(atPath: tiles.path)) ?? [] {
            if !media.contains("media/tiles/\(name)/") { try? fm.removeItem(at: tiles.appendingPathComponent(name)) }
        }
    }

    public func discard() {
        try? fm.removeItem(at: staging)
    }
}

import CSystem
import FolioCore
import Foundation

/// The build's output, made beside `public/` and swapped in whole (docs/incremental-builds.md).
///
/// Two trees take turns: `public/`, which visitors see, and `.public.next`, which holds the site
/// before the last build and is brought up to date in place. Media are linked (named by their
/// content, a link shares their bytes); a page unchanged since is most often the published
/// page's own file already; only what differs is written or linked, and what the new site lacks
/// is deleted before the two names are swapped in one step (`renameat2`, `RENAME_EXCHANGE`).
/// Whenever a build is killed, `public/` is one complete site. Where the trees differ after a
/// build (`changedPaths`) is kept as a `TreeLedger`, so the next build looks at no other path.
public final class PublicOutput: @unchecked Sendable {
    public let destination: URL
    /// The tree being built.
    public let next: URL
    /// `destination`, `next` and the folder holding them as paths: made once, as a URL's path is
    /// made again each time it is asked for, and these are asked for every file.
    let destinationPath: String, nextPath: String, parentPath: String
    /// Where every file, folder, link and rename of the build's output is made.
    let disk: any Disk
    private var folders = Set<String>()
    /// The pages and assets this build put in the next tree (written, or taken over): the rest
    /// of it, but for media, goes before the swap. The pages a caller files elsewhere (the render
    /// step's, in its manifest) are not in it, but vouched for (`vouch(for:)`).
    var made = PathSet()
    /// Whether a path is among the pages the caller made without noting them (`made`).
    private var vouched: (@Sendable (String) -> Bool)?
    /// Where the two trees may differ, as the last build left them; nil when that is not known,
    /// and every file is looked at. After a build that drew every page of a large site, a path
    /// for each (`PathSet`: its bytes, not a string of its own).
    var differing: PathSet?
    /// Where this build made the next tree differ from `public/`: what it wrote, and what it
    /// deleted. Nil on a cold build, which needs no list (and a large one could not hold it):
    /// beside its new site it leaves the twin, one file with it at every path, or no tree at all.
    var changed: PathSet? = []
    /// The third tree a cold build links each file it makes into (`PublicOutput+Twin`); nil on
    /// every other build. Set when the build prepares, before any file is made.
    var twin: String?
    /// A link into the twin failed: it is not the new site's copy, and goes at the end.
    var twinBroken = false
    let twinLock = NSLock()
    /// Whether the twin became the next tree, in step with the new site (`commit`).
    public internal(set) var twinIsNext = false
    let lock = NSLock()

    /// The output as a shard sees it: what is published, read and never written (shards run
    /// at once, and the final build alone prepares the next tree).
    init(viewing destination: URL) {
        self.destination = destination
        next = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).next")
        (destinationPath, nextPath, parentPath) = (destination.path, next.path, destination.deletingLastPathComponent().path)
        disk = LocalDisk()
    }

    public init(destination: URL, disk: any Disk = LocalDisk()) throws {
        self.destination = destination
        self.disk = disk
        let parent = destination.deletingLastPathComponent()
        let name = destination.lastPathComponent
        next = parent.appendingPathComponent(".\(name).next")
        (destinationPath, nextPath, parentPath) = (destination.path, next.path, parent.path)
        try disk.makeFolders(parent.path)
    }

    /// Makes the next tree ready for a build: only once the build knows it has something to do,
    /// as emptying the pages of the site before and listing every media file cost more than all
    /// of a build that finds nothing changed.
    public func prepare(differing: PathSet? = nil) throws {
        self.differing = differing
        let parent = destination.deletingLastPathComponent()
        let name = destination.lastPathComponent
        // What older Folios left behind: a staging folder per build, and the site before it.
        for leftover in Self.names(in: parent.path, where: { $0.hasPrefix(".\(name).staging-") || $0 == ".\(name).previous" }) {
            try? disk.removeTree(parent.appendingPathComponent(leftover).path)
        }
        // What a killed build left on its way into the media folder.
        dropIncoming()
        do {
            let cold = try takeOverTwin(differing: differing)
            try disk.makeFolders(nextPath)
            if cold {
                try startTwin()
                changed = nil
            }
            if let differing {
                try bringMediaInStep(differing.filter { $0.hasPrefix("media/") })
            } else {
                try clearPartialMedia()
                try linkMissingMedia()
            }
        } catch let error as FolioError {
            throw error
        } catch let failure as DiskFailure {
            throw failure
        } catch {
            throw FolioError(path: nextPath, reason: "cannot prepare the next site: \(error.localizedDescription)")
        }
    }

    /// A hard link to `source` at `target`; a copy where the file system cannot link.
    func share(_ source: String, _ target: String) throws {
        if disk.link(source, target) == 0 { return }
        switch errno {
        case EEXIST: return
        // No hard links here (FAT, some network mounts): a copy.
        case EPERM, EXDEV, EMLINK, ENOTSUP: try disk.copyFile(source, to: target)
        default: throw DiskFailure(errno, target)
        }
    }

    /// Every file under `source` at the same place under `target`, each a hard link; a copy
    /// where the file system cannot link, unless `copying` is false: then a link that fails throws.
    func linkTree(_ source: String, _ target: String, copying: Bool = true) throws {
        try disk.makeFolders(target)
        for name in Self.names(in: source, where: { _ in true }) {
            let from = source + "/" + name, to = target + "/" + name
            var info = stat()
            guard lstat(from, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                try linkTree(from, to, copying: copying)
            } else if copying {
                try share(from, to)
            } else if disk.link(from, to) != 0 {
                throw DiskFailure(errno, to)
            }
        }
    }

    /// The folder a file of the site goes in: `base` itself for a file at the top.
    static func folder(of relative: String, in base: String) -> String {
        let folder = RelativePath(relative).folder
        return folder.isEmpty ? base : base + "/" + folder
    }

    func prepareFolder(_ folder: String, within root: String? = nil) throws {
        lock.lock()
        let known = folders.contains(folder)
        lock.unlock()
        guard !known else { return }
        // Only recorded once it exists: another task may be writing into it right after. A
        // file of an older site where this folder goes (a page once, a folder now) makes way.
        do {
            try disk.makeFolders(folder)
        } catch let failure as DiskFailure where failure.code == EEXIST || failure.code == ENOTDIR {
            var ancestor = folder
            let root = root ?? nextPath
            while ancestor.count > root.count {
                var info = stat()
                if lstat(ancestor, &info) == 0, info.st_mode & S_IFMT != S_IFDIR { _ = disk.unlink(ancestor) }
                ancestor = String(ancestor[..<(ancestor.lastIndex(of: "/") ?? ancestor.startIndex)])
            }
            try disk.makeFolders(folder)
        }
        lock.lock()
        folders.insert(folder)
        lock.unlock()
    }

    /// Where media files are written before they take their names, beside the trees: not in the
    /// media folder itself, whose lock every file made or renamed in it takes, so the cores of a
    /// cold build would wait on one another. Emptied when a build prepares, gone when it commits.
    var incoming: String { nextPath + ".incoming" }

    /// How many folders of `incoming` the temporary files are spread over, each by its random
    /// name: made and unlinked in one folder, every file takes that folder's lock twice, and the
    /// cores spin on it.
    static let incomingFolders: UInt64 = 64

    /// A new temporary file's path in one of `incoming`'s folders, the folder made if need be.
    private func temporaryFile() throws -> String {
        let name = UInt64.random(in: 0...UInt64.max)
        let folder = incoming + "/" + String(name % Self.incomingFolders, radix: 16)
        try prepareFolder(folder, within: parentPath)
        return folder + "/" + String(name / Self.incomingFolders, radix: 16)
    }

    /// Deletes `incoming` and whatever is in it, and forgets it was made.
    func dropIncoming() {
        try? disk.removeTree(incoming)
        lock.lock()
        folders = folders.filter { $0 != incoming && !$0.hasPrefix(incoming + "/") }
        lock.unlock()
    }

    /// Writes with plain POSIX calls on string paths: Foundation's Data.write fsyncs every file
    /// and builds URL paths slowly. Atomic writes go to a temporary file in `incoming` first and
    /// are linked into place whole.
    func write(_ data: Data, to relative: String, in base: String, atomically: Bool) throws {
        let path = base + "/" + relative
        try prepareFolder(Self.folder(of: relative, in: base))
        let target = atomically ? try temporaryFile() : path
        // A new file where nothing is (every page of a cold build): made at once, without first
        // looking for an old one to write over or out of the way.
        var descriptor = atomically ? -1 : disk.open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        let inPlace = descriptor < 0 && !atomically && Self.ownedAlone(path)
        if descriptor >= 0 {
            // Made new: nothing was there.
        } else if inPlace {
            // The next tree's own copy of the page two builds ago: written over in place, its
            // blocks kept. Unlinked or truncated, its blocks would be freed, and on a disk
            // mounted with `discard` every freed file waits for the device.
            descriptor = disk.open(target, O_WRONLY | O_CLOEXEC, 0)
        } else {
            // What is there may be the published site's own file (a page taken over a build
            // ago): written into, it would change public/ too. A new file takes its name.
            if !atomically { try makeWay(path) }
            descriptor = disk.open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { throw DiskFailure(errno, path) }
        var failure = data.withUnsafeBytes { disk.writeAll(descriptor, $0) }
        // Written over in place, a longer old page's tail goes.
        if failure == 0, inPlace, disk.truncate(descriptor, data.count) != 0 { failure = errno }
        if disk.close(descriptor) != 0 && failure == 0 { failure = errno }
        if failure == 0, atomically {
            // One entry made in the media folder. Where a file is there already (of the same
            // content: named by it), or the file system has no hard links (FAT, some network
            // mounts), it is renamed into place instead, as it always was.
            if disk.link(target, path) == 0 {
                _ = disk.unlink(target)
            } else if disk.rename(target, path) != 0 {
                failure = errno
            }
        }
        if failure != 0 {
            _ = disk.unlink(target)
            throw DiskFailure(failure, path)
        }
    }

    // MARK: Pages and assets

    /// Writes a page or an asset of the new site: over the next tree's own old file where it
    /// has one, else as a new file (never into one it shares with `public/`).
    public func write(_ data: Data, to relative: String) throws {
        try write(data, to: relative, noting: true)
    }

    /// As `write(_:to:)`; `noting` false leaves the caller to vouch for the page (`vouch(for:)`).
    func write(_ data: Data, to relative: String, noting: Bool) throws {
        try write(data, to: relative, in: nextPath, atomically: false)
        mirror(relative)
        lock.lock()
        if noting { made.insert(relative) }
        changed?.insert(relative)
        lock.unlock()
    }

    /// Takes a page over from the published site unchanged (a hard link: no copy, same mtime).
    /// Most often the next tree has it already, the very same file, from the build before.
    public func reuse(_ relative: String) -> Bool {
        guard reuse(relative, noting: false) else { return false }
        noteMade(relative)
        return true
    }

    /// As `reuse(_:)`, leaving the caller to say it made the page (`vouch(for:)`): a lock for
    /// each of the render step's pages would be much of its work.
    func reuse(_ relative: String, noting: Bool) -> Bool {
        if let differing, !differing.contains(relative) {
            // The last build left this path one file in both trees.
            return true
        }
        let old = destinationPath + "/" + relative
        let new = nextPath + "/" + relative
        var published = stat(), here = stat()
        guard lstat(old, &published) == 0 else { return false }
        if lstat(new, &here) == 0, here.st_ino == published.st_ino, here.st_dev == published.st_dev {
            return true
        }
        do {
            try prepareFolder(Self.folder(of: relative, in: nextPath))
            try makeWay(new)
            try share(old, new)
            return true
        } catch {
            return false
        }
    }

    private func noteMade(_ relative: String) {
        lock.lock()
        made.insert(relative)
        lock.unlock()
    }

    /// Says which pages this build made (wrote or took over) without noting them
    /// (`write(_:to:noting:)`, `reuse(_:noting:)`): the render step's pages, which its manifest
    /// holds, so their paths are not held twice.
    func vouch(for pages: @escaping @Sendable (String) -> Bool) {
        lock.lock()
        vouched = pages
        lock.unlock()
    }

    /// Whether this build made the page or asset at `relative` (the lock held).
    func isMade(_ relative: String) -> Bool {
        made.contains(relative) || vouched?(relative) == true
    }

    func noteChanged(_ relative: String) {
        lock.lock()
        changed?.insert(relative)
        lock.unlock()
    }

    /// Where the trees differ once the new site is in place: what this build wrote into the
    /// next tree and what it deleted from it (`TreeLedger`); nil after a cold build.
    public var changedPaths: PathSet? {
        lock.lock()
        defer { lock.unlock() }
        return changed
    }

    /// Whether `path` is a file that only the next tree holds (no link from `public/`), which a
    /// new page may be written into.
    private static func ownedAlone(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && status.st_nlink == 1
    }

    /// Clears `path` for a new file: a file there goes, and a folder of an older site's pages
    /// where a page goes now. A file that will not go fails the build: written into, it could be
    /// the published site's own.
    func makeWay(_ path: String) throws {
        guard disk.unlink(path) != 0 else { return }
        switch errno {
        case ENOENT: return
        case EISDIR, EPERM: try disk.removeTree(path)
        default: throw DiskFailure(errno, path)
        }
    }

    /// Removes the folder at `path`, which should be empty; one that is not (something was
    /// written there since) stays.
    private func removeEmptyFolder(_ path: String) throws {
        guard disk.removeFolder(path) != 0 else { return }
        guard errno == ENOTEMPTY || errno == EEXIST || errno == ENOENT else { throw DiskFailure(errno, path) }
    }

    /// The names in `folder` that `picked` says yes to, read one at a time: a large library's
    /// media folder, listed whole (`contentsOfDirectory`), would be held at the end of the build,
    /// at its peak. Nothing when the folder will not open.
    static func names(in folder: String, where picked: (String) -> Bool) -> [String] {
        var names: [String] = []
        LocalFileAccess.forEachName(in: folder) { name in
            if picked(name) { names.append(name) }
        }
        return names
    }

    /// Deletes every page, asset and folder of the next tree that this build did not make (the
    /// pages of the site two builds ago that are gone, files a killed build left half written),
    /// leaving its media to `removeUnused`.
    func removeUnmade() throws {
        func sweep(_ folder: String, _ relative: String) throws -> Bool {
            // Read a name at a time, the few to delete and the folders kept for after: a large
            // site's photos' folder, listed whole, would be held at the write step's peak.
            guard let directory = opendir(folder) else { return false }
            func inside(_ name: String) -> String { relative.isEmpty ? name : relative + "/" + name }
            var empty = true
            var unmade: [String] = [], folders: [String] = []
            while let entry = readdir(directory) {
                let name = LocalFileAccess.name(of: entry)
                if name == "." || name == ".." { continue }
                if relative.isEmpty && name == "media" { empty = false; continue }
                var info = stat()
                guard lstat(folder + "/" + name, &info) == 0 else { continue }
                if info.st_mode & S_IFMT == S_IFDIR {
                    folders.append(name)
                } else if isMade(inside(name)) {
                    empty = false
                } else {
                    unmade.append(name)
                }
            }
            closedir(directory)
            for name in unmade {
                try makeWay(folder + "/" + name)
                unmirror(inside(name))
                changed?.insert(inside(name))
            }
            for name in folders {
                let path = folder + "/" + name
                if try sweep(path, inside(name)) {
                    try removeEmptyFolder(path)
                    unmirror(inside(name), folder: true)
                } else {
                    empty = false
                }
            }
            return empty
        }
        lock.lock()
        defer { lock.unlock() }
        _ = try sweep(nextPath, "")
    }

    /// As `removeUnmade`, when the next tree is known to hold the pages of `public/` (`pages`,
    /// the last build's manifest) and the paths where the two differ: those of them this build
    /// did not make are deleted, each folder left empty with them, and nothing else is looked at.
    func removeUnmade(knowing pages: some Sequence<String>, differing: PathSet) throws {
        lock.lock()
        defer { lock.unlock() }
        // Each path once, without a set of all of a large site's pages: the few removed
        // are remembered, as a path may be both a page and where the trees differ.
        var removed = Set<String>()
        func remove(_ relative: String) throws {
            guard !relative.hasPrefix("media/"), !isMade(relative), removed.insert(relative).inserted else { return }
            try makeWay(nextPath + "/" + relative)
            // Once the trees are swapped they differ here only if `public/` holds the path: one
            // neither holds is not looked for again by every build after.
            var status = stat()
            if lstat(destinationPath + "/" + relative, &status) == 0 { changed?.insert(relative) }
            var folder = RelativePath(relative).folder
            while !folder.isEmpty, disk.removeFolder(nextPath + "/" + folder) == 0 {
                folder = RelativePath(folder).folder
            }
        }
        for relative in pages { try remove(relative) }
        for relative in differing { try remove(relative) }
    }

    /// Copies every file of the asset folders to `assets/`, later folders winning. One whose
    /// bytes are the published one's is taken over, as an unchanged page is (same file, same
    /// modification time), so a host that tags files by it (ETag, Last-Modified) sends it again to
    /// no one. `heads` go before the asset of their name (the site's words before `folio.js`).
    public func copyAssets(from assetFolders: [URL], files: any FileAccess, heads: [String: Data] = [:]) throws {
        var chosen: [String: URL] = [:]
        for folder in assetFolders where files.isFolder(folder) {
            for name in try files.files(under: folder) {
                chosen[name] = folder.appendingPathComponent(name)
            }
        }
        for (name, url) in chosen.sorted(by: { $0.key < $1.key }) {
            let (data, relative) = ((heads[name] ?? Data()) + (try files.read(url)), "assets/\(name)")
            if FileManager.default.contents(atPath: destinationPath + "/" + relative) == data, reuse(relative) { continue }
            try write(data, to: relative)
        }
    }
}

import FolioCore
import Foundation

/// What the watched files look like at one moment: size, modification time and inode of every
/// file, by path. Two snapshots differ exactly when something was added, removed, rewritten or
/// replaced. Polling these is portable (Linux, macOS), needs no file-descriptor per folder, and
/// is cheap even for thousands of photos.
struct FolderSnapshot: Equatable, Sendable {
    struct Signature: Equatable, Sendable {
        var size: Int64
        var modified: Int64
        var inode: UInt64
    }

    var files: [String: Signature] = [:]

    /// Every file under the `roots` (folders or single files; missing ones are simply empty),
    /// hidden files and folders left out, as the content loader does, and nothing under `excluded`.
    static func take(_ roots: [URL], excluding excluded: [URL] = []) -> FolderSnapshot {
        var snapshot = FolderSnapshot()
        let skipped = Set(excluded.map(\.standardizedFileURL.path))
        for root in roots {
            snapshot.add(root.standardizedFileURL.path, skipping: skipped)
        }
        return snapshot
    }

    private mutating func add(_ path: String, skipping skipped: Set<String>) {
        guard !skipped.contains(path) else { return }
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            // Hidden names are no content, but `.nomedia`, which says what else is none.
            for name in LocalFileAccess.names(in: path) where (name.utf8.first != UInt8(ascii: ".") || name == FileEntry.nomedia) && !name.hasSuffix("~") {
                add(path + "/" + name, skipping: skipped)
            }
            return
        }
        // A link counts by what it points at, as the build reads it; links to folders are not
        // walked, so a loop of links cannot trap the watcher.
        if info.st_mode & S_IFMT == S_IFLNK {
            var target = stat()
            if stat(path, &target) == 0 { info = target }
        }
        files[path] = Signature(size: Int64(info.st_size), modified: Self.nanoseconds(info), inode: UInt64(info.st_ino))
    }

    private static func nanoseconds(_ info: stat) -> Int64 {
        #if canImport(Darwin)
        Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
        Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
    }

    /// The paths added, removed or changed since `earlier`, sorted.
    func changes(since earlier: FolderSnapshot) -> [String] {
        var changed = Set<String>()
        for (path, signature) in files where earlier.files[path] != signature { changed.insert(path) }
        for path in earlier.files.keys where files[path] == nil { changed.insert(path) }
        return changed.sorted()
    }
}

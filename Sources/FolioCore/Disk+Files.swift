import Foundation

/// Whole files and folders, made of the seam's calls: what the build writes with, in place of
/// FileManager's and Data's writes, so that each of their steps can be made to fail.
extension Disk {
    /// Writes `data` to `path`, made or replaced; with `atomically`, to a file beside it first,
    /// renamed over it once whole, so no reader ever sees half of it.
    public func writeFile(_ data: Data, to path: String, atomically: Bool = false) throws {
        try data.withUnsafeBytes { try writeFile($0, to: path, atomically: atomically) }
    }

    /// `writeFile` of bytes held elsewhere than in a `Data`, without copying them into one.
    public func writeFile(_ bytes: UnsafeRawBufferPointer, to path: String, atomically: Bool = false) throws {
        let target = atomically ? "\(path).tmp-\(UInt32.random(in: 0...UInt32.max))" : path
        let descriptor = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw DiskFailure(errno, path) }
        var failure = writeAll(descriptor, bytes)
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, atomically, rename(target, path) != 0 { failure = errno }
        if failure != 0 {
            if atomically { _ = unlink(target) }
            throw DiskFailure(failure, path)
        }
    }

    /// Writes all of `bytes` at the descriptor's position; 0, or the errno that stopped it.
    public func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }

    /// Makes `path` and the folders it is in, where they are not there.
    public func makeFolders(_ path: String) throws {
        if makeFolder(path) == 0 { return }
        var failure = errno
        if failure == EEXIST, Self.isFolder(path) { return }
        if failure == ENOENT {
            let parent = Self.folder(of: path)
            if !parent.isEmpty, parent != "/", parent != path {
                try makeFolders(parent)
                if makeFolder(path) == 0 { return }
                failure = errno
                if failure == EEXIST, Self.isFolder(path) { return }
            }
        }
        throw DiskFailure(failure, path)
    }

    /// Deletes the file, link or folder (with everything in it) at `path`; nothing there is
    /// no failure.
    public func removeTree(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return }
            throw DiskFailure(errno, path)
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in LocalFileAccess.names(in: path) { try removeTree(path + "/" + name) }
            guard removeFolder(path) == 0 || errno == ENOENT else { throw DiskFailure(errno, path) }
        } else {
            guard unlink(path) == 0 || errno == ENOENT else { throw DiskFailure(errno, path) }
        }
    }

    /// Copies the regular file at `source` to `target` (which it replaces).
    public func copyFile(_ source: String, to target: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: source))
        } catch {
            throw FolioError(path: source, reason: "cannot be read: \(error.localizedDescription)")
        }
        try writeFile(data, to: target)
    }

    /// Moves `source` to `target`, which must not be there (a folder there is an error, as a file
    /// is: rename would put a folder over an empty one).
    public func move(_ source: String, to target: String) throws {
        if access(target, F_OK) == 0 { throw DiskFailure(EEXIST, target) }
        guard rename(source, target) == 0 else { throw DiskFailure(errno, target) }
    }

    /// The folder `path` is in: what comes before its last "/" ("/" for a name at the top,
    /// "" for a path with no "/").
    public static func folder(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return slash == path.utf8.startIndex ? "/" : String(decoding: path.utf8[..<slash], as: UTF8.self)
    }

    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}

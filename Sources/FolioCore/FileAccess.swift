import CSystem
import Foundation

/// The file system as a build reads it: the site's content, settings and theme. Every step that
/// reads files goes through it, so tests can swap it.
public protocol FileAccess: Sendable {
    func read(_ url: URL) throws -> Data
    /// Size and modification time, or nil when there is no regular file at `url`.
    func stamp(of url: URL) -> FileStamp?
    /// Whether `url` is a folder (following links).
    func isFolder(_ url: URL) -> Bool
    /// Every regular file and symbolic link below `root` (links to folders are not followed),
    /// as paths relative to it, hidden files and folders left out (but `.nomedia`, which says
    /// what else to leave out), sorted.
    func entries(under root: URL) throws -> [FileEntry]
    /// The same walk, going on past the folders below `root` that cannot be opened (content/'s
    /// walk: one unreadable folder must not stop a build); `root` itself must open.
    func listing(under root: URL) throws -> FolderListing
    /// The path with symbolic links resolved.
    func realPath(_ url: URL) -> String
    /// Starts asking for the bytes of the `count` files `file` gives (paths under `root` and
    /// sizes), in the order they will be read (see `ReadAhead`); nil where there is no disk to
    /// wait on. The caller stops it.
    func readAhead(count: Int, under root: String, file: @escaping ReadAhead.File) -> ReadAhead?
}

public struct FileEntry: Sendable, Equatable {
    /// The one hidden name a walk of content/ lists all the same: it says what else to leave out
    /// (see ContentExclusions).
    public static let nomedia = ".nomedia"

    public var path: String
    /// A regular file's size and modification time, when the walk learnt them on its way (the
    /// local walk asks the folder it has open, sparing a lookup of the whole path per file).
    public var stamp: FileStamp?
    /// A link may lead anywhere; a regular file found by the walk is inside the root. Last, where
    /// it takes the byte after the stamp's: before it, it would take eight.
    public var isLink: Bool

    public init(path: String, isLink: Bool, stamp: FileStamp? = nil) {
        self.path = path
        self.isLink = isLink
        self.stamp = stamp
    }

    /// The same file, whether or not the walk learnt its stamp.
    public static func == (a: FileEntry, b: FileEntry) -> Bool {
        a.path == b.path && a.isLink == b.isLink
    }
}

extension FileAccess {
    /// For file systems where every folder opens.
    public func listing(under root: URL) throws -> FolderListing {
        FolderListing(entries: try entries(under: root))
    }

    /// The paths of `entries(under:)`.
    public func files(under root: URL) throws -> [String] {
        try entries(under: root).map(\.path)
    }

    public func readAhead(count: Int, under root: String, file: @escaping ReadAhead.File) -> ReadAhead? { nil }
}

public struct FileStamp: Sendable, Hashable {
    public var size: Int
    public var modified: Date

    public init(size: Int, modified: Date) {
        self.size = size
        self.modified = modified
    }

    /// Compact text stored in the model to tell a touched file from an unchanged one.
    public var text: String { "\(size):\(milliseconds)" }

    private var milliseconds: Int64 { Int64((modified.timeIntervalSince1970 * 1000).rounded()) }

    /// Whether `text` is this stamp's `text`, read as its two numbers rather than made: asked
    /// of every photo of every build.
    func isText(_ text: String) -> Bool {
        Self.numbers(text).map(matches) ?? false
    }

    /// Whether the numbers `numbers(_:)` read are this stamp's.
    package func matches(_ numbers: (size: Int64, milliseconds: Int64)) -> Bool {
        numbers.size == Int64(size) && numbers.milliseconds == milliseconds
    }

    /// The size and milliseconds of a stamp's `text`; nil for text `text` would not write.
    package static func numbers(_ text: String) -> (size: Int64, milliseconds: Int64)? {
        var text = text
        return text.withUTF8 { bytes in
            var at = 0
            func number() -> Int64? {
                let negative = at < bytes.count && bytes[at] == UInt8(ascii: "-")
                if negative { at += 1 }
                let start = at
                var value: Int64 = 0
                while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]), at - start < 18 {
                    value = value * 10 + Int64(bytes[at] - UInt8(ascii: "0"))
                    at += 1
                }
                // As `text` writes them: no sign on zero, no leading zeros.
                guard at > start, bytes[start] != UInt8(ascii: "0") || at - start == 1, !(negative && value == 0) else { return nil }
                return negative ? -value : value
            }
            guard let size = number(), at < bytes.count, bytes[at] == UInt8(ascii: ":") else { return nil }
            at += 1
            guard let milliseconds = number(), at == bytes.count else { return nil }
            return (size, milliseconds)
        }
    }
}

/// The real local file system.
public struct LocalFileAccess: FileAccess {
    public init() {}

    /// Read into memory, never mapped: a mapped file that an editor truncates while a build
    /// reads it (as `folio serve` watches the folder being edited) is a SIGBUS, not an error.
    public func read(_ url: URL) throws -> Data {
        try Data(contentsOf: url)
    }

    public func readAhead(count: Int, under root: String, file: @escaping ReadAhead.File) -> ReadAhead? {
        count == 0 ? nil : ReadAhead(count: count, under: root, file: file)
    }

    public func isFolder(_ url: URL) -> Bool {
        var info = stat()
        return stat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    public func stamp(of url: URL) -> FileStamp? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return Self.stamp(info)
    }

    /// The stamp of a regular file's `stat`, nil for anything else.
    private static func stamp(_ info: stat) -> FileStamp? {
        guard (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        return FileStamp(size: Int(info.st_size), modified: Date(timeIntervalSince1970: modified))
    }

    /// A readdir walk: the file type comes with each name, so a site is listed without a stat per
    /// file.
    public func entries(under root: URL) throws -> [FileEntry] {
        let listing = try listing(under: root)
        if let folder = listing.unreadable.first {
            throw FolioError(path: root.path + "/" + folder.path, reason: folder.reason)
        }
        return Array(listing.entries)
    }

    public func listing(under root: URL) throws -> FolderListing {
        var (listing, ascii) = try walkNoting(under: root)
        // Already in order, unless two names' Unicode forms order otherwise than their bytes: the
        // sort then finds one run and is done. Names all ASCII have one form and are not looked over.
        if !ascii { listing.entries.sortByPath() }
        return listing
    }

    /// The listing, each folder's files and folders put in order on the core that read them and
    /// merged (`inOrder`): in the order of the paths, but where two names' Unicode forms order
    /// the whole paths otherwise than the names (which `listing` then sorts).
    func walk(under root: URL) throws -> FolderListing {
        try walkNoting(under: root).listing
    }

    /// The walk, and whether every name it met is ASCII.
    private func walkNoting(under root: URL) throws -> (listing: FolderListing, ascii: Bool) {
        guard isFolder(root) else {
            throw FolioError(path: root.path, reason: "no such folder")
        }
        // By the folders' bytes: two names in different Unicode forms are two folders, and one
        // String key (equal when canonically equivalent) would hold the contents of one of them.
        var read: [[UInt8]: FolderContents] = [:]
        var (count, nameBytes) = (0, 0)
        var ascii = true
        var unreadable: [(path: String, reason: String)] = []
        // A level of folders at a time, its folders read on every core: a file's stamp is a call
        // into the kernel, and those calls are most of a no-op build.
        var level = [""]
        while !level.isEmpty {
            let results = level.concurrentMap(minimum: 2) { Self.read(folder: $0, under: root.path) }
            level = []
            for (folder, result) in results {
                switch result {
                case .success(let contents):
                    count += contents.files.count
                    nameBytes += contents.files.nameByteCount
                    ascii = ascii && contents.ascii
                    level += contents.folders
                    read[Array(folder.utf8)] = contents
                case .failure(let reason):
                    if folder.isEmpty { throw FolioError(path: root.path, reason: reason.text) }
                    unreadable.append((folder, reason.text))
                }
            }
        }
        return (FolderListing(entries: Self.inOrder(consume read, count: count, nameBytes: nameBytes), unreadable: unreadable.sorted { $0.path < $1.path }),
                ascii)
    }

    /// One folder's files and folders, each sorted by its path (on the core that read them).
    private struct FolderContents {
        var files = FileList()
        var folders: [String] = []
        /// Whether every name in it is ASCII.
        var ascii = true
    }

    /// The files of every folder `read`, in the order of their paths: each folder's files merged
    /// with its folders as if each folder's name ended in "/", as every path inside it does. A
    /// folder's files are let go once they are listed, and what they held goes back to the
    /// system every `returnedEvery` files: the folders were read on other cores, whose allocator
    /// keeps what is freed, and a large library's lists would stay resident beside the listing.
    private static func inOrder(_ read: consuming [[UInt8]: FolderContents], count: Int, nameBytes: Int) -> FileList {
        var found = FileList()
        found.reserveCapacity(count, nameBytes: nameBytes)
        var open: [(contents: FolderContents, file: Int, folder: Int)] = []
        var letGo = 0
        if let top = read.removeValue(forKey: []) { open.append((top, 0, 0)) }
        while case (let contents, var file, let folder)? = open.popLast() {
            let inner = folder < contents.folders.count ? contents.folders[folder] + "/" : nil
            while file < contents.files.count, inner.map({ contents.files.path(at: file) < $0 }) ?? true {
                found.append(from: contents.files, at: file)
                file += 1
            }
            guard folder < contents.folders.count else {
                letGo += contents.files.count
                if letGo >= returnedEvery {
                    folio_return_freed_memory()
                    letGo = 0
                }
                continue
            }
            let next = read.removeValue(forKey: Array(contents.folders[folder].utf8))
            open.append((contents, file, folder + 1))
            // An unreadable folder has no contents: the folder after it is next.
            if let next { open.append((next, 0, 0)) }
        }
        return found
    }

    /// How many files' entries a walk lets go of between two returns of memory to the system.
    static let returnedEvery = 1 << 16

    private struct Unreadable: Error {
        var text: String
    }

    /// The files and folders in one folder (`folder` under `root`, "" for the root itself).
    private static func read(folder: String, under root: String) -> (String, Result<FolderContents, Unreadable>) {
        guard let directory = opendir(folder.isEmpty ? root : root + "/" + folder) else {
            return (folder, .failure(Unreadable(text: "cannot be read: \(String(cString: strerror(errno)))")))
        }
        defer { closedir(directory) }
        var contents = FolderContents()
        var files: [FileEntry] = []
        let descriptor = dirfd(directory)
        while let entry = readdir(directory) {
            let namePointer = Self.namePointer(of: entry)
            let name = String(cString: namePointer)
            guard name.utf8.first != UInt8(ascii: ".") || name == FileEntry.nomedia else { continue }
            if contents.ascii, !name.utf8.allSatisfy({ $0 < 0x80 }) { contents.ascii = false }
            let path = folder.isEmpty ? name : folder + "/" + name
            var type = Int32(entry.pointee.d_type)
            var info = stat()
            var known = false
            if type == Int32(DT_UNKNOWN) {
                // Some file systems do not say; ask.
                guard fstatat(descriptor, namePointer, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                known = true
                switch info.st_mode & S_IFMT {
                case S_IFDIR: type = Int32(DT_DIR)
                case S_IFLNK: type = Int32(DT_LNK)
                case S_IFREG: type = Int32(DT_REG)
                default: continue
                }
            }
            switch type {
            case Int32(DT_DIR): contents.folders.append(path)
            case Int32(DT_REG):
                // Its stamp from the folder already open: no lookup of the whole path.
                if !known { known = fstatat(descriptor, namePointer, &info, AT_SYMLINK_NOFOLLOW) == 0 }
                files.append(FileEntry(path: path, isLink: false, stamp: known ? Self.stamp(info) : nil))
            case Int32(DT_LNK): files.append(FileEntry(path: path, isLink: true))
            default: continue
            }
        }
        // Held packed until merged: a level of a large library's folders is read before any is.
        files.sort { $0.path < $1.path }
        contents.files = FileList(files)
        // As their paths go on: "2024-03/…" comes before "2024/…".
        contents.folders.sort { $0 + "/" < $1 + "/" }
        return (folder, .success(contents))
    }

    static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    /// The name of a folder's entry read by `readdir`. Records are as long as their name, not
    /// sizeof(dirent): the name is read in place.
    static func namePointer(of entry: UnsafeMutablePointer<dirent>) -> UnsafePointer<CChar> {
        UnsafePointer(UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
    }

    package static func name(of entry: UnsafeMutablePointer<dirent>) -> String {
        String(cString: namePointer(of: entry))
    }

    /// Hands each name in `folder` but "." and ".." to `body` as `readdir` reads it, none held:
    /// a large library's media folder has two names or more for each photo. None when the
    /// folder will not open.
    package static func forEachName(in folder: String, _ body: (String) throws -> Void) rethrows {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = name(of: entry)
            if name != ".", name != ".." { try body(name) }
        }
    }

    /// The names in `folder` but "." and ".."; none when it will not open.
    package static func names(in folder: String) -> [String] {
        var names: [String] = []
        forEachName(in: folder) { names.append($0) }
        return names
    }

    public func realPath(_ url: URL) -> String {
        if let resolved = realpath(url.path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        // A link that leads nowhere: where it would lead, so one pointing outside is seen to.
        if let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) {
            let target = destination.hasPrefix("/") ? URL(fileURLWithPath: destination)
                : url.deletingLastPathComponent().appendingPathComponent(destination)
            return target.standardizedFileURL.path
        }
        return url.standardizedFileURL.path
    }
}

import Foundation

/// The file system as the content loader sees it: a seam so tests can swap it.
public protocol FileAccess: Sendable {
    func read(_ url: URL) throws -> Data
    /// Size and modification time, or nil when there is no regular file at `url`.
    func stamp(of url: URL) -> FileStamp?
    /// Every regular file below `root`, as paths relative to it, hidden files and folders left out.
    func files(under root: URL) throws -> [String]
    /// The path with symbolic links resolved.
    func realPath(_ url: URL) -> String
}

public struct FileStamp: Sendable, Equatable {
    public var size: Int
    public var modified: Date

    /// Compact text stored in the model to tell a touched file from an unchanged one.
    public var text: String { "\(size):\(Int64((modified.timeIntervalSince1970 * 1000).rounded()))" }
}

/// The real local file system.
public struct LocalFileAccess: FileAccess {
    public init() {}

    public func read(_ url: URL) throws -> Data {
        try Data(contentsOf: url, options: .alwaysMapped)
    }

    public func stamp(of url: URL) -> FileStamp? {
        var info = stat()
        guard stat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        return FileStamp(size: Int(info.st_size), modified: Date(timeIntervalSince1970: modified))
    }

    public func files(under root: URL) throws -> [String] {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw FolioError(path: root.path, reason: "no such folder")
        }
        guard let walker = fm.enumerator(atPath: root.path) else { return [] }
        var found: [String] = []
        while let path = walker.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            if name.hasPrefix(".") {
                if (walker.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory { walker.skipDescendants() }
                continue
            }
            let type = walker.fileAttributes?[.type] as? FileAttributeType
            if type == .typeRegular || type == .typeSymbolicLink { found.append(path) }
        }
        return found.sorted()
    }

    public func realPath(_ url: URL) -> String {
        url.resolvingSymlinksInPath().path
    }
}

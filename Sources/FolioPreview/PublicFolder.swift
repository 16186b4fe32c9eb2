import Foundation

/// Finds the file a checked request path names inside `public/`, by real paths: whatever the
/// path and whatever symbolic links lie along it, the file that is opened must be inside the
/// real `public/`, else it is refused. Folders are served by their `index.html` only (never
/// listed).
struct PublicFolder: Sendable {
    let root: URL

    enum Resolution {
        case file(PublicFile)
        /// A folder asked for without its trailing slash.
        case folderWithoutSlash
        case notFound
        /// It exists, but only by leaving `public/` (a symbolic link leading out).
        case outside
    }

    func resolve(_ path: RequestPath) -> Resolution {
        guard let rootReal = Self.realPath(root.path) else { return .notFound }
        let candidate = path.segments.isEmpty ? rootReal : rootReal + "/" + path.relative
        switch openReal(candidate, rootReal: rootReal) {
        case .folder:
            if !path.endsWithSlash && !path.segments.isEmpty { return .folderWithoutSlash }
            switch openReal(candidate + "/index.html", rootReal: rootReal) {
            case .file(let file): return .file(file)
            case .outside: return .outside
            case .folder, .missing: return .notFound
            }
        case .file(let file):
            // "/index.html/" names no folder; a file has no trailing slash.
            return path.endsWithSlash ? .notFound : .file(file)
        case .outside: return .outside
        case .missing: return .notFound
        }
    }

    /// Only the file named `name` right in `public/`, for the site's own 404 page.
    func topLevelFile(_ name: String) -> PublicFile? {
        guard let rootReal = Self.realPath(root.path), case .file(let file) = openReal(rootReal + "/" + name, rootReal: rootReal) else {
            return nil
        }
        return file
    }

    private enum Opened {
        case file(PublicFile)
        case folder
        case missing
        case outside
    }

    private func openReal(_ candidate: String, rootReal: String) -> Opened {
        guard let real = Self.realPath(candidate) else { return .missing }
        guard let relative = real.pathRelative(to: rootReal) else { return .outside }
        // O_NOFOLLOW: had the last component become a link since realpath looked, this fails
        // instead of following it. O_NONBLOCK: a FIFO someone left in public/ cannot hang us.
        let descriptor = open(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .missing }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { close(descriptor); return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            close(descriptor)
            return .folder
        case S_IFREG:
            return .file(PublicFile(descriptor: descriptor, path: real, relative: relative, info: info))
        default:
            close(descriptor)
            return .missing
        }
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

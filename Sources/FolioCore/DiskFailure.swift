import Foundation

/// A write of Folio's own files refused: the machine failing under a build (a full disk, a
/// read-only or vanished folder, an I/O error, no file handles left), never a photo's fault. It
/// stops the build; the previous `public/` stays.
public struct DiskFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The errno the system gave.
    public var code: Int32
    /// What was being written.
    public var path: String
    /// The folder a person knows the disk by (the site's); the path's own folder when nil.
    public var site: String?
    /// What the build was doing ("writing renditions"), when known.
    public var activity: String?

    public init(_ code: Int32, _ path: String) {
        self.code = code
        self.path = path
    }

    /// The errnos that say the machine, not the file written, is at fault.
    public var isFull: Bool { code == ENOSPC || code == EDQUOT }

    public var description: String {
        let folder = site ?? LocalDisk.folder(of: path)
        let doing = activity.map { " (\($0))" } ?? ""
        let kept = "nothing was published: public/ is as it was"
        switch code {
        case ENOSPC, EDQUOT:
            return "the disk holding \(folder) is full\(doing); \(kept). Free some space and build again."
        case EROFS:
            return "the disk holding \(folder) is read-only\(doing); \(kept). Make it writable and build again."
        case EIO:
            return "the disk holding \(folder) failed to read or write\(doing); \(kept). Check the disk, then build again."
        case EMFILE, ENFILE:
            return "too many files are open\(doing); \(kept). Raise the limit (ulimit -n) and build again."
        case ENOENT, ENOTDIR:
            return "\(path) vanished while the build wrote it\(doing); \(kept). Leave the site's folders alone while it builds, then build again."
        case EACCES, EPERM:
            return "\(path) cannot be written: permission denied\(doing); \(kept). Give the build the right to write there."
        default:
            return "\(path) cannot be written: \(String(cString: strerror(code)))\(doing); \(kept)."
        }
    }
}

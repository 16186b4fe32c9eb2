import FolioCore
import Foundation

/// Google Takeout's `.zip` or `.tgz` parts unpacked into `content/` as Google laid them out
/// (`Takeout/Google Photos/<album>/…`), the parts of one export merged, for the build to read as
/// an extracted export. Only Google Photos' folder is unpacked: an export of several Google
/// products carries the others too.
///
/// Nothing outside `content/` is written: a member whose path is absolute or climbs out, a link
/// or a device is left in the archive and said so. Each file is written beside its place and
/// renamed there once whole, with its time in the archive, so a file already unpacked (the same
/// size and time) is passed over when a part is unpacked again, and an archive that breaks half
/// way leaves only whole files.
public struct TakeoutArchives {
    public struct Summary: Sendable, Equatable {
        /// Files written, and their bytes.
        public var unpacked = 0
        public var bytes: Int64 = 0
        /// Files already there, the same size and time.
        public var alreadyThere = 0
        /// Files of other Google products (Drive, Mail, …), not unpacked.
        public var otherProducts = 0
        /// Members not unpacked, each with why: links, devices, paths leading out of content/.
        public var leftOut: [BuildIssue] = []
        /// Archives that could not be read, or read to their end, and files that could not be written.
        public var errors: [BuildIssue] = []
    }

    let contentRoot: URL
    let disk: any Disk

    public init(contentRoot: URL, disk: any Disk = LocalDisk()) {
        self.contentRoot = contentRoot
        self.disk = disk
    }

    /// How far into an archive the unpacking is: its name, and the bytes of it read so far.
    public typealias Progress = (_ archive: String, _ bytesRead: Int64) -> Void

    /// Unpacks each archive in turn; one that fails is said so, and the next is unpacked.
    /// `progress` is told after each member.
    public func unpack(_ archives: [URL], progress: Progress? = nil) -> Summary {
        var summary = Summary()
        for archive in archives {
            unpack(archive, into: &summary, progress: progress)
        }
        return summary
    }

    private func unpack(_ url: URL, into summary: inout Summary, progress: Progress?) {
        let shown = url.lastPathComponent
        let reader: ArchiveReader
        do {
            reader = try ArchiveReader(url)
        } catch {
            summary.errors.append(.error(shown, Self.reason(error)))
            return
        }
        var current = ""
        do {
            while let member = try reader.next() {
                current = member.path
                guard let path = Self.place(of: member.path) else {
                    if member.kind == .file { summary.leftOut.append(.warning("\(shown): \(member.path)", "leads outside content/; left out")) }
                    try reader.skip()
                    continue
                }
                guard Self.isGooglePhotos(path) else {
                    if member.kind == .file { summary.otherProducts += 1 }
                    try reader.skip()
                    continue
                }
                switch member.kind {
                case .folder:
                    try reader.skip()
                case .link, .other:
                    summary.leftOut.append(.warning("\(shown): \(member.path)", "is a link or a device, not a file; left out"))
                    try reader.skip()
                case .file:
                    try write(member, at: path, from: reader, into: &summary)
                }
                progress?(shown, reader.bytesRead)
            }
        } catch let failure as DiskFailure {
            summary.errors.append(.error("content/\(current)", failure.description))
        } catch {
            let member = current.isEmpty ? "" : " (at \(current))"
            summary.errors.append(.error(shown, "\(Self.reason(error))\(member); the files before it are unpacked"))
        }
    }

    /// Writes one file, or passes over it when it is there already.
    private func write(_ member: ArchiveReader.Member, at path: String, from reader: ArchiveReader, into summary: inout Summary) throws {
        let target = contentRoot.appendingPathComponent(path).path
        if let modified = member.modified, let there = try? FileManager.default.attributesOfItem(atPath: target),
           (there[.size] as? NSNumber)?.int64Value == member.size,
           let time = there[.modificationDate] as? Date, abs(time.timeIntervalSince(modified)) < 1 {
            summary.alreadyThere += 1
            try reader.skip()
            return
        }
        let folder = contentRoot.appendingPathComponent(RelativePath(path).folder).path
        try disk.makeFolders(folder)
        let part = "\(folder)/.\(RelativePath(path).name).folio-unpacking"
        let descriptor = disk.open(part, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw DiskFailure(errno, part) }
        var written: Int64 = 0
        var failure: Int32 = 0
        do {
            try reader.read { bytes in
                failure = disk.writeAll(descriptor, bytes)
                if failure != 0 { throw DiskFailure(failure, target) }
                written += Int64(bytes.count)
            }
        } catch {
            _ = disk.close(descriptor)
            _ = disk.unlink(part)
            throw error
        }
        if disk.close(descriptor) != 0 { failure = errno }
        if failure == 0, let modified = member.modified {
            var times = [timespec](repeating: timespec(tv_sec: Int(modified.timeIntervalSince1970), tv_nsec: 0), count: 2)
            if utimensat(AT_FDCWD, part, &times, 0) != 0 { failure = errno }
        }
        if failure == 0, disk.rename(part, target) != 0 { failure = errno }
        if failure != 0 {
            _ = disk.unlink(part)
            throw DiskFailure(failure, target)
        }
        summary.unpacked += 1
        summary.bytes += written
    }

    /// The member's place under content/: its path with `.` and empty parts dropped; nil for one
    /// that is absolute, climbs with `..`, or names nothing.
    static func place(of member: String) -> String? {
        guard !member.hasPrefix("/"), !member.contains("\0") else { return nil }
        let parts = member.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        guard !parts.isEmpty, !parts.contains("..") else { return nil }
        return parts.joined(separator: "/")
    }

    /// Whether a path is inside Google Photos' folder: `Takeout/Google Photos/…` (in the export's
    /// language: `Google Fotos`, `Google Zdjęcia`), or an archive that starts at that folder.
    static func isGooglePhotos(_ path: String) -> Bool {
        let parts = path.split(separator: "/").map(String.init)
        if parts.count >= 2, TakeoutNames.isPhotosFolder(parts[0]) { return true }
        return parts.count >= 3 && parts[0].lowercased() == "takeout" && TakeoutNames.isPhotosFolder(parts[1])
    }

    private static func reason(_ error: Error) -> String {
        (error as? ArchiveReader.Failure)?.reason ?? "\(error)"
    }
}

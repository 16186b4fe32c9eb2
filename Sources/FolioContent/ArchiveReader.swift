import CArchive
import Foundation

/// Reads a `.zip` or a `.tgz` (`.tar.gz`, `.tar`) archive member by member, with libarchive; the
/// only Swift type that calls it. It owns one libarchive reader, freed in `deinit`.
final class ArchiveReader {
    /// One member, as its header says.
    struct Member {
        enum Kind { case file, folder, link, other }
        /// As written in the archive: `/`-separated, not yet checked.
        var path: String
        var kind: Kind
        var size: Int64
        var modified: Date?
    }

    private let archive: OpaquePointer

    /// Opens `url` for reading; one that is no archive libarchive reads fails on its first `next()`.
    init(_ url: URL) throws {
        guard let archive = archive_read_new() else { throw ArchiveReader.Failure(reason: "libarchive could not start") }
        self.archive = archive
        archive_read_support_format_zip(archive)
        archive_read_support_format_tar(archive)
        archive_read_support_filter_gzip(archive)
        guard archive_read_open_filename(archive, url.path, 1 << 16) == ARCHIVE_OK else { throw error() }
    }

    deinit { archive_read_free(archive) }

    /// The next member's header, or nil after the last.
    func next() throws -> Member? {
        var entry: OpaquePointer?
        let status = archive_read_next_header(archive, &entry)
        if status == ARCHIVE_EOF { return nil }
        guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else { throw error() }
        let path = archive_entry_pathname_utf8(entry).map { String(cString: $0) }
            ?? archive_entry_pathname(entry).map { String(decoding: Data(bytes: $0, count: strlen($0)), as: UTF8.self) } ?? ""
        let kind: Member.Kind = switch archive_entry_filetype(entry) & 0o170000 {
        case 0o100000: archive_entry_hardlink(entry) == nil ? .file : .link
        case 0o040000: .folder
        case 0o120000: .link
        default: .other
        }
        let modified = archive_entry_mtime_is_set(entry) != 0 ? Date(timeIntervalSince1970: TimeInterval(archive_entry_mtime(entry))) : nil
        return Member(path: path, kind: kind, size: archive_entry_size(entry), modified: modified)
    }

    /// The current member's bytes, handed over a block at a time.
    func read(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
            if count == 0 { return }
            guard count > 0 else { throw error() }
            try buffer.withUnsafeBytes { try sink(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
        }
    }

    /// How many of the archive file's own bytes have been read so far (compressed, for a `.tgz`).
    var bytesRead: Int64 { archive_filter_bytes(archive, -1) }

    /// Passes over the current member's bytes.
    func skip() throws {
        guard archive_read_data_skip(archive) == ARCHIVE_OK else { throw error() }
    }

    private func error() -> ArchiveReader.Failure {
        ArchiveReader.Failure(reason: archive_error_string(archive).map { String(cString: $0) } ?? "not an archive libarchive reads")
    }
}

extension ArchiveReader {
    /// What libarchive says is wrong with an archive, in its words.
    struct Failure: Error {
        var reason: String
    }
}

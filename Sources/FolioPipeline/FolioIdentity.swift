import FolioCore
import Foundation

/// Which Folio is drawing the pages: a hash of the running executable's bytes, so any change to
/// Folio's code counts as a new way of drawing pages, with no version number to remember to
/// raise. Kept in the site's build state, keyed by the file's device, inode, size and
/// modification time, so the same executable is hashed once.
enum FolioIdentity {
    static let cacheName = "folio-identity"

    private static let memo = Memo()

    /// The identity of the running Folio, read from `folder`'s cache when the executable is the
    /// one it was computed for, else computed and kept there (best effort: a folder that cannot be
    /// written only costs the hash again next time).
    static func current(cache folder: URL, disk: any Disk) -> String {
        guard let key = executableKey() else { return "folio \(FolioVersion.number)" }
        let file = folder.appendingPathComponent(cacheName)
        if let text = try? String(contentsOf: file, encoding: .utf8) {
            let parts = text.split(whereSeparator: \.isWhitespace)
            if parts.count == 2, parts[0] == key { return "folio \(FolioVersion.number) \(parts[1])" }
        }
        // A process that builds many sites, or one site many times (folio serve), hashes once.
        guard let hash = memo.value(for: key) ?? executableHash() else { return "folio \(FolioVersion.number)" }
        memo.set(hash, for: key)
        try? disk.makeFolders(folder.path)
        try? disk.writeFile(Data("\(key) \(hash)\n".utf8), to: file.path, atomically: true)
        return "folio \(FolioVersion.number) \(hash)"
    }

    /// What tells one executable file from another without reading it.
    private static func executableKey() -> String? {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    /// The executable's bytes hashed a megabyte at a time (never all in memory at once), and the
    /// hashes of the pieces hashed together.
    private static func executableHash() -> String? {
        let descriptor = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let size = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        var pieces: [UInt64] = []
        while true {
            var filled = 0
            while filled < size {
                let count = read(descriptor, buffer.baseAddress! + filled, size - filled)
                if count < 0 && errno == EINTR { continue }
                if count < 0 { return nil }
                if count == 0 { break }
                filled += count
            }
            if filled == 0 { break }
            pieces.append(ContentHash.hash(UnsafeRawBufferPointer(rebasing: buffer[..<filled])))
            if filled < size { break }
        }
        return pieces.withUnsafeBytes { ContentHash.hexText(ContentHash.hash($0)) }
    }

    private final class Memo: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String: String] = [:]
        func value(for key: String) -> String? { lock.withLock { values[key] } }
        func set(_ value: String, for key: String) { lock.withLock { values[key] = value } }
    }
}

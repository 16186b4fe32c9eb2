import FolioCore
import Foundation

/// A file of `public/`, opened once and read through that descriptor only. A rebuild may put a
/// new site in place while a response is on its way; the descriptor keeps the bytes the headers
/// describe, so a client never gets a length from one build and bytes from the next.
final class PublicFile: Sendable {
    let descriptor: Int32
    /// The real path it was opened at.
    let path: String
    /// Its path under `public/` ("media/ab12-thumb.jpg").
    let relative: String
    let size: Int
    let inode: UInt64
    let modifiedNanoseconds: Int64

    init(descriptor: Int32, path: String, relative: String, info: stat) {
        self.descriptor = descriptor
        self.path = path
        self.relative = relative
        size = Int(info.st_size)
        inode = UInt64(info.st_ino)
        #if canImport(Darwin)
        modifiedNanoseconds = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
        modifiedNanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
    }

    deinit { close(descriptor) }

    var modifiedSeconds: Int { Int(modifiedNanoseconds / 1_000_000_000) }

    /// Reads `range` whole; for pages and small files, where one read beats streaming.
    func read(_ range: Range<Int>) throws -> Data {
        var data = Data(count: range.count)
        var done = 0
        try data.withUnsafeMutableBytes { buffer in
            while done < range.count {
                let got = pread(descriptor, buffer.baseAddress! + done, range.count - done, off_t(range.lowerBound + done))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else {
                    throw FolioError(path: path, reason: got == 0 ? "file shorter than its size" : "cannot read: \(String(cString: strerror(errno)))")
                }
                done += got
            }
        }
        return data
    }
}

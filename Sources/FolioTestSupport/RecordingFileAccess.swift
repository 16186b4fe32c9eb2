import FolioCore
import Foundation

/// The local file system, remembering what was read.
package final class RecordingFileAccess: FileAccess, @unchecked Sendable {
    package init() {}

    private let local = LocalFileAccess()
    private let lock = NSLock()
    private var all: [URL] = []
    package var reads: [URL] { lock.withLock { all } }
    package func reset() { lock.withLock { all = [] } }

    package func read(_ url: URL) throws -> Data {
        lock.withLock { all.append(url) }
        return try local.read(url)
    }
    package func stamp(of url: URL) -> FileStamp? { local.stamp(of: url) }
    package func isFolder(_ url: URL) -> Bool { local.isFolder(url) }
    package func entries(under root: URL) throws -> [FileEntry] { try local.entries(under: root) }
    package func realPath(_ url: URL) -> String { local.realPath(url) }
}

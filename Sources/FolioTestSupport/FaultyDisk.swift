import FolioCore
import Foundation

/// A disk whose k-th change fails as a full or failing disk would, the way SQLite's tests fail
/// its own I/O: every change (a file opened for writing, written, truncated, synced or closed, a
/// link, a rename, a deletion, a folder made or removed) is counted, and the one numbered
/// `failing` (from 1) fails with `code`. With `failing` 0 none fails, and `count` says how many
/// changes a build made.
public final class FaultyDisk: Disk, @unchecked Sendable {
    private let disk = LocalDisk()
    private let lock = NSLock()
    private let failing: Int
    private let code: Int32
    private var changes = 0
    private var failed: String?

    public init(failing: Int = 0, with code: Int32 = ENOSPC) {
        self.failing = failing
        self.code = code
    }

    /// How many changes were asked for so far.
    public var count: Int { lock.withLock { changes } }
    /// What the failed change was, once it failed.
    public var failure: String? { lock.withLock { failed } }

    /// Counts a change; true, with errno set, when it is the one to fail.
    private func fails(_ what: @autoclosure () -> String) -> Bool {
        lock.withLock {
            changes += 1
            guard changes == failing else { return false }
            failed = what()
            return true
        }
    }

    private func refused<Result: BinaryInteger>(_ what: @autoclosure () -> String, _ result: Result) -> Result? {
        guard fails(what()) else { return nil }
        errno = code
        return result
    }

    public func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        let writing = flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC) != 0
        if writing, let refusal = refused("open \(path)", Int32(-1)) { return refusal }
        return disk.open(path, flags, mode)
    }

    public func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        refused("write \(descriptor)", -1) ?? disk.write(descriptor, bytes)
    }

    public func truncate(_ descriptor: Int32, _ length: Int) -> Int32 {
        refused("truncate \(descriptor)", Int32(-1)) ?? disk.truncate(descriptor, length)
    }

    public func sync(_ descriptor: Int32) -> Int32 {
        refused("sync \(descriptor)", Int32(-1)) ?? disk.sync(descriptor)
    }

    /// A close that fails still closes (as close(2) does: the descriptor is gone either way).
    public func close(_ descriptor: Int32) -> Int32 {
        let refusal = refused("close \(descriptor)", Int32(-1))
        let closed = disk.close(descriptor)
        if refusal != nil { errno = code }
        return refusal ?? closed
    }

    public func link(_ source: String, _ target: String) -> Int32 {
        refused("link \(target)", Int32(-1)) ?? disk.link(source, target)
    }

    public func rename(_ source: String, _ target: String) -> Int32 {
        refused("rename \(source) \(target)", Int32(-1)) ?? disk.rename(source, target)
    }

    public func exchange(_ first: String, _ second: String) -> Int32 {
        refused("exchange \(first) \(second)", Int32(-1)) ?? disk.exchange(first, second)
    }

    public func unlink(_ path: String) -> Int32 {
        refused("unlink \(path)", Int32(-1)) ?? disk.unlink(path)
    }

    public func makeFolder(_ path: String) -> Int32 {
        refused("mkdir \(path)", Int32(-1)) ?? disk.makeFolder(path)
    }

    public func removeFolder(_ path: String) -> Int32 {
        refused("rmdir \(path)", Int32(-1)) ?? disk.removeFolder(path)
    }
}

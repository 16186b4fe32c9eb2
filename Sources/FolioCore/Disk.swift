import CSystem
import Foundation

/// Every change a build makes to the disk, one system call each: files opened for writing,
/// written, truncated, synced and closed, links, renames, deletions, folders. One seam, so a test
/// can make any one of them fail as a full or failing disk would (`FileAccess` is the reading side).
/// Each returns what its system call returns: -1 (or a negative count) with errno set on failure.
public protocol Disk: Sendable {
    func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32
    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int
    func truncate(_ descriptor: Int32, _ length: Int) -> Int32
    func sync(_ descriptor: Int32) -> Int32
    func close(_ descriptor: Int32) -> Int32
    func link(_ source: String, _ target: String) -> Int32
    func rename(_ source: String, _ target: String) -> Int32
    /// Swaps two paths in one step (`folio_exchange`).
    func exchange(_ first: String, _ second: String) -> Int32
    func unlink(_ path: String) -> Int32
    func makeFolder(_ path: String) -> Int32
    func removeFolder(_ path: String) -> Int32
}

/// The machine's own disk.
public struct LocalDisk: Disk {
    public init() {}

    public func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { Glibc.open(path, flags, mode) }
    public func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        Glibc.write(descriptor, bytes.baseAddress, bytes.count)
    }
    public func truncate(_ descriptor: Int32, _ length: Int) -> Int32 { ftruncate(descriptor, off_t(length)) }
    public func sync(_ descriptor: Int32) -> Int32 { fsync(descriptor) }
    public func close(_ descriptor: Int32) -> Int32 { Glibc.close(descriptor) }
    public func link(_ source: String, _ target: String) -> Int32 { Glibc.link(source, target) }
    public func rename(_ source: String, _ target: String) -> Int32 { Glibc.rename(source, target) }
    public func exchange(_ first: String, _ second: String) -> Int32 { folio_exchange(first, second) }
    public func unlink(_ path: String) -> Int32 { Glibc.unlink(path) }
    public func makeFolder(_ path: String) -> Int32 { mkdir(path, 0o755) }
    public func removeFolder(_ path: String) -> Int32 { rmdir(path) }
}

import CSystem
import FolioCore
import Foundation

/// The photos of a build's snapshot, kept in a file between builds (`folio-cache/snapshot`) so
/// that the next build reads again only the rows the model changed since.
///
/// The file is used only by the Folio that wrote it (another may pack photos otherwise), for the
/// model it was written for (a token the model keeps: a model restored or copied has another),
/// from the revision it names (`photoChange`, kept by triggers). It is written in blocks, each
/// with its XXH64, ending with an empty one, beside its place and renamed there: a damaged or cut
/// file is refused whole (every row is read), and the file a snapshot reads never changes under it.
package enum KeptSnapshot {
    /// Where the file is, and which Folio reads it.
    package struct Place: Sendable {
        var url: URL
        var folio: String
        /// Where the file is written.
        var disk: any Disk = LocalDisk()

        package init(url: URL, folio: String, disk: any Disk = LocalDisk()) {
            self.url = url
            self.folio = folio
            self.disk = disk
        }
    }

    package struct Header {
        var folio: String
        var token: String
        var revision: Int64
        var count: Int
    }

    static let magic = Array("folio-snapshot 1\n".utf8)
    /// Photos are written a block at a time, about this many bytes each.
    static let blockSize = 1 << 20
    /// A block's length and hash, before its bytes.
    private static let blockHeader = 16

    /// Writes `photos` (`GalleryPhoto.keep(into:folder:)` and each one's record) into a new file
    /// beside `url`, and once it is whole does `before`, then puts it in the old one's place.
    /// One build writes at a time (the site's lock): a file left half-written by a build that
    /// was stopped is written over by the next.
    static func write(_ photos: PhotoRows, header: Header, to url: URL, disk: any Disk, before: () throws -> Void) throws {
        try disk.makeFolders(url.deletingLastPathComponent().path)
        let partial = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial").path
        let descriptor = disk.open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw DiskFailure(errno, partial) }
        let handle = Handle(disk: disk, descriptor: descriptor, path: partial)
        do {
            defer { handle.close() }
            try handle.write(magic)
            var block = PackedWriter()
            block.text(header.folio)
            block.text(header.token)
            block.number(header.revision)
            block.number(Int64(header.count))
            try write(&block, to: handle)
            // One string for each folder: its number, or the next number and the string itself.
            var folders: [String: Int64] = [:]
            for photo in photos {
                var folder: Int64 = -1
                var new: String?
                if let name = photo.folder {
                    if let known = folders[name] {
                        folder = known
                    } else {
                        folder = Int64(folders.count)
                        folders[name] = folder
                        new = name
                    }
                }
                photo.keep(into: &block, folder: folder)
                if let new { block.text(new) }
                photo.withRecord { bytes in
                    block.number(Int64(bytes.count))
                    block.bytes.append(contentsOf: bytes)
                }
                if block.bytes.count >= blockSize { try write(&block, to: handle) }
            }
            if !block.bytes.isEmpty { try write(&block, to: handle) }
            try write(&block, to: handle)  // the empty block that ends the file
            try handle.sync()
            try before()
            guard disk.rename(partial, url.path) == 0 else { throw DiskFailure(errno, url.path) }
        } catch {
            _ = disk.unlink(partial)
            throw error
        }
    }

    /// An open file the snapshot is written into through the disk.
    private struct Handle {
        let disk: any Disk
        let descriptor: Int32
        let path: String

        func write(_ bytes: [UInt8]) throws {
            let failure = bytes.withUnsafeBytes { disk.writeAll(descriptor, $0) }
            if failure != 0 { throw DiskFailure(failure, path) }
        }

        func sync() throws {
            if disk.sync(descriptor) != 0 { throw DiskFailure(errno, path) }
        }

        func close() { _ = disk.close(descriptor) }
    }

    /// Writes `block` with its length and hash, and empties it.
    private static func write(_ block: inout PackedWriter, to handle: Handle) throws {
        var head = PackedWriter()
        head.bits(UInt64(block.bytes.count))
        head.bits(block.bytes.withUnsafeBytes { ContentHash.hash($0) })
        try handle.write(head.bytes + block.bytes)
        block.bytes.removeAll(keepingCapacity: true)
    }

    /// A kept file, open, its header read and sound.
    final class File {
        let header: Header
        private let descriptor: Int32
        /// Where the photos' blocks start, and the file's size.
        private let start: Int
        private let size: Int

        /// The file at `url`; nil when there is none or it is not one.
        init?(_ url: URL) {
            let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            self.descriptor = descriptor
            var status = stat()
            size = fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
            var magic = [UInt8](repeating: 0, count: KeptSnapshot.magic.count)
            let got = magic.withUnsafeMutableBytes { PackedStore.read(descriptor, into: $0, at: 0) }
            var block: [UInt8] = []
            guard got == magic.count, magic == KeptSnapshot.magic,
                  let next = Self.block(descriptor, at: got, size: size, into: &block), !block.isEmpty
            else {
                close(descriptor)
                return nil
            }
            header = block.withUnsafeBytes { bytes in
                var read = PackedReader(bytes)
                return Header(folio: read.text(), token: read.text(), revision: read.number(), count: Int(read.number()))
            }
            start = next
        }

        deinit {
            if descriptor >= 0 { close(descriptor) }
        }

        /// Calls `each` with each photo of the file: what it keeps beside its record, its
        /// folder, and where its record is in `store` (a store reading this file). False when a
        /// block does not hold or the file is cut short: then nothing it gave is to be used.
        func photos(_ each: (GalleryPhoto.Kept, String?, PackedStore, Int) -> Void) -> Bool {
            // A descriptor of its own: the store outlives this.
            let again = dup(descriptor)
            guard again >= 0 else { return false }
            let store = PackedStore(reading: again, size: size)
            var block: [UInt8] = []
            var folders: [String] = []
            var at = start
            var count = 0
            while let next = Self.block(descriptor, at: at, size: size, into: &block) {
                guard !block.isEmpty else { return count == header.count }
                let base = at + KeptSnapshot.blockHeader
                block.withUnsafeBytes { bytes in
                    var read = PackedReader(bytes)
                    while read.position < bytes.count {
                        let kept = GalleryPhoto.Kept.read(&read)
                        var folder: String?
                        if kept.folder >= 0 {
                            if kept.folder == Int64(folders.count) { folders.append(read.text()) }
                            folder = folders[Int(kept.folder)]
                        }
                        let offset = base + read.position
                        read.skip(Int(read.number()))
                        each(kept, folder, store, offset)
                        count += 1
                    }
                }
                at = next
            }
            return false
        }

        /// The block at `offset` into `bytes`, when it is whole (within the file's `size`) and
        /// holds its hash; where the next starts. Nil for one that is not.
        private static func block(_ descriptor: Int32, at offset: Int, size: Int, into bytes: inout [UInt8]) -> Int? {
            var head = [UInt8](repeating: 0, count: KeptSnapshot.blockHeader)
            guard head.withUnsafeMutableBytes({ PackedStore.read(descriptor, into: $0, at: offset) }) == head.count else { return nil }
            let (length, hash) = head.withUnsafeBytes { bytes in
                var read = PackedReader(bytes)
                return (read.bits(), read.bits())
            }
            let start = offset + KeptSnapshot.blockHeader
            // A length the file cannot hold (a damaged one) is not room to be made.
            guard length <= UInt64(max(0, size - start)) else { return nil }
            bytes = [UInt8](repeating: 0, count: Int(length))
            guard bytes.withUnsafeMutableBytes({ PackedStore.read(descriptor, into: $0, at: start) }) == bytes.count,
                  bytes.withUnsafeBytes({ ContentHash.hash($0) }) == hash
            else { return nil }
            return start + bytes.count
        }
    }
}

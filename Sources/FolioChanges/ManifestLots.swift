import CSystem
import FolioCore
import Foundation

/// Entries in the order of their paths, handed on one at a time: what a merge of manifests
/// reads (`PageManifest.merge(_:_:)`).
protocol ManifestRun {
    /// The next entry, its path's bytes put in `path` (its room used again); nil past the last.
    mutating func next(path: inout [UInt8]) -> PageManifest.Stored?
}

/// The entries a build adds to its manifest, put out of memory as they come: a lot at a time,
/// each in order, in a file of no name beside the build's state (gone with the lots, however
/// Folio stops), read back as runs to merge. A large site's cold build adds an entry for every
/// page, which held to the render's end would be its peak. Which paths the lots have is kept
/// as their hashes (`PathHashes.hash`), eight bytes a page.
/// One writer appends and then `finish()`es; after that any number of readers, on any thread.
final class ManifestLots: @unchecked Sendable {
    private let file: Int32
    /// Where each lot is in the file.
    private var lots: [Range<Int>] = []
    private var size = 0
    private var hashes: [UInt64] = []

    /// Lots in a file made in `folder`; nil when none can be made there.
    init?(folder: String) {
        file = folio_unnamed_file(folder)
        guard file >= 0 else { return nil }
    }

    deinit {
        close(file)
    }

    var isEmpty: Bool { lots.isEmpty }

    /// Room for the hashes of `count` paths in all.
    func reserveCapacity(_ count: Int) {
        hashes.reserveCapacity(count)
    }

    /// Writes `lot`'s entries (in order) after the last lot's; false when the file cannot take
    /// them, and then none of them is in the lots.
    func append(_ lot: PageManifest) -> Bool {
        var run = lot.run()
        var (path, out, offset) = ([UInt8](), [UInt8](), size)
        out.reserveCapacity(Self.piece)
        var lotHashes: [UInt64] = []
        lotHashes.reserveCapacity(lot.count)
        while let entry = run.next(path: &path) {
            withUnsafeBytes(of: entry.checksum.littleEndian) { out.append(contentsOf: $0) }
            withUnsafeBytes(of: entry.input.littleEndian) { out.append(contentsOf: $0) }
            withUnsafeBytes(of: entry.changed.bitPattern.littleEndian) { out.append(contentsOf: $0) }
            withUnsafeBytes(of: UInt32(path.count).littleEndian) { out.append(contentsOf: $0) }
            out.append(contentsOf: path)
            lotHashes.append(path.withUnsafeBytes { PathHashes.hash($0) })
            if out.count >= Self.piece {
                guard PackedStore.write(out, to: file, at: offset) else { return false }
                offset += out.count
                out.removeAll(keepingCapacity: true)
            }
        }
        guard PackedStore.write(out, to: file, at: offset) else { return false }
        offset += out.count
        lots.append(size..<offset)
        size = offset
        hashes += lotHashes
        return true
    }

    /// Done appending: the paths' hashes put in order, to be looked in.
    func finish() {
        hashes.sort()
    }

    /// Whether a lot has `path` (`finish()` done).
    func contains(_ path: String) -> Bool {
        hashes.sortedIndex(of: PathHashes.hash(path)) != nil
    }

    /// Each lot as a run, in the order they were appended.
    var runs: [any ManifestRun] {
        lots.map { LotRun(lots: self, range: $0) }
    }

    /// How much is written or read at once.
    private static let piece = 1 << 16
    /// An entry's bytes before its path's: its checksum, input and time, and the path's length.
    private static let header = 28

    /// A lot read back a piece at a time.
    private struct LotRun: ManifestRun {
        let lots: ManifestLots
        /// Where the next entry starts in the file, and where the lot ends.
        var offset: Int
        let end: Int
        /// Bytes read from the file, the next entry's from `at` on.
        var buffer: [UInt8] = []
        var at = 0

        init(lots: ManifestLots, range: Range<Int>) {
            self.lots = lots
            offset = range.lowerBound
            end = range.upperBound
        }

        mutating func next(path: inout [UInt8]) -> PageManifest.Stored? {
            guard offset < end else { return nil }
            need(ManifestLots.header)
            let (checksum, input, changed, count) = buffer.withUnsafeBytes { raw in
                (UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)),
                 UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self)),
                 UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at + 16, as: UInt64.self)),
                 Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at + 24, as: UInt32.self))))
            }
            let length = ManifestLots.header + count
            need(length)
            path.removeAll(keepingCapacity: true)
            path.append(contentsOf: buffer[(at + ManifestLots.header)..<(at + length)])
            at += length
            offset += length
            return PageManifest.Stored(checksum: checksum, input: input, changed: Double(bitPattern: changed))
        }

        /// Reads on until `count` bytes from `at` are in the buffer.
        private mutating func need(_ count: Int) {
            guard buffer.count - at < count else { return }
            buffer.removeSubrange(..<at)
            at = 0
            let held = buffer.count
            let more = min(max(ManifestLots.piece, count) - held, end - offset - held)
            buffer.append(contentsOf: repeatElement(0, count: more))
            let got = buffer.withUnsafeMutableBytes { raw in
                PackedStore.read(lots.file, into: UnsafeMutableRawBufferPointer(rebasing: raw[held...]), at: offset + held)
            }
            precondition(got == more && buffer.count >= count, "a lot of the manifest's own file could not be read back")
        }
    }
}

import FolioCore
import Foundation

/// A lot of a manifest's entries put in order and written out (`PackedStore`, which past a few
/// megabytes keeps them in a file of no name), so that a build making a page for each of a large
/// library's photos does not hold them all until its end (`NextManifest`). Read back in order a
/// block at a time; asked whether it has a path by the paths' hashes (`PathHashes`: a false yes
/// only keeps a file a build would have deleted).
final class ManifestRun: Sendable {
    private let store: PackedStore
    /// Where each block of entries is in `store`, in order.
    private let blocks: [Int]
    private let hashes: PathHashes

    /// How many entries a block holds.
    static let blockSize = 256

    /// The entries of `manifest`, which must be in order.
    init(_ manifest: PageManifest, spillingInto folder: String?) {
        store = PackedStore(spillingInto: folder)
        var blocks: [Int] = []
        var paths: [String] = []
        paths.reserveCapacity(manifest.count)
        for start in stride(from: 0, to: manifest.count, by: Self.blockSize) {
            blocks.append(store.append { record in
                for position in start..<min(start + Self.blockSize, manifest.count) {
                    let path = manifest.pathBytes(at: position), entry = manifest[entryAt: position]
                    record.number(Int64(path.count))
                    record.bytes.append(contentsOf: path)
                    record.bits(entry.checksum)
                    record.bits(entry.input)
                    record.bits((entry.changed?.timeIntervalSince1970 ?? .nan).bitPattern)
                    paths.append(String(decoding: path, as: UTF8.self))
                }
            })
        }
        store.seal()
        self.blocks = blocks
        hashes = PathHashes(paths)
    }

    func contains(_ path: String) -> Bool {
        hashes.contains(path)
    }

    /// The block at `number` (from 0), its entries in order.
    func block(_ number: Int) -> [(path: [UInt8], entry: PageManifest.Entry)]? {
        guard blocks.indices.contains(number) else { return nil }
        return store.withRecord(at: blocks[number]) { bytes in
            var read = PackedReader(bytes)
            var entries: [(path: [UInt8], entry: PageManifest.Entry)] = []
            while read.position < bytes.count {
                let count = Int(read.number())
                let path = Array(bytes[read.position..<(read.position + count)])
                read.skip(count)
                let (checksum, input, changed) = (read.bits(), read.bits(), Double(bitPattern: read.bits()))
                entries.append((path, PageManifest.Entry(checksum: checksum, input: input,
                                                         changed: changed.isNaN ? nil : Date(timeIntervalSince1970: changed))))
            }
            return entries
        }
    }
}

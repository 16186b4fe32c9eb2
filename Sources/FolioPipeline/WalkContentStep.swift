import FolioCore
import Foundation

/// content/ as the walk finds it: every file's path, size and modification time, and one number
/// for all of them, by which a build tells in a walk that nothing under content/ moved since
/// the last build (see `BuildMark.upToDate(_:now:content:environment:)`).
struct ContentWalk: StepOutput {
    var listing: FolderListing
    /// Nil when the walk alone cannot vouch for content/: a link (what it leads to may change
    /// while the link does not), a folder that would not open, a file whose stamp the walk did
    /// not learn. Such a site reads its catalogs and looks its photos up on every build.
    var digest: UInt64?

    /// `sourceDateEpoch` counts as content: a photo's date may be it (`ImportStep.uploaded`).
    init(listing: FolderListing, sourceDateEpoch: Date? = nil) {
        self.listing = listing
        digest = Self.digest(of: listing, sourceDateEpoch: sourceDateEpoch)
    }

    static func digest(of listing: FolderListing, sourceDateEpoch: Date? = nil) -> UInt64? {
        guard listing.unreadable.isEmpty else { return nil }
        // Hashed a buffer at a time (`ContentHash.Stream`, the same number): the bytes of every
        // file's path and stamp are never made whole.
        var hash = ContentHash.Stream()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 << 16)
        if let epoch = sourceDateEpoch {
            withUnsafeBytes(of: epoch.timeIntervalSince1970.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
        let files = listing.entries
        for index in files.indices {
            guard !files.isLink(at: index), let stamp = files.stamp(at: index) else { return nil }
            files.withPathBytes(at: index) { bytes.append(contentsOf: $0) }
            bytes.append(0)
            withUnsafeBytes(of: Int64(stamp.size).littleEndian) { bytes.append(contentsOf: $0) }
            withUnsafeBytes(of: stamp.modified.timeIntervalSince1970.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            if bytes.count >= (1 << 16) - 4_096 {
                bytes.withUnsafeBytes { hash.add($0) }
                bytes.removeAll(keepingCapacity: true)
            }
        }
        bytes.withUnsafeBytes { hash.add($0) }
        return hash.value
    }
}

/// Walks content/ (`readdir`, each file's stamp taken from the folder being read).
struct WalkContentStep: BuildStep {
    static let name = "walk content"
    static let activity = "reading content/"

    func run(_ site: ConfiguredSite, in run: BuildRun) async throws -> ContentWalk {
        ContentWalk(listing: try run.files.listing(under: site.paths.content), sourceDateEpoch: run.options.sourceDateEpoch)
    }
}

import FolioChanges
import FolioCore
import FolioSite
import Foundation

/// The search index written into the new site as it is made, file by file, by the pages step,
/// so its photo shards are never held until the render step.
final class SearchFiles: @unchecked Sendable {
    private let output: PublicOutput
    private let previous: PageManifest
    private let now: Date
    private let lock = NSLock()
    /// The entries of the files written, packed (a path and 32 bytes each): a large site's index
    /// has a file for every twenty photos, and these are held at the pages step's peak.
    private var entries = PageManifest()
    private var failure: (any Error)?

    init(output: PublicOutput, previous: PageManifest, now: Date) {
        self.output = output
        self.previous = previous
        self.now = now
    }

    /// Writes the index of `builder`'s photos (numbered by `SiteBuilder.searchNumbering`, worked
    /// out here, on the index's own core), and keeps its postings in `state`. When only the photos
    /// at `changed` may be found by other words or show other rows (nil when any may), and the
    /// state's postings (`state.search()`, read only then) are those of the word files in place,
    /// the index is the last one updated (`SiteBuilder.searchMoves`): the photos that changed,
    /// came, went or moved taken out and put back, a part of the postings at a time, and only
    /// their shards and the word files of their words made (and the identifier buckets, when any
    /// came, went or moved); the last build's photos are found by position, or by identity
    /// (`lastIdentities`, the last site digest's). The rest are the last build's files, taken
    /// over. Otherwise (postings kept by a build that failed after keeping them, say, or cut
    /// short, or in too few parts for the photos now: `SearchIndex.updates(parts:photos:)`; or
    /// too many photos to put back: `updates(puttingBack:)`) every file is made, and only those
    /// that differ from the last build's are written.
    /// Returns the manifest's entries for its files; throws what stopped one being written.
    static func make(_ builder: SiteBuilder, changed: Set<Int>?, lastIdentities: [UInt64]?,
                     state: BuildState, output: PublicOutput, previous: PageManifest, now: Date) throws -> PageManifest {
        var files = SearchFiles(output: output, previous: previous, now: now)
        // A whole index's words wait, as the photos come, in a file beside the model, and its
        // postings' parts once made.
        let spill = state.folder.path
        var updated: SearchIndex?
        let numbering = builder.searchNumbering()
        if let changed, let last = state.search(), Self.digest(of: last.writtenFiles, in: { previous[$0] }) == last.files,
           SearchIndex.updates(parts: last.parts, photos: numbering.numbers.count),
           let moves = builder.searchMoves(since: last, lastIdentities: lastIdentities, changed: changed, numbering: numbering),
           SearchIndex.updates(puttingBack: moves.putBack) {
            updated = builder.searchIndex(updating: moves, last: last, numbering: numbering, emit: files.write, spillingInto: spill)
        }
        let made: SearchIndex
        if let updated, updated.kept.allSatisfy({ output.reuse($0) }) {
            made = updated
        } else {
            // No update, or one that could not read the last postings whole, or found a file the
            // last build made (the pages step saw it in the manifest) not there to take over:
            // every file is made.
            files = SearchFiles(output: output, previous: previous, now: now)
            made = builder.searchIndex(numbering: numbering, emit: files.write, spillingInto: spill)
        }
        let entries = try files.finish(kept: made.kept)
        if let postings = made.postings, let digest = Self.digest(of: postings.writtenFiles, in: { entries[$0] }) {
            try state.save(search: postings, files: digest)
        }
        return entries
    }

    /// One number for the files postings were written as (`KeptPostings.writtenFiles`): each
    /// one's checksum as `manifest` has it. Nil when one is not in it.
    package static func digest(of written: [String], in manifest: (String) -> PageManifest.Entry?) -> UInt64? {
        var checksums: [UInt64] = []
        for path in written {
            guard let entry = manifest(path), !entry.isPage else { return nil }
            checksums.append(entry.checksum)
        }
        return checksums.withUnsafeBytes { ContentHash.hash($0) }
    }

    /// Writes one file of the index, unless it is the last build's, byte for byte.
    func write(_ file: SearchIndex.File) {
        lock.withLock {
            guard failure == nil else { return }
            do {
                entries[file.path] = try RenderStep.write(file.data, to: file.path, last: previous[file.path], output: output, now: now)
            } catch {
                failure = error
            }
        }
    }

    private func finish(kept: [String]) throws -> PageManifest {
        try lock.withLock {
            if let failure { throw failure }
            for path in kept { entries[path] = previous[path] }
            entries.sort()
            return entries
        }
    }
}

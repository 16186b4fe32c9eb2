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
    private var entries: [String: PageManifest.Entry] = [:]
    private var failure: (any Error)?

    init(output: PublicOutput, previous: PageManifest, now: Date) {
        self.output = output
        self.previous = previous
        self.now = now
    }

    /// Writes the index of `builder`'s photos, numbered by `numbering`, and keeps its postings in
    /// `state`. When the photos are in the same order as the last build's and only those at
    /// `changed` may differ (nil when any may), and the state's postings (`last`, asked only then:
    /// `state.search()`, or read before) say they were numbered as now, only their photo shards
    /// are made; and when those postings are those of the word files in place, only the word
    /// files of the words the changed photos had or have. The rest, and every identifier bucket,
    /// are the last build's files, taken over. Otherwise every file is made, and only those that
    /// differ from the last build's are written. Returns the manifest's entries for its files;
    /// throws what stopped one being written.
    static func make(_ builder: SiteBuilder, numbering: SearchNumbering, changed: Set<Int>?,
                     last: () async -> (postings: SearchPostings, files: UInt64)?,
                     state: BuildState, output: PublicOutput, previous: PageManifest, now: Date) async throws -> [String: PageManifest.Entry] {
        var files = SearchFiles(output: output, previous: previous, now: now)
        // A whole index's words wait, as the photos come, in a file beside the model.
        let spill = state.folder.path
        var index: SearchIndex
        var lastPostings = changed == nil ? nil : await last()
        let numberedAsNow = lastPostings.map { $0.postings.photoCount == builder.ordered.count && $0.postings.numbering == numbering.digest }
            ?? false
        // Taken, not copied: a large library's postings are large, and updated in place.
        if let changed, numberedAsNow, let (postings, digest) = lastPostings.take(), Self.digest(of: postings, in: { previous[$0] }) == digest {
            index = builder.searchIndex(changing: changed, last: consume postings, numbering: numbering, emit: files.write)
        } else {
            lastPostings = nil
            let shards = numberedAsNow ? changed.map { Set($0.map(numbering.shard(of:))) } : nil
            index = builder.searchIndex(numbering: numbering, remaking: shards, emit: files.write, spillingInto: spill)
        }
        if index.kept.contains(where: { !output.reuse($0) }) {
            // A file the last build made (the pages step saw it in the manifest) is not there to
            // take over: every one is made.
            files = SearchFiles(output: output, previous: previous, now: now)
            index = builder.searchIndex(numbering: numbering, emit: files.write, spillingInto: spill)
        }
        let entries = try files.finish(kept: index.kept)
        if let postings = index.postings, let digest = Self.digest(of: postings, in: { entries[$0] }) {
            try state.save(search: postings, files: digest)
        }
        return entries
    }

    /// One number for the files `postings` were written as (`SearchPostings.writtenFiles`): each
    /// one's checksum as `manifest` has it. Nil when one is not in it.
    package static func digest(of postings: SearchPostings, in manifest: (String) -> PageManifest.Entry?) -> UInt64? {
        var checksums: [UInt64] = []
        for path in postings.writtenFiles {
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

    private func finish(kept: [String]) throws -> [String: PageManifest.Entry] {
        try lock.withLock {
            if let failure { throw failure }
            for path in kept { entries[path] = previous[path] }
            return entries
        }
    }
}

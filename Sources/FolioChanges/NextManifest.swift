import FolioCore
import Foundation

/// The page manifest a build leaves, made in the place of the last build's: a page drawn again
/// has its entry replaced where it is, a new page is added beside, and which of the last build's
/// pages this build made is a bit each, so no step holds two whole manifests. Asked for an entry
/// (`last(_:)`), it answers with the last build's until this build sets one at that path.
package struct NextManifest: Sendable {
    /// The last build's manifest, in order, its entries replaced as this build sets them.
    private var base: PageManifest
    /// One bit for each of `base`'s entries: set by this build.
    private var made: [UInt64]
    /// The entries at paths `base` does not have, set since the last lot of them was written out.
    private var added = PageManifest()
    /// The lots written out, each once `added` held `spill.every` entries: read back merged (a
    /// later lot's entry at a path, and `added`'s, over an earlier one's).
    private var runs: [ManifestRun] = []
    private let spill: (folder: String?, every: Int)?

    /// How many entries at new paths a build holds before it writes them out, when it may.
    package static let held = 1 << 16

    /// With `spill`, the entries at new paths are written out in lots of `every`, into files in
    /// `folder` (see `ManifestRun`); without, all are held.
    package init(last: PageManifest = PageManifest(), spill: (folder: String?, every: Int)? = nil) {
        base = last
        base.sort()
        made = Array(repeating: 0, count: (base.count + 63) / 64)
        self.spill = spill
    }

    /// A manifest made whole, as a build leaves it.
    package init(made: PageManifest) {
        self.init()
        added = made
        added.sort()
    }

    /// Whether the last build left no manifest (or one this build cannot read).
    package var lastIsEmpty: Bool { base.isEmpty }

    /// How many lots of entries were written out (tests).
    package var lotsWrittenOut: Int { runs.count }

    /// The paths of the last build's pages and files, in order.
    package var lastPaths: some Sequence<String> { base.paths }

    /// The entry the last build left at `path` (see the type).
    package func last(_ path: String) -> PageManifest.Entry? {
        base[path]
    }

    /// Where the last build's entry at `path` is, for `entry(at:)` and `set(_:at:_:)`: the
    /// positions stay where they are as entries are set.
    package func position(of path: String) -> Int? {
        base.position(of: path)
    }

    /// As `position(of:)`, looked for from `hint` on (`PageManifest.position(of:after:)`).
    package func position(of path: String, after hint: Int?) -> Int? {
        hint.map { base.position(of: path, after: $0) } ?? base.position(of: path)
    }

    package func entry(at position: Int) -> PageManifest.Entry {
        base[entryAt: position]
    }

    /// Sets the entry this build leaves at `path`.
    package mutating func set(_ path: String, _ entry: PageManifest.Entry) {
        set(path, at: nil, entry)
    }

    /// Sets the entry at `path`, which is at `position` (`position(of:)`; nil: looked for).
    package mutating func set(_ path: String, at position: Int?, _ entry: PageManifest.Entry) {
        if let position = position ?? base.position(of: path) {
            base.replace(at: position, with: entry)
            made[position / 64] |= 1 << UInt64(position % 64)
        } else {
            added[path] = entry
            if let spill, added.count >= spill.every {
                added.sort()
                runs.append(ManifestRun(added, spillingInto: spill.folder))
                added = PageManifest()
            }
        }
    }

    /// Whether this build set an entry at `path`.
    package func has(_ path: String) -> Bool {
        if let position = base.position(of: path) { return isMade(position) }
        return added[path] != nil || runs.contains { $0.contains(path) }
    }

    private func isMade(_ position: Int) -> Bool {
        made[position / 64] & (1 << UInt64(position % 64)) != 0
    }

    /// Room for a build of `pages` pages and files: the entries at paths the last build's
    /// manifest does not have (a cold build's, all of them). Grown one page at a time instead,
    /// a large site's paths were made again at twice their room near the render's end, a copy
    /// of every path beside them.
    package mutating func reserveCapacity(pages: Int) {
        added.reserveCapacity(min(max(0, pages - base.count), spill?.every ?? .max))
    }

    /// Puts the entries added in order: done once this build has set its last.
    package mutating func finish() {
        added.sort()
    }

    /// Every entry this build set, with its path, in the order of the paths (`finish()` done).
    package func forEach(_ body: (String, PageManifest.Entry) throws -> Void) rethrows {
        guard !runs.isEmpty else { return try base.merged(keeping: isMade, with: added, body) }
        try mergedWithRuns { path, entry in try body(String(decoding: path, as: UTF8.self), entry) }
    }

    /// The manifest this build leaves, handed to `write` a piece at a time as `PageManifest`
    /// writes it, without being made whole (`finish()` done).
    package func encode(to write: @escaping (UnsafeRawBufferPointer) -> Void) {
        guard !runs.isEmpty else { return base.encode(keeping: isMade, with: added, to: write) }
        var file = LedgerWriter(sink: write)
        mergedWithRuns { path, entry in PageManifest.writeLine(path, entry, into: &file) }
        file.finish()
    }

    /// Every entry this build set, in the order of the paths, from `base`, the lots written out
    /// and `added` at once: at each path the entry set last (`added`'s, then the latest lot's,
    /// then `base`'s).
    private func mergedWithRuns(_ body: ([UInt8], PageManifest.Entry) throws -> Void) rethrows {
        // Each source's next entry; the sources in the order their entries were set.
        var sources: [Source] = [Source(base: base, keeping: isMade)] + runs.map(Source.init) + [Source(base: added, keeping: { _ in true })]
        while true {
            var first: Int?
            for index in sources.indices {
                guard let head = sources[index].head else { continue }
                if let at = first, let least = sources[at].head, !head.path.lexicographicallyPrecedes(least.path),
                   head.path != least.path { continue }
                first = index
            }
            guard let at = first, let (path, entry) = sources[at].head else { return }
            try body(path, entry)
            for index in sources.indices where sources[index].head?.path == path { sources[index].advance() }
        }
    }

    /// The entries of a manifest or of a lot written out, one at a time in order.
    private struct Source {
        private(set) var head: (path: [UInt8], entry: PageManifest.Entry)?
        private let next: () -> (path: [UInt8], entry: PageManifest.Entry)?

        init(base: PageManifest, keeping keep: @escaping (Int) -> Bool) {
            var position = 0
            next = {
                while position < base.count, !keep(position) { position += 1 }
                guard position < base.count else { return nil }
                defer { position += 1 }
                return (base.pathBytes(at: position), base[entryAt: position])
            }
            head = next()
        }

        init(_ run: ManifestRun) {
            var (block, entries, at) = (0, [(path: [UInt8], entry: PageManifest.Entry)](), 0)
            next = {
                while at == entries.count {
                    guard let read = run.block(block) else { return nil }
                    (entries, at, block) = (read, 0, block + 1)
                }
                defer { at += 1 }
                return entries[at]
            }
            head = next()
        }

        mutating func advance() {
            head = next()
        }
    }

    /// The manifest this build leaves, made whole.
    package var manifest: PageManifest {
        var whole = PageManifest()
        forEach { whole[$0] = $1 }
        return whole
    }
}

/// A `NextManifest` the render step's chunks look in and set entries in, each on its own core,
/// made by the pages step from the last build's manifest and held by no one else, so that its
/// entries are replaced where they are rather than in a copy. Looked in side by side (a read
/// lock), set one chunk at a time (the write lock), by the positions found.
package final class SharedManifest: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
    private var next: NextManifest

    /// With `folder`, the entries at new paths are written out into files there once they are
    /// `NextManifest.held` (a cold build's are a page for each photo); without, all are held.
    package init(last: PageManifest, spillingInto folder: String? = nil) {
        next = NextManifest(last: last, spill: folder.map { ($0, NextManifest.held) })
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    private func reading<T>(_ body: () -> T) -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return body()
    }

    private func writing<T>(_ body: () -> T) -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return body()
    }

    /// Where the last build's entries at `paths` are, and those entries, under one lock: each
    /// looked for from where the one before was found, as paths in order are a row or a few on.
    package func last(_ paths: [String]) -> [(position: Int?, entry: PageManifest.Entry?)] {
        reading {
            var hint: Int?
            return paths.map { path in
                guard let position = next.position(of: path, after: hint) else { return (nil, nil) }
                hint = position
                return (position, next.entry(at: position))
            }
        }
    }

    /// Where the last build's entry at `path` is, and that entry (`NextManifest.last(_:)`).
    package func last(_ path: String) -> (position: Int?, entry: PageManifest.Entry?) {
        reading {
            guard let position = next.position(of: path) else { return (nil, nil) }
            return (position, next.entry(at: position))
        }
    }

    package func set(_ path: String, _ entry: PageManifest.Entry) {
        writing { next.set(path, entry) }
    }

    /// `NextManifest.reserveCapacity(pages:)`.
    package func reserveCapacity(pages: Int) {
        writing { next.reserveCapacity(pages: pages) }
    }

    /// Sets a chunk's entries, each at the position `last(_:)` found for its path.
    package func set(_ entries: [(path: String, position: Int?, entry: PageManifest.Entry)]) {
        writing {
            for (path, position, entry) in entries { next.set(path, at: position, entry) }
        }
    }

    /// The manifest made, handed over (not copied) and finished; this one is left empty.
    package func take() -> NextManifest {
        writing {
            var taken = NextManifest()
            swap(&taken, &next)
            taken.finish()
            return taken
        }
    }
}

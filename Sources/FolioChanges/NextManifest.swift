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
    /// The entries at paths `base` does not have, up to `lotSize` of them; past that they are
    /// put in `lots`, when there are lots.
    private var added = PageManifest()
    private var lots: ManifestLots?
    private var lotSize: Int

    /// How many entries at new paths are held before they go to the lots: a cold build of a
    /// large site adds one for every page.
    package static let lotSize = 1 << 16

    /// `spillingInto`: the folder the entries at new paths go into past `lotSize` of them (nil:
    /// all are held).
    package init(last: PageManifest = PageManifest(), spillingInto folder: String? = nil, lotSize: Int = NextManifest.lotSize) {
        base = last
        base.sort()
        made = Array(repeating: 0, count: (base.count + 63) / 64)
        lots = folder.flatMap(ManifestLots.init(folder:))
        self.lotSize = lots == nil ? .max : lotSize
    }

    /// A manifest made whole, as a build leaves it.
    package init(made: PageManifest) {
        self.init()
        added = made
        added.sort()
    }

    /// Whether the last build left no manifest (or one this build cannot read).
    package var lastIsEmpty: Bool { base.isEmpty }

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
            if added.count >= lotSize { putAddedInLot() }
        }
    }

    /// The entries added put in a lot, in order; kept held when the lots' file cannot take them,
    /// and so are those added after.
    private mutating func putAddedInLot() {
        added.sort()
        if let lots, lots.append(added) {
            added.removeAll()
        } else {
            lotSize = .max
        }
    }

    /// Whether this build set an entry at `path` (`finish()` done).
    package func has(_ path: String) -> Bool {
        if let position = base.position(of: path) { return isMade(position) }
        return added[path] != nil || lots?.contains(path) == true
    }

    private func isMade(_ position: Int) -> Bool {
        made[position / 64] & (1 << UInt64(position % 64)) != 0
    }

    /// Room for a build of `pages` pages and files: the entries at paths the last build's
    /// manifest does not have (a cold build's, all of them), or a lot's. Grown one page at a
    /// time instead, a large site's paths were made again at twice their room near the render's
    /// end, a copy of every path beside them.
    package mutating func reserveCapacity(pages: Int) {
        let new = max(0, pages - base.count)
        added.reserveCapacity(min(new, lotSize))
        if new > lotSize { lots?.reserveCapacity(new) }
    }

    /// Puts the entries added in order: done once this build has set its last.
    package mutating func finish() {
        added.sort()
        lots?.finish()
    }

    /// This build's entries as runs to merge: the last build's it set, the lots, those held.
    private var runs: [any ManifestRun] {
        [base.run(keeping: isMade)] + (lots?.runs ?? []) + [added.run()]
    }

    /// Every entry this build set, with its path, in the order of the paths (`finish()` done).
    package func forEach(_ body: (String, PageManifest.Entry) throws -> Void) rethrows {
        try PageManifest.merge(runs) { path, entry in try body(String(decoding: path, as: UTF8.self), entry.entry) }
    }

    /// The manifest this build leaves, handed to `write` a piece at a time as `PageManifest`
    /// writes it, without being made whole (`finish()` done).
    package func encode(to write: @escaping (UnsafeRawBufferPointer) -> Void) {
        PageManifest.encode(runs, to: write)
    }

    /// How many entries at new paths it holds, and whether any went to lots (tests).
    var heldAdded: Int { added.count }
    var hasLots: Bool { lots?.isEmpty == false }

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

    /// `spillingInto`: see `NextManifest.init(last:spillingInto:lotSize:)`.
    package init(last: PageManifest, spillingInto folder: String? = nil) {
        next = NextManifest(last: last, spillingInto: folder)
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

import CSystem
import FolioContent
import FolioCore
import FolioImaging
import FolioMetadata
import FolioModel
import FolioPlaces
import Foundation

/// What the import did to the model.
struct ImportResult: StepOutput {
    var imported = 0
    var removed = 0
    /// Photos whose file could not be read this time, and why. Those already in the model keep
    /// their row and everything set on it; this build leaves them out, the next one reads them
    /// again.
    var failed: [PhotoSource: String] = [:]
    var issues: [BuildIssue] = []
    /// The issues that belong to a photo (found reading it, this build or an earlier one), kept
    /// in the model apart from the build's own.
    var photoIssues: Set<BuildIssue> = []
    /// The tally of the model's thumbnails (`GalleryDatabase.thumbnailTally`) before photos
    /// were removed, whose thumbnails go with them; nil when none were: what the last build's
    /// media ledger is held against (`MediaLedger.holds`).
    var thumbnailsBeforeRemovals: String?
    /// What the load found of content/ besides its photos (the albums, the skipped files…),
    /// complete once every part was imported.
    var content = ContentInventory()
}

/// Brings the model in line with `content/`: new and edited photos are read (checksum, size,
/// EXIF) and upserted, photos whose files are gone are removed, unchanged ones cost nothing.
struct ImportStep: BuildStep {
    static let name = "import"
    static let activity = "writing the model"

    /// What the model holds of each photo from content/ (`GalleryDatabase.contentMarks()`), when
    /// it was read beside the load step; nil: read here.
    var known: ContentMarks?
    /// How many entries are read and applied together (`parts`): their rows, held until
    /// applied, are a few megabytes.
    var partSize = 2_000

    func run(_ input: (site: ConfiguredSite, content: ContentParts), in run: BuildRun) async throws -> ImportResult {
        let site = input.site
        var content = input.content
        let database = site.database
        let marks = try known ?? database.contentMarks()
        let favorites = FavoriteRule(rating: site.settings.favoriteRating, label: site.settings.favoriteLabel)
        let epoch = run.options.sourceDateEpoch
        var result = ImportResult()

        // Photos in a folder that would not open are kept, and left out of this build (only: no
        // failure is recorded on them, as the next build may see them again unchanged).
        let unreadable = content.inventory
        let unseen = unreadable.unreadableFolders.isEmpty ? []
            : try database.sources(of: .content).filter { $0.contentPath.map(unreadable.isUnseen) ?? false }
        // The photos the model keeps problems of (a few), and which of them are still listed.
        let troubled = try database.sourcesWithProblems()
        var listedTroubled = Set(unseen.filter(troubled.contains))
        // Which of the model's photos are listed again: the others are removed.
        var sightings = ContentMarks.Sightings(of: marks)

        let contentRoot = site.paths.content
        let reader = CatalogReader(contentRoot: contentRoot, files: run.files, cache: site.catalogCache)
        let processor = site.processor
        let files = run.files
        // Counts every entry, those read and those found unchanged.
        let progress = run.progress("reading", total: content.photoCount)
        lazy var finder = PlaceFinder.load(cache: site.paths.gazetteer, disk: site.disk)
        // The problems reading found (a photo read without one is not in it), and which of the
        // troubled photos were read again.
        var found: [PhotoSource: [BuildIssue]] = [:]
        var readTroubled = Set<PhotoSource>()
        var looked = 0
        // content/ a part at a time, each part's changed photos read and applied a few
        // thousand at a time, all in one transaction.
        try database.apply(inParts: { parts in
            while let entries = content.next() {
                // What the last part held (its catalogs' records, its photos' rows) goes back to
                // the system before this one is read, as between steps (`StepRunner`).
                folio_return_freed_memory()
                for entry in entries {
                    sightings.see(entry.path, in: marks)
                    if troubled.contains(entry.source) { listedTroubled.insert(entry.source) }
                }
                // Each entry's fingerprint, on every core: the hash of its record for each of a
                // large library's photos is most of a build that finds one changed.
                let unchanged = entries.concurrentMap { entry in
                    marks[entry.path].map { Self.isUnchanged(entry, since: $0, favorites: favorites, sourceDateEpoch: epoch) } ?? false
                }
                // The entries read again, by their place in the part (a cold build's are all of them).
                let changed = entries.indices.filter { !unchanged[$0] }
                let lookedBefore = looked + entries.count - changed.count
                looked += entries.count
                progress.update(lookedBefore)
                // Photos are read whole; a video only as far as its headers, so its bytes are not
                // asked for. The entries are asked for where they are, as the reading nears them.
                let ahead = files.readAhead(count: changed.count, under: contentRoot.path) { [entries, changed] at in
                    let entry = entries[changed[at]]
                    return ContentPath.isVideo(entry.path) ? nil : (entry.path, entry.stamp.size)
                }
                defer { ahead?.stop() }
                var read = 0
                for positions in Self.parts(of: changed.indices, size: partSize, entries: { entries[changed[$0]] }) {
                    let partEntries = positions.map { entries[changed[$0]] }
                    let old = try parts.known(for: partEntries.filter { marks.holds($0.path) }.map(\.source))
                    var part = partEntries.map { ($0, old[$0.source]) }
                    for (source, issue) in Self.takeBackRecords(&part, reader: reader) {
                        result.failed[source] = issue.reason
                        result.issues.append(issue)
                    }
                    let readBefore = read
                    let reads = orderedConcurrentMap(part, width: run.concurrency, onEach: { done in
                        progress.update(lookedBefore + readBefore + done)
                        ahead?.take(readBefore + done)
                    }) { entry, old in
                        Self.read(entry, old: old, contentRoot: contentRoot, processor: processor, files: files, favorites: favorites,
                                  sourceDateEpoch: epoch)
                    }
                    read += positions.count

                    var batch = ImportBatch()
                    for ((entry, _), read) in zip(part, reads) {
                        if troubled.contains(entry.source) { readTroubled.insert(entry.source) }
                        switch read {
                        case .success(let read):
                            batch.upserts.append(read.photo)
                            if !read.issues.isEmpty { found[entry.source] = read.issues }
                        case .failure(let issue):
                            found[entry.source] = [issue]
                            result.failed[entry.source] = issue.reason
                        }
                        result.issues += found[entry.source] ?? []
                    }
                    Self.placeByPosition(&batch.upserts, finder: { finder })
                    try parts.add(batch)
                    result.imported += batch.upserts.count
                }
            }
            progress.update(content.photoCount)
            // Entries are one to a source: when the model's photos listed again are as many as
            // it holds, none is removed, found without looking through its sources.
            guard !unseen.isEmpty || sightings.count != marks.count else { return }
            let kept = Set(unseen)
            let removals = try parts.sources(of: .content).filter { source in
                !(source.contentPath.map { sightings.saw($0, in: marks) } ?? true) && !kept.contains(source)
            }.sorted()
            result.removed = removals.count
            guard !removals.isEmpty else { return }
            result.thumbnailsBeforeRemovals = try parts.thumbnailTally()
            try parts.add(ImportBatch(removals: removals))
        })
        let inventory = content.inventory
        try database.replaceAlbums(inventory.albums)
        try database.recordFailures(result.failed.filter { $0.key.contentPath.map(marks.holds) == true }, published: [])
        for source in unseen { result.failed[source] = "its folder cannot be read" }
        // Unchanged photos are not read again, but what was wrong with them still is.
        result.issues += try database.replacePhotoProblems(found: found, keeping: {
            listedTroubled.contains($0) && !readTroubled.contains($0)
        })
        result.photoIssues = Set(result.issues)
        // What the load found wrong (in the catalogs, among the files) is said before what reading
        // the photos did, as when the two were steps of their own.
        result.issues = inventory.issues + result.issues
        result.content = inventory
        return result
    }

    /// The import's parts: runs of `size` entries or more, each ending where a catalog does
    /// (its records are read again once, not once for each part), none over four times that.
    static func parts(of positions: Range<Int>, size: Int, entries entry: (Int) -> ContentEntry) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        var start = positions.lowerBound
        for at in positions.dropFirst() where at - start >= size {
            let catalog = entry(at).catalogued?.catalog
            if at - start >= size * 4 || catalog == nil || catalog != entry(at - 1).catalogued?.catalog {
                parts.append(start..<at)
                start = at
            }
        }
        if start < positions.upperBound { parts.append(start..<positions.upperBound) }
        return parts
    }

    /// Reads again, a catalog at a time, the records the load let go of the entries that
    /// changed (`ContentEntry.catalogued`): each is the record read from its catalog where the load
    /// found it, or, if the catalog was edited since, the record there that names its file. One
    /// whose record is gone is left out of this build, said so, and read by the next. Returns those.
    static func takeBackRecords(_ changed: inout [(ContentEntry, KnownPhoto?)], reader: CatalogReader) -> [(PhotoSource, BuildIssue)] {
        var byCatalog: [String: [Int]] = [:]
        for (at, (entry, _)) in changed.enumerated() {
            if let place = entry.catalogued { byCatalog[place.catalog, default: []].append(at) }
        }
        var lost: [(PhotoSource, BuildIssue)] = []
        var gone = IndexSet()
        for (catalog, positions) in byCatalog.sorted(by: { $0.key < $1.key }) {
            let records = reader.read(catalog: catalog, stamp: reader.files.stamp(of: reader.contentRoot.appendingPathComponent(catalog))).records
            // By path, composed, only when the catalog moved its records since the load.
            lazy var byPath = Dictionary(records.map { ($0.path.precomposedStringWithCanonicalMapping, $0) }, uniquingKeysWith: { first, _ in first })
            for at in positions {
                let entry = changed[at].0
                guard let place = entry.catalogued else { continue }
                // The load's record named the entry's file by the walk's bytes for it.
                var record = records.indices.contains(Int(place.index)) ? records[Int(place.index)] : nil
                record?.path = entry.path
                if record?.fingerprintValue != place.fingerprint {
                    record = byPath[entry.path.precomposedStringWithCanonicalMapping]
                    record?.path = entry.path
                }
                if let record {
                    changed[at].0.takeBack(record)
                } else {
                    lost.append((entry.source, .warning("content/\(catalog) (\(entry.path))",
                                                        "its record changed while this build ran; the photo is read again by the next")))
                    gone.insert(at)
                }
            }
        }
        if !gone.isEmpty { changed = changed.indices.filter { !gone.contains($0) }.map { changed[$0] } }
        return lost
    }

    /// Photos with coordinates and no place from anyone get the place the gazetteer finds there;
    /// its index is asked for (`finder`, which loads it) only when some photo needs it.
    static func placeByPosition(_ photos: inout [PhotoImport], finder: () -> PlaceFinder) {
        let waiting = photos.indices.filter { photos[$0].place == nil && photos[$0].photo.latitude != nil && photos[$0].photo.longitude != nil }
        guard !waiting.isEmpty else { return }
        let finder = finder()
        for index in waiting {
            guard let latitude = photos[index].photo.latitude, let longitude = photos[index].photo.longitude,
                  let found = finder.place(latitude: latitude, longitude: longitude) else { continue }
            photos[index].place = found.place
            photos[index].region = found.region
        }
    }
}

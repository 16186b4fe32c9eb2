import FolioContent
import FolioCore
import FolioImaging
import FolioMetadata
import FolioModel
import FolioPlaces
import Foundation

/// An import under way: what it takes from each part of content/ to the model, and what it has
/// learnt so far (the result, the problems reading found, which of the model's photos were listed).
struct ContentImport {
    private(set) var result = ImportResult()
    /// The problems reading found (a photo read without one is not in it).
    private(set) var found: [PhotoSource: [BuildIssue]] = [:]
    /// Which of the photos the model keeps problems of (a few) were listed, and which read again.
    private(set) var listedTroubled: Set<PhotoSource>
    private(set) var readTroubled = Set<PhotoSource>()

    private let step: ImportStep
    private let marks: ContentMarks
    /// Which of the model's photos were listed: the others are removed.
    private var sightings: ContentMarks.Sightings
    /// Photos in a folder that would not open: kept.
    private let unseen: [PhotoSource]
    private let troubled: Set<PhotoSource>
    private let favorites: FavoriteRule
    private let sourceDateEpoch: Date?
    private let contentRoot: URL
    private let reader: CatalogReader
    private let processor: ImageProcessor
    private let files: any FileAccess
    private let concurrency: Int
    private let gazetteer: () -> PlaceFinder
    private var finder: PlaceFinder?
    /// Counts every entry, those read and those found unchanged, of the photos the walk found.
    private let progress: ProgressLine
    private let photoCount: Int
    private var looked = 0

    init(_ step: ImportStep, site: ConfiguredSite, run: BuildRun, marks: ContentMarks, unseen: [PhotoSource], photoCount: Int) throws {
        self.step = step
        self.marks = marks
        self.unseen = unseen
        sightings = ContentMarks.Sightings(of: marks)
        troubled = try site.database.sourcesWithProblems()
        listedTroubled = Set(unseen.filter(troubled.contains))
        favorites = FavoriteRule(rating: site.settings.favoriteRating, label: site.settings.favoriteLabel)
        sourceDateEpoch = run.options.sourceDateEpoch
        contentRoot = site.paths.content
        reader = CatalogReader(contentRoot: contentRoot, files: run.files, cache: site.catalogCache)
        processor = site.processor
        files = run.files
        concurrency = run.concurrency
        gazetteer = { PlaceFinder.load(cache: site.paths.gazetteer, disk: site.disk) }
        progress = run.progress("reading", total: photoCount)
        self.photoCount = photoCount
    }

    /// Reads the new and changed photos among `entries` (one part of content/) and adds them to
    /// the model a few thousand at a time (`ImportStep.partSize`).
    mutating func take(_ entries: [ContentEntry], into parts: GalleryDatabase.ImportParts) throws {
        // Each entry's mark and fingerprint, on every core: the hash of its record for each of
        // a large library's photos is most of a build that finds one changed.
        let (marks, favorites, epoch) = (marks, favorites, sourceDateEpoch)
        let known = entries.concurrentMap { entry -> (row: Int?, unchanged: Bool) in
            let row = marks.row(of: entry.path)
            return (row, row.map { ImportStep.isUnchanged(entry, since: marks.mark(at: $0), favorites: favorites, sourceDateEpoch: epoch) } ?? false)
        }
        for (entry, known) in zip(entries, known) { sightings.see(entry.path, at: known.row, in: marks) }
        if !troubled.isEmpty {
            for entry in entries where troubled.contains(entry.source) { listedTroubled.insert(entry.source) }
        }
        // The entries read again, by their place in the part (a cold build's are all of them).
        let changed = entries.indices.filter { !known[$0].unchanged }
        let lookedBefore = looked + entries.count - changed.count
        looked += entries.count
        progress.update(lookedBefore)
        // Photos are read whole; a video only as far as its headers, so its bytes are not asked
        // for. The entries are asked for where they are, as the reading nears them.
        let ahead = files.readAhead(count: changed.count, under: contentRoot.path) { [entries, changed] at in
            let entry = entries[changed[at]]
            return ContentPath.isVideo(entry.path) ? nil : (entry.path, entry.stamp.size)
        }
        defer { ahead?.stop() }
        var read = 0
        for positions in ImportStep.parts(of: changed.indices, size: step.partSize, entries: { entries[changed[$0]] }) {
            let partEntries = positions.map { entries[changed[$0]] }
            let old = try parts.known(for: partEntries.filter { marks.holds($0.path) }.map(\.source))
            var part = partEntries.map { ($0, old[$0.source]) }
            for (source, issue) in ImportStep.takeBackRecords(&part, reader: reader) {
                result.failed[source] = issue.reason
                result.issues.append(issue)
            }
            let (readBefore, progress, contentRoot, processor, files) = (read, progress, contentRoot, processor, files)
            let reads = orderedConcurrentMap(part, width: concurrency, onEach: { done in
                progress.update(lookedBefore + readBefore + done)
                ahead?.take(readBefore + done)
            }) { entry, old in
                ImportStep.read(entry, old: old, contentRoot: contentRoot, processor: processor, files: files, favorites: favorites,
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
            ImportStep.placeByPosition(&batch.upserts, finder: { placeFinder() })
            try parts.add(batch)
            result.imported += batch.upserts.count
        }
    }

    /// Removes the photos of the model no part listed (their files are gone), once every part
    /// was taken.
    mutating func removeUnlisted(from parts: GalleryDatabase.ImportParts) throws {
        progress.update(photoCount)
        // Entries are one to a source: when the model's photos listed again are as many as it
        // holds, none is removed, found without looking through its sources.
        guard !unseen.isEmpty || sightings.count != marks.count else { return }
        let (kept, sightings, marks) = (Set(unseen), sightings, marks)
        let removals = try parts.sources(of: .content).filter { source in
            !(source.contentPath.map { sightings.saw($0, in: marks) } ?? true) && !kept.contains(source)
        }.sorted()
        result.removed = removals.count
        guard !removals.isEmpty else { return }
        result.thumbnailsBeforeRemovals = try parts.thumbnailTally()
        try parts.add(ImportBatch(removals: removals))
    }

    /// The gazetteer's index, loaded when some photo first needs it.
    private mutating func placeFinder() -> PlaceFinder {
        if let finder { return finder }
        let loaded = gazetteer()
        finder = loaded
        return loaded
    }
}

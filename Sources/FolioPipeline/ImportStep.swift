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

    /// What the model holds of each photo from content/ (`GalleryDatabase.contentMarks()`), being
    /// read on another core since the load began; nil: read here.
    var known: Task<ContentMarks, any Error>?
    /// How many entries are read and applied together (`parts`): their rows, held until
    /// applied, are a few megabytes.
    var partSize = 2_000

    func run(_ input: (site: ConfiguredSite, content: ContentParts), in run: BuildRun) async throws -> ImportResult {
        let site = input.site
        var content = input.content
        let database = site.database
        // The first part is read (its catalogs parsed) while the marks are.
        var entries = content.next()
        let marks = try await known?.value ?? database.contentMarks()
        // Photos in a folder that would not open are kept, and left out of this build (only: no
        // failure is recorded on them, as the next build may see them again unchanged).
        let loaded = content.inventory
        let unseen = loaded.unreadableFolders.isEmpty ? []
            : try database.sources(of: .content).filter { $0.contentPath.map(loaded.isUnseen) ?? false }
        var taking = try ContentImport(self, site: site, run: run, marks: marks, unseen: unseen, photoCount: content.photoCount)
        // content/ a part at a time, all in one transaction.
        try database.apply(inParts: { parts in
            while let part = entries.take() {
                // What reading the part left (its catalogs' records) and what the last part held
                // (its photos' rows) go back to the system before its photos are read, as
                // between steps (`StepRunner`).
                folio_return_freed_memory()
                try taking.take(part, into: parts)
                entries = content.next()
            }
            try taking.removeUnlisted(from: parts)
        })
        let inventory = content.inventory
        var result = taking.result
        try database.replaceAlbums(inventory.albums)
        try database.recordFailures(result.failed.filter { $0.key.contentPath.map(marks.holds) == true }, published: [])
        for source in unseen { result.failed[source] = "its folder cannot be read" }
        // Unchanged photos are not read again, but what was wrong with them still is.
        result.issues += try database.replacePhotoProblems(found: taking.found, keeping: {
            taking.listedTroubled.contains($0) && !taking.readTroubled.contains($0)
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

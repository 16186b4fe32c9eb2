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

    func run(_ input: (site: ConfiguredSite, inventory: ContentInventory), in run: BuildRun) async throws -> ImportResult {
        let (site, inventory) = input
        let database = site.database
        let entries = inventory.entries
        let marks = try known ?? database.contentMarks()
        // Each entry's fingerprint, on every core: the hash of its record for each of a large
        // library's photos is most of a build that finds one changed.
        let favorites = FavoriteRule(rating: site.settings.favoriteRating, label: site.settings.favoriteLabel)
        let epoch = run.options.sourceDateEpoch
        let unchanged = entries.concurrentMap { entry in
            marks[entry.path].map { Self.isUnchanged(entry, since: $0, favorites: favorites, sourceDateEpoch: epoch) } ?? false
        }
        // The entries read again, by their place in the inventory (a cold build's are all of
        // them), and what the model knows of those it holds.
        let changed = entries.indices.filter { !unchanged[$0] }
        let edited = changed.filter { marks.holds(entries[$0].path) }
        let old = try database.knownPhotos(for: edited.map { entries[$0].source })
        var result = ImportResult()

        // Photos in a folder that would not open are kept, and left out of this build (only: no
        // failure is recorded on them, as the next build may see them again unchanged).
        let unseen = inventory.unreadableFolders.isEmpty ? []
            : try database.sources(of: .content).filter { $0.contentPath.map(inventory.isUnseen) ?? false }
        // Entries are one to a source: when those the model holds are as many as its photos, every
        // photo is listed again and none is removed, found without a set of every source.
        var removals: [PhotoSource] = []
        if !unseen.isEmpty || entries.count - (changed.count - edited.count) != marks.count {
            let sources = Set(entries.map(\.source)).union(unseen)
            removals = try database.sources(of: .content).filter { !sources.contains($0) }.sorted()
        }
        result.removed = removals.count
        if !removals.isEmpty { result.thumbnailsBeforeRemovals = try database.thumbnailTally() }
        // The photos the model keeps problems of (a few), and which of them are still listed.
        let troubled = try database.sourcesWithProblems()
        var listedTroubled = Set(unseen.filter(troubled.contains))
        if !troubled.isEmpty {
            for entry in entries where troubled.contains(entry.source) { listedTroubled.insert(entry.source) }
        }

        let contentRoot = site.paths.content
        let reader = CatalogReader(contentRoot: contentRoot, files: run.files, cache: site.catalogCache)
        let processor = site.processor
        let files = run.files
        let progress = run.progress("reading", total: changed.count)
        // Photos are read whole; a video only as far as its headers, so its bytes are not asked for.
        let isPhoto = changed.map { !ContentPath.isVideo(entries[$0].path) }
        let ahead = files.readAhead(zip(changed, isPhoto).filter(\.1).map { (entries[$0.0].path, entries[$0.0].stamp.size) },
                                    under: contentRoot.path)
        defer { ahead?.stop() }
        lazy var finder = PlaceFinder.load(cache: site.paths.gazetteer, disk: site.disk)
        // The problems reading found (a photo read without one is not in it), and which of the
        // troubled photos were read again.
        var found: [PhotoSource: [BuildIssue]] = [:]
        var readTroubled = Set<PhotoSource>()
        var read = 0
        var photosRead = 0
        // A part at a time, read and applied, in one transaction.
        try database.apply(inParts: { add in
            for positions in Self.parts(of: changed.indices, size: partSize, entries: { entries[changed[$0]] }) {
                var part = positions.map { (entries[changed[$0]], old[entries[changed[$0]].source]) }
                for (source, issue) in Self.takeBackRecords(&part, reader: reader) {
                    result.failed[source] = issue.reason
                    result.issues.append(issue)
                }
                // `photosIn[n]`: the photos among the part's first n entries.
                var photosIn = [photosRead]
                for position in positions { photosIn.append(photosIn.last! + (isPhoto[position] ? 1 : 0)) }
                let readBefore = read
                let reads = orderedConcurrentMap(part, width: run.concurrency, onEach: { [photosIn] done in
                    progress.update(readBefore + done)
                    ahead?.take(photosIn[done])
                }) { entry, old in
                    Self.read(entry, old: old, contentRoot: contentRoot, processor: processor, files: files, favorites: favorites,
                              sourceDateEpoch: epoch)
                }
                read += positions.count
                photosRead = photosIn.last!

                var batch = ImportBatch(removals: removals)
                removals = []
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
                try add(batch)
                result.imported += batch.upserts.count
            }
            try add(ImportBatch(removals: removals))
        })
        try database.replaceAlbums(inventory.albums)
        try database.recordFailures(result.failed.filter { $0.key.contentPath.map(marks.holds) == true }, published: [])
        for source in unseen { result.failed[source] = "its folder cannot be read" }
        // Unchanged photos are not read again, but what was wrong with them still is.
        result.issues += try database.replacePhotoProblems(found: found, keeping: {
            listedTroubled.contains($0) && !readTroubled.contains($0)
        })
        result.photoIssues = Set(result.issues)
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

    /// Raised when reading a file finds more in it than before (2: IPTC, XMP, sidecars and places
    /// from GPS; 3: its colour profile; 4: its transparency and animation; 5: its lens; 6: XMP's
    /// face regions, colour labels and hierarchical keywords, a sidecar's date and GPS), so that
    /// photos imported by an older Folio are read once more.
    static let readerVersion = "6"

    /// What besides the file itself decides what the import makes of a photo: its catalog
    /// record, its sidecar, the rating that makes a favorite and, when SOURCE_DATE_EPOCH holds
    /// its file's time back, that time.
    static func fingerprint(_ entry: ContentEntry, favorites: FavoriteRule, sourceDateEpoch: Date? = nil) -> String {
        ContentHash.hexText(fingerprintValue(entry, favorites: favorites, sourceDateEpoch: sourceDateEpoch))
    }

    /// When the photo was added: its record's date, else its file's modification time, never
    /// later than SOURCE_DATE_EPOCH when that is set.
    static func uploaded(_ entry: ContentEntry, sourceDateEpoch: Date?) -> Date {
        entry.record?.uploaded ?? heldBack(entry, sourceDateEpoch: sourceDateEpoch) ?? entry.stamp.modified
    }

    /// SOURCE_DATE_EPOCH, when the file's time is later. Part of the fingerprint whether or not
    /// a record gives the date: the import may know only the record's fingerprint.
    private static func heldBack(_ entry: ContentEntry, sourceDateEpoch: Date?) -> Date? {
        guard let epoch = sourceDateEpoch, entry.stamp.modified > epoch else { return nil }
        return epoch
    }

    /// Whether the model's mark of the photo says it is as `entry` finds it: the same file,
    /// the same fingerprint. Asked of every photo of every build, so neither text is made.
    static func isUnchanged(_ entry: ContentEntry, since mark: PhotoMark, favorites: FavoriteRule, sourceDateEpoch: Date? = nil) -> Bool {
        guard mark.isFile(entry.stamp), let known = mark.fingerprint else { return false }
        return known == fingerprintValue(entry, favorites: favorites, sourceDateEpoch: sourceDateEpoch)
    }

    /// The number `fingerprint` writes: the hash of the reader's version, the record's
    /// fingerprint, the sidecar's path and stamp and what makes a favorite, then the Markdown's,
    /// the clip's, Google Takeout's JSON's and the other albums it is listed in only when there are
    /// (so photos without are not all read again), each after a U+001E. Written into one buffer,
    /// the bytes the models of earlier builds hashed.
    static func fingerprintValue(_ entry: ContentEntry, favorites: FavoriteRule, sourceDateEpoch: Date? = nil) -> UInt64 {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        func add(_ text: String) {
            var text = text
            text.withUTF8 { bytes.append(contentsOf: $0) }
        }
        func add(_ file: Sidecar, prefix: String = "") {
            bytes.append(0x1E)
            add(prefix)
            add(file.path)
            bytes.append(UInt8(ascii: "@"))
            add(file.stamp.text)
        }
        add(readerVersion)
        bytes.append(0x1E)
        if let record = entry.recordFingerprint {
            ContentHash.appendHex(record, to: &bytes)
        } else {
            add("uncatalogued")
        }
        if let sidecar = entry.sidecar {
            add(sidecar)
        } else {
            bytes.append(0x1E)
        }
        bytes.append(0x1E)
        add(favorites.fingerprintText)
        if let markdown = entry.markdown { add(markdown) }
        if let clip = entry.clip { add(clip, prefix: "clip ") }
        if let takeout = entry.takeout { add(takeout, prefix: "takeout ") }
        if !entry.alsoListedIn.isEmpty {
            bytes.append(0x1E)
            add("also listed in " + entry.alsoListedIn.joined(separator: "\u{1F}"))
        }
        if let epoch = heldBack(entry, sourceDateEpoch: sourceDateEpoch) {
            bytes.append(0x1E)
            add("uploaded \(Int64(epoch.timeIntervalSince1970))")
        }
        return bytes.withUnsafeBytes { ContentHash.hash($0) }
    }

    /// Reads one photo's file (and sidecar); the checksum is reused when the file itself is
    /// untouched. What describes it comes, first found first taken, from the catalog record, the
    /// XMP sidecar, the file's XMP, its IPTC, its EXIF, the place its GPS falls in (later, for the
    /// whole batch: `placeByPosition`), and its file name. The date and the position come from the
    /// XMP sidecar before the file's EXIF, from Google Takeout's JSON after it; Takeout's words come
    /// before the XMP's (written later, in Google Photos). docs/content.md has the table.
    static func read(_ entry: ContentEntry, old: KnownPhoto?, contentRoot: URL, processor: ImageProcessor,
                     files: any FileAccess, favorites: FavoriteRule, sourceDateEpoch: Date? = nil) -> Result<(photo: PhotoImport, issues: [BuildIssue]), BuildIssue> {
        let shown = entry.record.map { "\($0.location) (\(entry.path))" } ?? "content/\(entry.path)"
        let sameFile = old?.fileStamp == entry.stamp.text
        let metadata: ImageMetadata
        var issues: [BuildIssue] = []
        var described: PhotoDescription
        let checksum: String
        var motion: PhotoMotion?
        do {
            if ContentPath.isVideo(entry.path) {
                let video = try Self.readVideo(contentRoot.appendingPathComponent(entry.path), old: sameFile ? old?.checksum : nil,
                                               pixelLimit: processor.pixelLimit)
                (metadata, checksum, described) = (video.metadata, video.checksum, video.described)
                motion = PhotoMotion(kind: .video, duration: video.duration)
            } else {
                let data = try files.read(contentRoot.appendingPathComponent(entry.path))
                metadata = try processor.metadata(of: data)
                checksum = old.flatMap { sameFile ? $0.checksum : nil } ?? ContentHash.hex(data)
                if let problem = metadata.colourProblem { issues.append(.warning("content/\(entry.path)", problem)) }
                let problem: String?
                (described, problem) = EmbeddedDescription.read(data, format: metadata.format)
                if let problem { issues.append(.warning("content/\(entry.path)", problem)) }
            }
        } catch let error as ImagingError {
            return .failure(.error(shown, error.reason))
        } catch {
            return .failure(.error(shown, "cannot be read: \(error.localizedDescription)"))
        }
        if let clip = entry.clip {
            // A Live Photo's clip that will not read leaves a still photo, said so.
            do {
                let video = try Self.readVideo(contentRoot.appendingPathComponent(clip.path), old: nil, pixelLimit: processor.pixelLimit)
                motion = PhotoMotion(kind: .live, duration: video.duration, clip: clip.path, clipChecksum: video.checksum)
            } catch {
                let reason = (error as? ImagingError)?.reason ?? "cannot be read: \(error.localizedDescription)"
                issues.append(.warning("content/\(clip.path)", "\(reason); the Live Photo is published as a still"))
            }
        }
        // A sidecar's date and place are its tool's (a photographer's correction); the file's
        // own XMP repeats its EXIF's, which is read instead.
        var fromSidecar: PhotoDescription?
        if let sidecar = entry.sidecar {
            let read: Result<PhotoDescription, XMPReader.Failure>
            if sidecar.stamp.size > ReadingLimits.xmpBytes {
                read = .failure(.tooLarge(sidecar.stamp.size))  // not read into memory to be refused
            } else {
                read = Result { try files.read(contentRoot.appendingPathComponent(sidecar.path)) }
                    .mapError { XMPReader.Failure.malformed($0.localizedDescription) }
                    .flatMap(XMPReader.read)
            }
            switch read {
            case .success(let found):
                described = found.filling(from: described)
                fromSidecar = found
            case .failure(let failure): issues.append(.warning("content/\(sidecar.path)", "\(failure.reason); ignored"))
            }
        }
        var sigal: SigalMarkdown?
        if let markdown = entry.markdown {
            let problem: String?
            (sigal, problem) = SigalMarkdown.read(contentRoot.appendingPathComponent(markdown.path), size: markdown.stamp.size, files: files)
            if let problem { issues.append(.warning("content/\(markdown.path)", problem)) }
        }
        var takeout: TakeoutSidecar?
        if let sidecar = entry.takeout {
            let problems: [String]
            (takeout, problems) = readTakeout(sidecar, contentRoot: contentRoot, files: files)
            issues += problems.map { .warning("content/\(sidecar.path)", $0) }
        }
        let record = entry.record
        let place = record?.place ?? record?.region ?? described.place
        let rated = described.isFavorite(by: favorites)
        // sigal's .md is the gallery's own words, as a catalog's are: over any XMP, under the catalog.
        let markdownBody = record?.description == nil ? sigal?.body : nil
        var row = Photo(identifier: old?.identifier ?? "p" + ContentHash.hex(entry.source.text).prefix(12), source: entry.source,
                        uploaded: uploaded(entry, sourceDateEpoch: sourceDateEpoch), checksum: checksum)
        row.title = record?.name ?? sigal?.title ?? described.shownTitle ?? (record == nil ? Self.title(fromFileName: entry.path) : nil)
        row.description = record?.description ?? markdownBody?.text ?? takeout?.description ?? described.description
        row.descriptionHTML = markdownBody?.html
        row.taken = record?.taken ?? fromSidecar?.taken ?? metadata.taken ?? takeout?.taken
        (row.width, row.height) = (metadata.width, metadata.height)
        row.favorite = (record?.favorite ?? false) || rated || takeout?.favorite == true
        (row.format, row.orientation, row.colour) = (metadata.format, metadata.orientation, metadata.colour)
        (row.transparent, row.animated) = (metadata.transparent, metadata.animated)
        row.motion = motion
        (row.camera, row.exposure) = (metadata.camera, metadata.exposure)
        row.lens = described.lens ?? metadata.lens
        row.latitude = record?.latitude ?? metadata.latitude
        row.longitude = record?.longitude ?? metadata.longitude
        if record?.latitude == nil, record?.longitude == nil, let latitude = fromSidecar?.latitude, let longitude = fromSidecar?.longitude {
            (row.latitude, row.longitude) = (latitude, longitude)
        }
        if row.latitude == nil, row.longitude == nil, let latitude = takeout?.latitude, let longitude = takeout?.longitude {
            (row.latitude, row.longitude) = (latitude, longitude)
        }
        row.alsoListedIn = entry.alsoListedIn
        row.pictured = takeout.map { $0.people.isEmpty ? described.people : $0.people } ?? described.people
        row.tags = record.map { $0.tags.isEmpty ? described.keywords : $0.tags } ?? described.keywords
        var photo = PhotoImport(row, person: record?.user ?? described.creator ?? metadata.artist ?? Person.unknownName, place: place,
                                region: record?.place != nil || record?.region != nil ? record?.region : described.region)
        photo.fileStamp = entry.stamp.text
        photo.fingerprint = fingerprint(entry, favorites: favorites, sourceDateEpoch: sourceDateEpoch)
        return .success((photo, issues))
    }

    /// What Google Takeout's sidecar says of a photo, and what was wrong in it; nil when it will
    /// not read at all.
    private static func readTakeout(_ sidecar: Sidecar, contentRoot: URL, files: any FileAccess) -> (TakeoutSidecar?, [String]) {
        // Not read into memory to be refused.
        guard sidecar.stamp.size <= ReadingLimits.takeoutBytes else {
            return (nil, ["is larger than the \(ReadingLimits.megabytes(ReadingLimits.takeoutBytes)) Folio reads of a sidecar; ignored"])
        }
        do {
            let (read, problems) = TakeoutSidecar.read(try files.read(contentRoot.appendingPathComponent(sidecar.path)))
            return (read, read == nil ? problems.map { "\($0); ignored" } : problems)
        } catch {
            return (nil, ["cannot be read: \(error.localizedDescription); ignored"])
        }
    }

    /// "_MG_7805.JPG" → "MG 7805", "harbour-at_dawn .png" → "harbour at dawn": no extension, no
    /// underscores or dashes, no spaces at either end or twice in a row.
    static func title(fromFileName path: String) -> String? {
        let stem = RelativePath(path).stem
        let words = stem.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")
            .split(whereSeparator: \.isWhitespace)
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}

import FolioCore
import FolioModel
import Foundation

/// content/ read a part at a time: a batch of catalogs' entries, then the uncatalogued photos a
/// run at a time, so a build's import writes each part to the model and lets it go, and never
/// holds an entry for every photo of a large library (`ContentLoader.parts(walk:)`).
///
/// What is known before any catalog is read (the albums, the skipped and left-out files) is in
/// `inventory` from the start; what is said of the whole (links, sigal's album descriptions,
/// Google Takeout's pairing) once `next()` has returned nil. `inventory.entries` stays empty.
/// A Takeout export's photos come as one part: its sidecars pair with photos across the whole
/// export, and its copies of a photo in several albums are found among all of them.
public struct ContentParts: Sendable {
    /// Everything found but the entries, and what was wrong.
    public private(set) var inventory = ContentInventory()
    /// How many photos the walk found: about as many entries as the parts give (a record may
    /// name a photo the walk did not list, through a link to a folder; a duplicate gives none).
    public private(set) var photoCount = 0

    private let loader: ContentLoader
    private let exclusions: ContentExclusions
    private let listing: FileList
    private let kinds: [ContentFileKind]
    private let isPhoto: [Bool]
    private let clips: (clipOf: [String: String], stillOf: [String: String])
    private let realRoot: String
    /// The regular files the walk found (only links, and paths a catalog names that the walk did
    /// not find, need their real path checked), with what the walk learnt of each on its way,
    /// so most files cost no stat of their own; and which of them are photos already, by a
    /// record or as found.
    private var walked: WalkedFiles
    /// A catalog typed in one normal form finds a file named in the other (macOS writes names
    /// decomposed; keyboards type them composed). Made only when a record names a file the
    /// walk did not find: composing every name costs more than the rest of the walk.
    private var byComposedName: [String: String]?
    private let xmp: XMPSidecars
    /// sigal's descriptions, by lower-cased path without ".md", and those a photo took.
    private let markdown: [String: String]
    private var markdownUsed = Set<String>()
    private let links: Set<String>
    private let catalogs: [String]
    /// The catalogs still to read, and the uncatalogued photos' place in the listing.
    private var nextCatalog = 0
    private var nextFile = 0
    private var cached = Set<String>()
    private var finished = false
    private let readAt: Date
    /// Takeout's pairing needs every entry at once (see above).
    private let holdsAll: Bool

    /// How much of content/ a part holds.
    package struct Size: Sendable {
        /// Catalogs read together, on every core: their records are held beside each other
        /// until they are entries.
        package var catalogs: Int
        /// Uncatalogued photos made entries together: their entries are small, and each part
        /// ends with what it held given back to the system (`ImportStep`), which is not free.
        package var files: Int

        package init(catalogs: Int = 64, files: Int = 16_384) {
            (self.catalogs, self.files) = (max(1, catalogs), max(1, files))
        }
    }

    init(_ loader: ContentLoader, walk: FolderListing) {
        self.loader = loader
        let (files, contentRoot) = (loader.files, loader.contentRoot)
        // A folder that will not open is left out, as an unreadable file is; the model keeps
        // the photos it held (see ImportStep).
        for folder in walk.unreadable {
            inventory.unreadableFolders.append(folder.path)
            inventory.issues.append(.error("content/\(folder.path)/", "\(folder.reason); the photos in it are left out"))
        }
        // What the owner left out is gone before anything is read: no catalog, album setting or
        // photo under it is looked at, and a record naming one of its files is passed over.
        var exclusions = loader.exclusions
        let whole = walk.entries
        // A marker is known by its name.
        let markers = whole.indices.filter { whole.withNameBytes(at: $0, ContentExclusions.isMarker(bytes:)) }
        exclusions.readMarkers(markers.filter { !whole.isLink(at: $0) }.map(whole.path(at:)), contentRoot: contentRoot, files: files)
        // The walk's own listing when nothing is left out, not a copy.
        var kept = whole
        if !markers.isEmpty || !exclusions.isEmpty {
            kept = FileList()
            for entry in whole where markers.isEmpty || !ContentExclusions.isMarker(entry.path) {
                if !exclusions.isEmpty, let reason = exclusions.reason(for: RelativePath(entry.path)) {
                    inventory.leftOut.append(LeftOutFile(path: entry.path, reason: reason))
                } else {
                    kept.append(entry)
                }
            }
        }
        self.exclusions = exclusions
        let listing = kept
        self.listing = listing
        // The listing's paths, each made a string when a pass asks for it.
        let all = listing.indices.lazy.map(listing.path(at:))
        // Each file's kind by its name's extension, found once (on every core) and asked by every
        // pass below, which looks at a file's path only when its kind is the one it is after: a
        // pass through all of them would make a string of every one.
        let kinds = listing.indices.concurrentMap(minimum: 4096) { listing.withNameBytes(at: $0, ContentFileKind.init(pathBytes:)) }
        self.kinds = kinds
        func listed(_ kind: ContentFileKind) -> [FileEntry] {
            kinds.indices.filter { kinds[$0] == kind }.map { listing[$0] }
        }
        let links = Set(listing.indices.filter(listing.isLink(at:)).map(listing.path(at:)))
        self.links = links
        var catalogs = listed(.catalog).map(\.path)
        // A video named as a photo in its folder (`IMG_1.MOV` beside `IMG_1.HEIC`) is that
        // photo's Live Photo clip; every other video is a photo of the gallery of its own.
        let clips = ContentLoader.liveClips(all, kinds: kinds)
        self.clips = clips
        // A RAW named as a photo in its folder (`IMG_1.CR2` beside `IMG_1.JPG`) is that photo's
        // companion; every other RAW is a photo of its own.
        let pairedRAWs = ContentLoader.pairedRAWs(all, kinds: kinds)
        let isPhoto = kinds.indices.map { ContentLoader.isPhoto(at: $0, all, kind: kinds[$0], clips: clips, pairedRAWs: pairedRAWs) }
        self.isPhoto = isPhoto
        photoCount = isPhoto.reduce(0) { $1 ? $0 + 1 : $0 }
        let images = zip(all, isPhoto).lazy.filter(\.1).map(\.0)
        realRoot = files.realPath(contentRoot) + "/"
        walked = WalkedFiles(listing)
        xmp = XMPSidecars(listing, kinds: kinds)
        markdown = ContentLoader.sigalMarkdown(listing.indices.filter { kinds[$0] == .document }.map { listing[$0] })
        holdsAll = kinds.contains(.json)

        // A folder's album.plist is its album's settings, unless it holds an array (a catalog).
        let albumReader = AlbumSettingsReader(contentRoot: contentRoot, files: files)
        lazy var photos = Set(images)
        readAt = Date()
        for settings in catalogs where AlbumSettingsReader.isAlbumSettings(settings) {
            guard !links.contains(settings) else { continue }
            let stamp = walked.stamp(of: settings) ?? files.stamp(of: contentRoot.appendingPathComponent(settings))
            let (album, password, issues, unset) = albumReader.read(settings, stamp: stamp, now: readAt, photos: photos,
                                                                    environment: loader.environment)
            guard let album else { continue }
            inventory.albums.append(album)
            if let password { inventory.passwords[album.path] = password }
            if let unset { inventory.unsetVariables.append(unset) }
            inventory.issues += issues
            catalogs.removeAll { $0 == settings }
        }
        self.catalogs = catalogs
        inventory.skipped = loader.skippedFiles(listing, kinds: kinds, isPhoto: isPhoto, photos: images)
    }

    /// The next part's entries, in the order a whole load lists them; nil once every photo was
    /// given, when `inventory` is complete.
    public mutating func next() -> [ContentEntry]? {
        guard !finished else { return nil }
        guard holdsAll else {
            if let part = makePart() { return part }
            var none: [ContentEntry] = []
            finish(&none)
            return nil
        }
        var entries: [ContentEntry] = []
        entries.reserveCapacity(photoCount)
        while let part = makePart() { entries += part }
        finish(&entries)
        return entries
    }

    /// The entries of the next batch of catalogs, or of the next run of uncatalogued photos.
    private mutating func makePart() -> [ContentEntry]? {
        if nextCatalog < catalogs.count {
            let batch = catalogs[nextCatalog..<min(nextCatalog + loader.partSize.catalogs, catalogs.count)]
            nextCatalog = batch.endIndex
            return catalogued(Array(batch))
        }
        var part: [ContentEntry] = []
        while nextFile < listing.count, part.count < loader.partSize.files {
            let index = nextFile
            nextFile += 1
            guard isPhoto[index] else { continue }
            let at = walked.position(ofListed: index)
            // A catalogued photo's path is not made a string again.
            if let at, walked.isListed(at: at) { continue }
            let path = listing.path(at: index)
            guard !walked.isListed(path, at: at) else { continue }
            if let stamp = loader.stamp(of: path, at: at, isMedia: true, realRoot: realRoot, walked: walked, catalog: nil,
                                        issues: &inventory.issues) {
                part.append(withCompanions(ContentEntry(path: path, record: nil, stamp: stamp)))
            }
        }
        return part.isEmpty && nextFile >= listing.count ? nil : part
    }

    /// The entries the records of `batch` give. Catalogs are read (parsed, or taken from the
    /// cache) on every core, and where the walk found each record's file looked up there too;
    /// what they say is taken in the walk's order, one after the other.
    private mutating func catalogued(_ batch: [String]) -> [ContentEntry] {
        let (files, contentRoot, found, now, keepsRecords, realRoot, links) = (loader.files, loader.contentRoot, walked, readAt,
                                                                               loader.keepsRecords, realRoot, links)
        let reader = CatalogReader(contentRoot: contentRoot, files: files, cache: loader.catalogCache)
        var results = batch.concurrentMap(minimum: 2) { catalog -> (CatalogReader.Result, RecordFacts, [Int: CatalogRecord])? in
            if links.contains(catalog), files.realPath(contentRoot.appendingPathComponent(catalog)).pathRelative(to: realRoot) == nil {
                return nil
            }
            var result = reader.read(catalog: catalog, stamp: found.stamp(of: catalog), now: now)
            let facts = RecordFacts(result, walked: found, fingerprints: !keepsRecords)
            // Let go here, on the core that made them, when the entries will not keep them and
            // every file they name was found as named (one that was not may be found under its
            // name in the other normal form, and fingerprinted with that path); but for the
            // few an edit parsed anew (an eighth of the catalog at most), whose photos the
            // import will read: it then need not read the catalog again for them.
            var anew: [Int: CatalogRecord] = [:]
            if !keepsRecords, !facts.positions.contains(nil) {
                if result.parsedAnew.count * 8 < result.records.count {
                    for index in result.parsedAnew { anew[index] = result.records[index] }
                }
                result.records = []
            }
            return (result, facts, anew)
        }
        var entries: [ContentEntry] = []
        for (index, catalog) in batch.enumerated() {
            // Each catalog's records are let go once they are entries.
            guard let (result, facts, anew) = results[index].take() else {
                inventory.issues.append(.error("content/\(catalog)", "is a link that leads outside content/"))
                continue
            }
            cached.formUnion(result.cacheKeys)
            inventory.issues += result.issues
            // The records by their places, not copied one by one (a copy is a dozen strings
            // retained and released on this core).
            for index in facts.positions.indices {
                var (at, asRead) = (facts.positions[index], true)
                // The path as the walk holds it (the record's own bytes, when found: the
                // record may have been let go).
                var path = at.map(walked.path(at:)) ?? result.records[index].path
                if at == nil, files.stamp(of: contentRoot.appendingPathComponent(path)) == nil, let onDisk = onDisk(path) {
                    (path, at, asRead) = (onDisk, walked.position(of: onDisk), false)
                }
                if !exclusions.isEmpty, exclusions.reason(for: RelativePath(path)) != nil { continue }
                guard !walked.isListed(path, at: at) else {
                    inventory.issues.append(.warning(facts.locations[index], "'\(path)' is listed by an earlier record too; the first one is used"))
                    continue
                }
                guard let stamp = loader.stamp(of: path, at: at, isMedia: asRead ? facts.isMedia[index] : ContentPath.isMedia(path),
                                               realRoot: realRoot, walked: walked, catalog: facts.locations[index],
                                               issues: &inventory.issues)
                else { continue }
                walked.list(path, at: at)
                if var record = keepsRecords ? result.records[index] : anew[index] {
                    record.path = path
                    entries.append(withCompanions(ContentEntry(path: path, record: record, stamp: stamp)))
                } else {
                    // Its fingerprint as worked out beside the others, unless its path is
                    // another than the record's (a name in the other normal form).
                    var fingerprint: UInt64 {
                        guard !asRead else { return facts.fingerprints[index] }
                        var record = result.records[index]
                        record.path = path
                        return record.fingerprintValue
                    }
                    let place = CatalogRecord.Place(catalog: catalog, index: Int32(index), fingerprint: fingerprint)
                    entries.append(withCompanions(ContentEntry(path: path, catalogued: place, stamp: stamp)))
                }
            }
        }
        return entries
    }

    /// `path` as the walk found it in the other Unicode normal form.
    private mutating func onDisk(_ path: String) -> String? {
        if byComposedName == nil {
            var byName: [String: String] = [:]
            for file in listing { byName[file.path.precomposedStringWithCanonicalMapping] = file.path }
            byComposedName = byName
        }
        return byComposedName![path.precomposedStringWithCanonicalMapping]
    }

    /// The entry with the files beside it that are part of it: its XMP sidecar, sigal's
    /// description, a Live Photo's clip.
    private mutating func withCompanions(_ entry: consuming ContentEntry) -> ContentEntry {
        var entry = entry
        let (files, contentRoot) = (loader.files, loader.contentRoot)
        if let sidecar = xmp.sidecar(of: entry.path),
           let stamp = walked.stamp(of: sidecar) ?? files.stamp(of: contentRoot.appendingPathComponent(sidecar)) {
            entry.sidecar = Sidecar(path: sidecar, stamp: stamp)
        }
        if !markdown.isEmpty, let file = markdown[ContentLoader.withoutExtension(entry.path).lowercased()],
           !ContentLoader.isAlbumDescription(file), let stamp = files.stamp(of: contentRoot.appendingPathComponent(file)) {
            entry.markdown = Sidecar(path: file, stamp: stamp)
            markdownUsed.insert(file)
        }
        if !clips.stillOf.isEmpty, let clip = clips.stillOf[entry.path],
           let stamp = walked.stamp(of: clip) ?? files.stamp(of: contentRoot.appendingPathComponent(clip)) {
            entry.clip = Sidecar(path: clip, stamp: stamp)
        }
        return entry
    }

    /// What is said of the whole once every entry is made: links not followed, sigal's album
    /// descriptions, and Google Takeout's sidecars paired with `entries` (all of them).
    private mutating func finish(_ entries: inout [ContentEntry]) {
        finished = true
        // A link that is not a photo's (to a folder, or leading nowhere) is not followed; it is
        // said so, never passed over in silence.
        for index in listing.indices where listing.isLink(at: index) {
            let link = listing.path(at: index)
            if !ContentPath.isMedia(link) && !catalogs.contains(link) {
                inventory.issues.append(loader.linkIssue(link, realRoot: realRoot))
            }
        }
        let (listing, isPhoto) = (listing, isPhoto)
        lazy var photos = Set(zip(listing.indices.lazy.map(listing.path(at:)), isPhoto).lazy.filter(\.1).map(\.0))
        loader.readSigalAlbumDescriptions(into: &inventory, markdown: markdown, used: markdownUsed, photos: { photos })
        if holdsAll {
            // Swapped in and out, not copied: the pairing edits the entries where they are.
            swap(&entries, &inventory.entries)
            loader.readTakeoutMetadata(into: &inventory, listing: kinds.indices.filter { kinds[$0] == .json }.map { listing[$0] })
            swap(&entries, &inventory.entries)
        }
        loader.catalogCache?.prune(keeping: cached)
    }
}

/// What the load asks of each record of a catalog, worked out on the core that read it (a large
/// catalog's files looked up on every core): where the walk found its file, whether it names a
/// photo or a video, and (when the entries let their records go) its fingerprint, rather than
/// asked one record after another, on one core, as the entries are made.
private struct RecordFacts: Sendable {
    var positions: [Int?]
    var isMedia: [Bool]
    /// Where each record stands, for messages (`CatalogRecord.location`).
    var locations: [String]
    /// Empty unless asked for.
    var fingerprints: [UInt64]

    init(_ read: CatalogReader.Result, walked: WalkedFiles, fingerprints: Bool) {
        let records = read.records
        positions = records.concurrentMap { walked.position(of: $0.path) }
        locations = records.map(\.location)
        isMedia = records.map { ContentPath.isMedia($0.path) }
        self.fingerprints = fingerprints ? read.fingerprints : []
    }
}

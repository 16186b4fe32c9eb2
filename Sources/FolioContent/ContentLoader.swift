import FolioCore
import FolioModel
import Foundation

/// Finds every catalog and image under `content/` and pairs each image with its record.
public struct ContentLoader: Sendable {
    public let contentRoot: URL
    public let files: any FileAccess
    /// The site's `exclude` patterns; the `.nomedia` files are found by the walk.
    public let exclusions: ContentExclusions
    /// Where the readings of catalogs are kept between builds; every catalog is parsed when nil.
    let catalogCache: CatalogCache?
    /// Whether each entry keeps its record whole, or only where it is and its fingerprint
    /// (`ContentEntry.catalogued`), as a build's load does: its import reads again the records
    /// of the photos that changed (`ImportStep.takeBackRecords`).
    package var keepsRecords = true
    /// Where album passwords given by a variable (`passwordVariable`) are read.
    package var environment = ProcessInfo.processInfo.environment

    public init(contentRoot: URL, files: any FileAccess = LocalFileAccess(), exclusions: ContentExclusions = ContentExclusions()) {
        self.init(contentRoot: contentRoot, files: files, exclusions: exclusions, catalogCache: nil)
    }

    package init(contentRoot: URL, files: any FileAccess, exclusions: ContentExclusions, catalogCache: CatalogCache?) {
        self.contentRoot = contentRoot.standardizedFileURL
        self.files = files
        self.exclusions = exclusions
        self.catalogCache = catalogCache
    }

    public func load() throws -> ContentInventory {
        try load(walk: files.listing(under: contentRoot))
    }

    /// The inventory of content/ as `walk` found it (a build walks first, to see whether
    /// anything moved at all).
    package func load(walk: FolderListing) throws -> ContentInventory {
        var inventory = ContentInventory()
        // A folder that will not open is left out, as an unreadable file is; the model keeps
        // the photos it held (see ImportStep).
        for folder in walk.unreadable {
            inventory.unreadableFolders.append(folder.path)
            inventory.issues.append(.error("content/\(folder.path)/", "\(folder.reason); the photos in it are left out"))
        }
        // What the owner left out is gone before anything is read: no catalog, album setting or
        // photo under it is looked at, and a record naming one of its files is passed over.
        var exclusions = exclusions
        let markers = walk.entries.filter { ContentExclusions.isMarker($0.path) }
        exclusions.readMarkers(markers.filter { !$0.isLink }.map(\.path), contentRoot: contentRoot, files: files)
        // The walk's own listing when nothing is left out, not a copy.
        var listing = walk.entries
        if !markers.isEmpty || !exclusions.isEmpty {
            listing = []
            for entry in walk.entries where markers.isEmpty || !ContentExclusions.isMarker(entry.path) {
                if !exclusions.isEmpty, let reason = exclusions.reason(for: RelativePath(entry.path)) {
                    inventory.leftOut.append(LeftOutFile(path: entry.path, reason: reason))
                } else {
                    listing.append(entry)
                }
            }
        }
        // The listing's paths, looked through where they are, not copied into arrays of their own.
        let all = listing.lazy.map(\.path)
        // Each file's kind by its extension, found once (on every core) and asked by every pass
        // below, which looks at a file's path only when its kind is the one it is after: each
        // path is a string of its own, and a pass through all of them copies, retains and
        // releases every one.
        let kinds = listing.concurrentMap(minimum: 4096) { ContentFileKind(path: $0.path) }
        func listed(_ kind: ContentFileKind) -> [FileEntry] {
            kinds.indices.filter { kinds[$0] == kind }.map { listing[$0] }
        }
        var catalogs = listed(.catalog).map(\.path)
        // A video named as a photo in its folder (`IMG_1.MOV` beside `IMG_1.HEIC`) is that
        // photo's Live Photo clip; every other video is a photo of the gallery of its own.
        let clips = Self.liveClips(all, kinds: kinds)
        // A RAW named as a photo in its folder (`IMG_1.CR2` beside `IMG_1.JPG`) is that photo's
        // companion; every other RAW is a photo of its own.
        let pairedRAWs = Self.pairedRAWs(all, kinds: kinds)
        let isPhoto = kinds.indices.map { Self.isPhoto(at: $0, all, kind: kinds[$0], clips: clips, pairedRAWs: pairedRAWs) }
        let images = zip(all, isPhoto).lazy.filter(\.1).map(\.0)
        let realRoot = files.realPath(contentRoot) + "/"
        // The regular files the walk found, which are inside content/ by construction (only links,
        // and paths a catalog names that the walk did not find, need their real path checked),
        // with what the walk learnt of each on its way, so most files cost no stat of their own;
        // and which of them are photos already, by a record or as found.
        var walked = WalkedFiles(listing)

        // A catalog typed in one normal form finds a file named in the other (macOS writes names
        // decomposed; keyboards type them composed). Made only when a record names a file the
        // walk did not find: composing every name costs more than the rest of the walk.
        var byComposedName: [String: String]?
        func onDisk(_ path: String) -> String? {
            if byComposedName == nil {
                byComposedName = [:]
                for path in all { byComposedName![path.precomposedStringWithCanonicalMapping] = path }
            }
            return byComposedName![path.precomposedStringWithCanonicalMapping]
        }
        // Sidecars by lower-cased path: cameras write IMG_1.JPG, tools IMG_1.xmp or IMG_1.JPG.XMP.
        var sidecars: [String: String] = [:]
        for index in kinds.indices where kinds[index] == .sidecar && !listing[index].isLink && ContentPath.isSidecar(listing[index].path) {
            sidecars[listing[index].path.lowercased()] = listing[index].path
        }
        // A folder's album.plist is its album's settings, unless it holds an array (a catalog).
        let albumReader = AlbumSettingsReader(contentRoot: contentRoot, files: files)
        lazy var photos = Set(images)
        let readAt = Date()
        for settings in catalogs where AlbumSettingsReader.isAlbumSettings(settings) {
            let entry = listing.first { $0.path == settings }
            guard entry?.isLink != true else { continue }
            let stamp = entry?.stamp ?? files.stamp(of: contentRoot.appendingPathComponent(settings))
            let (album, password, issues, unset) = albumReader.read(settings, stamp: stamp, now: readAt, photos: photos, environment: environment)
            guard let album else { continue }
            inventory.albums.append(album)
            if let password { inventory.passwords[album.path] = password }
            if let unset { inventory.unsetVariables.append(unset) }
            inventory.issues += issues
            catalogs.removeAll { $0 == settings }
        }
        let reader = CatalogReader(contentRoot: contentRoot, files: files, cache: catalogCache)
        // Room for every photo's entry up front: grown by doubling, a large library's entries
        // would be copied over and over into fresh pages.
        inventory.entries.reserveCapacity(isPhoto.reduce(0) { $1 ? $0 + 1 : $0 })
        var cached = Set<String>()
        defer { catalogCache?.prune(keeping: cached) }
        let links = Set(listing.filter(\.isLink).map(\.path))
        // Catalogs are read (parsed, or taken from the cache) on every core, and where the walk
        // found each record's file looked up there too; what they say is taken in the walk's
        // order, one after the other. A batch of 64 at a time, so a large library's records are
        // never all held beside the entries made of them.
        let (files, contentRoot, found, now, keepsRecords) = (self.files, self.contentRoot, walked, Date(), keepsRecords)
        for batch in catalogs.chunked(64) {
            var results = Array(batch).concurrentMap(minimum: 2) { catalog -> (CatalogReader.Result, RecordFacts, [Int: CatalogRecord])? in
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
                    // The walk's own string for the path (the same bytes): the record's, made
                    // from the catalog's folder and the name it gives, goes.
                    var path = at.map(walked.path(at:)) ?? result.records[index].path
                    if at == nil, files.stamp(of: contentRoot.appendingPathComponent(path)) == nil, let onDisk = onDisk(path) {
                        (path, at, asRead) = (onDisk, walked.position(of: onDisk), false)
                        if let at { path = walked.path(at: at) }
                    }
                    if !exclusions.isEmpty, exclusions.reason(for: RelativePath(path)) != nil { continue }
                    guard !walked.isListed(path, at: at) else {
                        inventory.issues.append(.warning(facts.locations[index], "'\(path)' is listed by an earlier record too; the first one is used"))
                        continue
                    }
                    guard let stamp = stamp(of: path, at: at, isMedia: asRead ? facts.isMedia[index] : ContentPath.isMedia(path),
                                            realRoot: realRoot, walked: walked, catalog: facts.locations[index], issues: &inventory.issues)
                    else { continue }
                    walked.list(path, at: at)
                    if var record = keepsRecords ? result.records[index] : anew[index] {
                        record.path = path
                        inventory.entries.append(ContentEntry(path: path, record: record, stamp: stamp))
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
                        inventory.entries.append(ContentEntry(path: path, catalogued: place, stamp: stamp))
                    }
                }
            }
        }
        for index in listing.indices where isPhoto[index] {
            let file = listing[index]
            let at = walked.position(ofListed: index)
            guard !walked.isListed(file.path, at: at) else { continue }
            if let stamp = stamp(of: file.path, at: at, isMedia: true, realRoot: realRoot, walked: walked, catalog: nil,
                                 issues: &inventory.issues) {
                inventory.entries.append(ContentEntry(path: file.path, record: nil, stamp: stamp))
            }
        }
        inventory.skipped = skippedFiles(listing, kinds: kinds, isPhoto: isPhoto, photos: images)
        // A link that is not a photo's (to a folder, or leading nowhere) is not followed; it is
        // said so, never passed over in silence.
        for index in listing.indices where listing[index].isLink {
            let link = listing[index].path
            if !ContentPath.isMedia(link) && !catalogs.contains(link) { inventory.issues.append(linkIssue(link, realRoot: realRoot)) }
        }
        pairXMPSidecars(into: &inventory, sidecars: sidecars, walked: walked)
        readSigalDescriptions(into: &inventory, listing: listed(.document), photos: { photos })
        readTakeoutMetadata(into: &inventory, listing: listed(.json))
        for index in inventory.entries.indices where !clips.clipOf.isEmpty {
            guard let clip = clips.stillOf[inventory.entries[index].path],
                  let stamp = walked.stamp(of: clip) ?? files.stamp(of: contentRoot.appendingPathComponent(clip)) else { continue }
            inventory.entries[index].clip = Sidecar(path: clip, stamp: stamp)
        }
        return inventory
    }

    private func linkIssue(_ path: String, realRoot: String) -> BuildIssue {
        let url = contentRoot.appendingPathComponent(path)
        let shown = "content/\(path)"
        guard files.realPath(url).pathRelative(to: realRoot) != nil else {
            return .error(shown, "is a link that leads outside content/")
        }
        if files.isFolder(url) {
            return .warning(shown, "is a link to a folder inside content/: not followed (its photos are found where they are)")
        }
        if files.stamp(of: url) == nil {
            return .warning(shown, "is a link that leads nowhere")
        }
        return .warning(shown, "is a link to a file that is not a photo: not followed")
    }

    /// The stamp of the photo file at `path`, which the walk found at `at` (nil: a link, or a
    /// path a catalog names that the walk did not find); nil, said in `issues`, when it is no
    /// photo of the gallery. `isMedia`: whether the path names an image or a video
    /// (`ContentPath.isMedia`), known already.
    private func stamp(of path: String, at: Int?, isMedia: Bool, realRoot: String, walked: WalkedFiles,
                       catalog: @autoclosure () -> String?, issues: inout [BuildIssue]) -> FileStamp? {
        var url: URL { contentRoot.appendingPathComponent(path) }
        var shown: String { "content/\(path)" }
        var blame: String { catalog().map { "\($0) (\(path))" } ?? shown }
        guard let stamp = at.flatMap(walked.stamp(at:)) ?? files.stamp(of: url) else {
            issues.append(.error(blame, "image file not found"))
            return nil
        }
        guard at != nil || files.realPath(url).pathRelative(to: realRoot) != nil else {
            issues.append(.error(blame, "is a link that leads outside content/"))
            return nil
        }
        guard isMedia else {
            issues.append(.error(blame, "not an image, RAW or video file (expected .jpg, .png, .gif, .webp, .avif, .heic, .tif, .dng, .cr2, .nef, .mp4, .mov, .webm…)"))
            return nil
        }
        return stamp
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

import Foundation

/// Finds every catalog and image under `content/` and pairs each image with its record.
public struct ContentLoader: Sendable {
    public let contentRoot: URL
    public let files: any FileAccess
    /// The site's `exclude` patterns; the `.nomedia` files are found by the walk.
    public let exclusions: ContentExclusions
    /// Where the readings of catalogs are kept between builds; every catalog is parsed when nil.
    let catalogCache: CatalogCache?

    public init(contentRoot: URL, files: any FileAccess = LocalFileAccess(), exclusions: ContentExclusions = ContentExclusions()) {
        self.init(contentRoot: contentRoot, files: files, exclusions: exclusions, catalogCache: nil)
    }

    init(contentRoot: URL, files: any FileAccess, exclusions: ContentExclusions, catalogCache: CatalogCache?) {
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
    func load(walk: FolderListing) throws -> ContentInventory {
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
        var listing: [FileEntry] = []
        for entry in walk.entries where markers.isEmpty || !ContentExclusions.isMarker(entry.path) {
            if !exclusions.isEmpty, let reason = exclusions.reason(for: RelativePath(entry.path)) {
                inventory.leftOut.append(LeftOutFile(path: entry.path, reason: reason))
            } else {
                listing.append(entry)
            }
        }
        let all = listing.map(\.path)
        var catalogs = all.filter { RelativePath.lowercasedExtension(of: $0) == "plist" }
        // A video named as a photo in its folder (`IMG_1.MOV` beside `IMG_1.HEIC`) is that
        // photo's Live Photo clip; every other video is a photo of the gallery of its own.
        let clips = Self.liveClips(all)
        let images = all.filter { ContentPath.isImage($0) || (ContentPath.isVideo($0) && clips.clipOf[$0] == nil) }
        let realRoot = files.realPath(contentRoot) + "/"
        // Regular files the walk found are inside content/ by construction; only links, and paths
        // a catalog names that the walk did not find, need their real path checked.
        let inside = Set(listing.filter { !$0.isLink }.map(\.path))
        // What the walk learnt of each file on its way, so most files cost no stat of their own.
        // Swift's String equality is canonical: a name found must be the same bytes as the one
        // asked for, or it is another file (composed and decomposed names are two on Linux).
        var found: [String: (path: String, stamp: FileStamp)] = [:]
        for entry in listing where !entry.isLink { if let stamp = entry.stamp { found[entry.path] = (entry.path, stamp) } }
        let walkStamps = WalkStamps(found: found)

        // Paths as bytes: two files whose names differ only in Unicode normal form are two files.
        var listed = Set<PhotoSource>()
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
        for entry in listing where !entry.isLink && ContentPath.isSidecar(entry.path) { sidecars[entry.path.lowercased()] = entry.path }
        // A folder's album.plist is its album's settings, unless it holds an array (a catalog).
        let albumReader = AlbumSettingsReader(contentRoot: contentRoot, files: files)
        let photos = Set(images)
        for settings in catalogs where AlbumSettingsReader.isAlbumSettings(settings) && !listing.contains(where: { $0.path == settings && $0.isLink }) {
            let (album, password, issues) = albumReader.read(settings, photos: photos)
            guard let album else { continue }
            inventory.albums.append(album)
            if let password { inventory.passwords[album.path] = password }
            inventory.issues += issues
            catalogs.removeAll { $0 == settings }
        }
        let reader = CatalogReader(contentRoot: contentRoot, files: files, cache: catalogCache)
        var cached = Set<String>()
        defer { catalogCache?.prune(keeping: cached) }
        let links = Set(listing.filter(\.isLink).map(\.path))
        // Catalogs are read (parsed, or taken from the cache) on every core, a large library's
        // thousand at once; what they say is taken in the walk's order, one after the other.
        let (files, contentRoot) = (self.files, self.contentRoot)
        let results = catalogs.concurrentMap(minimum: 2) { catalog -> CatalogReader.Result? in
            if links.contains(catalog), files.realPath(contentRoot.appendingPathComponent(catalog)).pathRelative(to: realRoot) == nil {
                return nil
            }
            return reader.read(catalog: catalog)
        }
        for (catalog, result) in zip(catalogs, results) {
            guard let result else {
                inventory.issues.append(.error("content/\(catalog)", "is a link that leads outside content/"))
                continue
            }
            if let key = result.cacheKey { cached.insert(key) }
            inventory.issues += result.issues
            for var record in result.records {
                if walkStamps[record.path] == nil, files.stamp(of: contentRoot.appendingPathComponent(record.path)) == nil,
                   let onDisk = onDisk(record.path) {
                    record.path = onDisk
                }
                if !exclusions.isEmpty, exclusions.reason(for: RelativePath(record.path)) != nil { continue }
                guard !listed.contains(.content(path: record.path)) else {
                    inventory.issues.append(.warning(record.location, "'\(record.path)' is listed by an earlier record too; the first one is used"))
                    continue
                }
                guard let entry = entry(record.path, record: record, realRoot: realRoot, inside: inside, stamps: walkStamps,
                                        catalog: record.location, issues: &inventory.issues) else { continue }
                listed.insert(.content(path: record.path))
                inventory.entries.append(entry)
            }
        }
        for image in images where !listed.contains(.content(path: image)) {
            if let entry = entry(image, record: nil, realRoot: realRoot, inside: inside, stamps: walkStamps, catalog: nil,
                                 issues: &inventory.issues) {
                inventory.entries.append(entry)
            }
        }
        inventory.skipped = skippedFiles(listing.filter { !$0.isLink }.map(\.path), photos: images)
        // A link that is not a photo's (to a folder, or leading nowhere) is not followed; it is
        // said so, never passed over in silence.
        for link in listing where link.isLink && !ContentPath.isMedia(link.path) && !catalogs.contains(link.path) {
            inventory.issues.append(linkIssue(link.path, realRoot: realRoot))
        }
        for index in inventory.entries.indices where !sidecars.isEmpty {
            let path = inventory.entries[index].path
            let candidates = [path + ".xmp", RelativePath(path).deletingExtension.text + ".xmp"].map { $0.lowercased() }
            guard let sidecar = candidates.lazy.compactMap({ sidecars[$0] }).first,
                  let stamp = walkStamps[sidecar] ?? files.stamp(of: contentRoot.appendingPathComponent(sidecar)) else { continue }
            inventory.entries[index].sidecar = Sidecar(path: sidecar, stamp: stamp)
        }
        readSigalDescriptions(into: &inventory, listing: listing, photos: Set(images))
        for index in inventory.entries.indices where !clips.clipOf.isEmpty {
            guard let clip = clips.stillOf[inventory.entries[index].path],
                  let stamp = walkStamps[clip] ?? files.stamp(of: contentRoot.appendingPathComponent(clip)) else { continue }
            inventory.entries[index].clip = Sidecar(path: clip, stamp: stamp)
        }
        return inventory
    }

    /// Live Photos' clips: each video whose folder holds a still of its name (case aside), by
    /// the video (`clipOf`: video → still) and by the still (`stillOf`: still → video).
    static func liveClips(_ paths: [String]) -> (clipOf: [String: String], stillOf: [String: String]) {
        let videos = paths.filter(ContentPath.isVideo)
        guard !videos.isEmpty else { return ([:], [:]) }
        var stills: [String: String] = [:]
        for path in paths where ContentPath.isImage(path) {
            stills[RelativePath(path).deletingExtension.text.lowercased()] = path
        }
        var clipOf: [String: String] = [:], stillOf: [String: String] = [:]
        for video in videos.sorted() {
            guard let still = stills[RelativePath(video).deletingExtension.text.lowercased()], stillOf[still] == nil else { continue }
            clipOf[video] = still
            stillOf[still] = video
        }
        return (clipOf, stillOf)
    }

    /// Every file that is neither a photo, a video nor a catalog. A RAW named as a photo in its
    /// folder (`IMG_1.CR2` beside `IMG_1.JPG`) is that photo's companion; a sidecar named so
    /// (`IMG_1.xmp`, `IMG_1.HEIC.xmp`, `IMG_1.AAE`) is part of the photo and not skipped at all.
    private func skippedFiles(_ paths: [String], photos: [String]) -> [SkippedFile] {
        // Made only when some file may be a companion: most libraries have none.
        lazy var photoByStem: [String: String] = {
            var byStem: [String: String] = [:]
            for photo in photos {
                byStem[RelativePath(photo).deletingExtension.text.lowercased()] = photo
                byStem[photo.lowercased()] = photo
            }
            return byStem
        }()
        return paths.compactMap { path in
            let kind = ContentFileKind(path: path)
            // Videos are imported: alone, or as the clip of the Live Photo of their name.
            guard kind != .photo, kind != .catalog, kind != .video else { return nil }
            let photo = kind.accompaniesPhotos ? photoByStem[RelativePath(path).deletingExtension.text.lowercased()] : nil
            if kind == .sidecar, photo != nil { return nil }
            return SkippedFile(path: path, kind: kind, companionOf: photo)
        }.sorted { $0.path < $1.path }
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

    private func entry(_ path: String, record: CatalogRecord?, realRoot: String, inside: Set<String>, stamps: WalkStamps,
                       catalog: String?, issues: inout [BuildIssue]) -> ContentEntry? {
        var url: URL { contentRoot.appendingPathComponent(path) }
        var shown: String { "content/\(path)" }
        var blame: String { catalog.map { "\($0) (\(path))" } ?? shown }
        guard let stamp = stamps[path] ?? files.stamp(of: url) else {
            issues.append(.error(blame, "image file not found"))
            return nil
        }
        guard inside.contains(path) || files.realPath(url).pathRelative(to: realRoot) != nil else {
            issues.append(.error(blame, "is a link that leads outside content/"))
            return nil
        }
        guard ContentPath.isMedia(path) else {
            issues.append(.error(blame, "not an image or video file (expected .jpg, .png, .gif, .webp, .avif, .heic, .tif, .mp4, .mov, .webm…)"))
            return nil
        }
        return ContentEntry(path: path, record: record, stamp: stamp)
    }
}

/// The stamps the walk learnt, found by the bytes of a path.
struct WalkStamps {
    let found: [String: (path: String, stamp: FileStamp)]

    subscript(path: String) -> FileStamp? {
        guard let hit = found[path], hit.path.utf8.elementsEqual(path.utf8) else { return nil }
        return hit.stamp
    }
}

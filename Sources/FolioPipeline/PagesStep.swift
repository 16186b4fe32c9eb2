import CSystem
import FolioChanges
import FolioCore
import FolioModel
import FolioSite
import Foundation

/// The site as routes, each page made from the model when it is drawn: every route with the
/// builder that makes its page (the listed site's, or an unlisted album's), the search index,
/// and the media they refer to.
struct SitePages: StepOutput {
    /// The listed site's builder first, then each unlisted album's.
    var builders: [SiteBuilder]
    /// Every page, with the number of the builder in `builders` that makes it.
    var routes: SiteRoutes
    /// The search index's files being written beside the render: the manifest's entries for
    /// them. Nil when they were made before the pages were laid out and are in `manifest`
    /// already (a large site's: `BuildOptions.photosHeldUpTo`), not held beside it through the render.
    var search: Task<PageManifest, any Error>?
    /// How many files the search index has when it was made before the pages were laid out, else
    /// 0: the render's manifest makes room for them too.
    var searchFiles: Int
    /// The feed, and whatever else is written beside the pages whole.
    var files: [SiteFile]
    var photos: Int
    /// The unlisted albums drawn, whose links the build tells the owner.
    var unlisted: [UnlistedAlbum]
    /// How each protected album's pages are encrypted, by the folder they go in.
    var seals: [String: AlbumSeal]
    /// Every media file and tile folder the pages refer to: the rest of `public/media/` goes.
    var media: MediaInUse
    /// How pages are drawn: the theme, the settings, this Folio (`BuildMark.drawing`).
    var drawing: String
    /// What the listed site's pages are made from, kept for the next build: written beside the
    /// state when the pages are laid out (`BuildState.stage(digest:)`), not held to the write
    /// step; its hash, or why it could not be written.
    var digest: Result<String, any Error>
    /// Which pages a change since the last build can touch (an unlisted album's are all looked at).
    var changes: PageChanges
    /// The manifest the render step draws into, made from the last build's, whose pages and
    /// files are those of the site in place.
    var manifest: SharedManifest
}

/// Every page of a site in the order they are drawn, each with the number of the builder (in
/// the builders given) that makes it: each builder's listings (`SiteBuilder.listingRoutes()`),
/// then its photos' pages (in the order of their paths: `SiteBuilder.photoPageOrder()`). A
/// photo's route is made when it is asked for, from its builder's photos, so a large site's
/// photo pages are never all held as routes.
struct SiteRoutes: RandomAccessCollection, Sendable {
    private var photoRoutes: [SiteBuilder.PhotoRoutes] = []
    private var listings: [[Route]] = []
    /// Each builder's photos (positions in its `ordered`) in the order of their pages.
    private var photos: [[Int32]] = []
    /// Where each builder's pages start, and (last) where the pages end.
    private var starts = [0]

    init() {}

    init(_ builders: [SiteBuilder]) {
        photoRoutes = builders.map(\.photoRoutes)
        for builder in builders {
            listings.append(builder.listingRoutes())
            photos.append(builder.photoPageOrder())
            starts.append(starts.last! + listings.last!.count + builder.ordered.count)
        }
    }

    /// Its photo pages' routes made from these builders' photos (the same photos, read where
    /// they lie: `SiteBuilder.spill`).
    mutating func readPhotos(of builders: [SiteBuilder]) {
        photoRoutes = builders.map(\.photoRoutes)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { starts.last! }

    subscript(position: Int) -> (route: Route, builder: Int) {
        let (builder, offset) = place(of: position)
        let listings = self.listings[builder]
        if offset < listings.count { return (listings[offset], builder) }
        let photos = photoRoutes[builder]
        return (photos.route(of: photos.ordered[Int(self.photos[builder][offset - listings.count])]), builder)
    }

    /// For a photo's page, the photo's position in its builder's `ordered`, which the builder
    /// draws it from (`SiteBuilder.photoPosition`); nil for a listing.
    func photo(at position: Int) -> Int? {
        let (builder, offset) = place(of: position)
        let listings = self.listings[builder].count
        return offset < listings ? nil : Int(photos[builder][offset - listings])
    }

    /// The builder of the page at `position`, and where among that builder's pages it is.
    private func place(of position: Int) -> (builder: Int, offset: Int) {
        precondition(position >= 0 && position < endIndex, "no page at \(position)")
        // The last builder whose pages start at or before `position` (those with none start where the next does).
        var (low, high) = (0, photoRoutes.count - 1)
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return (low, position - starts[low])
    }
}

/// The media files and tile folders a build's pages refer to, listed when the build is about to
/// clear the rest out of `public/media/`: after the render step, whose peak they would add to.
struct MediaInUse: Sendable {
    /// The photos published, each builder's (a protected album's images are only inside its
    /// encrypted pages).
    var photos: [PhotoRows]
    var names: MediaNames
    var unpublished: Set<Int64>
    /// Media that are not a photo's (the map's).
    var files: [String]

    /// One number for what decides the media in use besides each photo's own (`MediaLedger`)
    /// and the map's files: how media are named (`drawing`), the photos kept out. The same as
    /// the last build's, only the names of the photos whose media moved need looking at.
    package func digest(drawing: String) -> UInt64 {
        ContentHash.hash(Data("\(drawing) \(unpublished.sorted())".utf8))
    }

    /// The name prefixes among which media may have fallen out of use since the build that left
    /// `trees`, given those of the photos whose media moved (`BuildPlan.moved`); nil when every
    /// name must be looked at. The map's files are not among them: named by their content, they
    /// change with any place, and the last build's are known by name (`stale(_:since:)`).
    /// `inUse` is this build's `digest(drawing:)`.
    static func moved(since trees: TreeLedger?, inUse: UInt64, photos: Set<String>?) -> Set<String>? {
        guard let trees, trees.others != nil, inUse == trees.inUse else { return nil }
        return photos
    }

    /// The map's files (`files`) the build that left `trees` published and this one does not:
    /// deleted by name, without a look through every media file's.
    static func stale(_ files: [String], since trees: TreeLedger?) -> [String] {
        guard let last = trees?.others else { return [] }
        return Array(Set(last).subtracting(files)).sorted()
    }

    /// The media in use whose names start with one of `prefixes` (`MediaLedger.namePrefix(of:)`),
    /// or all of them: the map's files, and the media of each photo named by one of them.
    func paths(among prefixes: Set<String>? = nil) -> PathHashes {
        // Named on every core, 10,000 photos at a time, so a large site's names are never all
        // held before they are put in the set.
        let (names, unpublished) = (self.names, self.unpublished)
        // A checksum Folio made is sixteen hex digits, its own prefix: told by its number, held
        // beside the photo, without unpacking the photo (`GalleryPhoto`).
        let whole = prefixes.map { Set($0.compactMap { $0.utf8.count == 16 ? UInt64($0, radix: 16) : nil }) }
        var paths = PathHashes(files)
        for part in photos.lazy.flatMap({ $0.chunked(10_000) }) {
            let named = Array(part).concurrentMap { item -> [UInt64] in
                guard !unpublished.contains(item.id) else { return [] }
                if let whole, let number = item.checksumAsNumber, !item.hasClip, !whole.contains(number) { return [] }
                let photo = item.photo
                if let prefixes, let prefix = MediaLedger.namePrefix(of: photo.checksum), !prefixes.contains(prefix),
                   photo.motion?.clipChecksum.flatMap(MediaLedger.namePrefix(of:)).map(prefixes.contains) != true {
                    return []
                }
                return (names.media(of: photo)?.paths ?? []).map(PathHashes.hash)
            }
            for list in named { paths.insert(hashes: list) }
        }
        paths.putInOrder()
        return paths
    }
}

/// A protected album's key, and what tells it from another (`AlbumCipher.verifier`).
struct AlbumSeal: Sendable {
    var cipher: AlbumCipher
    var lock: String { cipher.verifier }
}

/// Lays out the site from the model, less the photos this build could not publish: which pages
/// it has, each drawn later as a value by its builder; checks that no two pages land on one path
/// before anything is drawn.
struct PagesStep: BuildStep {
    static let name = "pages"
    static let activity = "laying out the pages"

    /// `photos`: the plan's snapshot, less the photos whose images failed, handed over
    /// (`BuildPlan.takeSnapshot()`).
    func run(_ input: (site: ConfiguredSite, plan: BuildPlan, photos: Handover<GallerySnapshot>, passwords: [String: String]),
             in run: BuildRun) async throws -> SitePages {
        let (site, plan, passwords) = (input.site, input.plan, input.passwords)
        var snapshot = input.photos.take()
        // The last build's state is read beside the builder's work on the model, not after it:
        // its digest, and its manifest. Past `BuildOptions.photosHeldUpTo` photos only the search
        // index's part of the manifest is read now, the rest once the search index is made
        // (below): held beside its postings, the manifest would be at the step's peak.
        let state = site.state
        // Taken, not awaited as an `async let`, whose result the task holds to the step's end:
        // the last digest (a card digest and an identity for each photo) is let go once the
        // changes are known, before the search index is made, where the step's peak is.
        let lastDigest = MadeBeside { state.digest() }
        let whole = snapshot.photos.count <= run.options.photosHeldUpTo ? Task { state.pages() } : nil
        async let lastSearch = whole == nil ? state.pages(under: SearchIndex.folder) : await whole!.value.only(under: SearchIndex.folder)
        let names = plan.names
        let media = ImageLookup { names.media(of: $0) }
        var unpublished = Set<Int64>()
        // Unlisted albums' photos are drawn apart, each album by a builder of its own photos
        // alone, so nothing of them reaches the listed site: its pages, counts, search, feed.
        let secret = snapshot.albums.values.contains { $0.unlisted || $0.isProtected } ? try site.siteSecret().bytes : []
        // A protected album's key is derived here, on every build that lays out pages and on no
        // other: its verifier is the album's lock, so a new password (or salt) draws its pages
        // again, and the model keeps nothing a guess could be checked against more cheaply.
        var seals: [String: AlbumSeal] = [:]
        let unlisted = try (secret.isEmpty ? [] : UnlistedAlbum.all(in: snapshot.albums, secret: secret)).map { album in
            guard let source = album.lock else { return album }
            var album = album
            album.lock = AlbumInfo.passwordMissing
            if source != AlbumInfo.passwordMissing, let password = passwords[album.path] {
                let seal = AlbumSeal(cipher: try AlbumCipher(password: password, salt: album.salt(secret: secret)))
                seals[album.folder] = seal
                album.lock = seal.lock
            }
            return album
        }
        var unlistedPhotos: [UnlistedAlbum: Set<Int64>] = [:]
        if !unlisted.isEmpty {
            for item in snapshot.photos {
                guard let folder = item.folder, let album = unlisted.first(where: { $0.contains(folder) }) else { continue }
                unlistedPhotos[album, default: []].insert(item.id)
            }
        }
        let hidden = unlistedPhotos.values.reduce(into: Set<Int64>()) { $0.formUnion($1) }
        // Each unlisted album's photos taken out of the rest as a gallery of their own; then the
        // listed site's, the rest, left in place.
        var albumSnapshots: [(UnlistedAlbum, GallerySnapshot)] = []
        for album in unlisted {
            let own = unlistedPhotos[album] ?? []
            if album.lock != nil {
                // A protected album's images are published only inside its encrypted pages; with
                // no password to encrypt them with (a variable not set), it is not published at all.
                unpublished.formUnion(own)
                guard seals[album.folder] != nil else { continue }
            }
            albumSnapshots.append((album, snapshot.filter { own.contains($0.id) }))
        }
        let photoCount = snapshot.photos.count
        snapshot.remove(hidden)
        // The world the maps are drawn on, projected from the theme's outlines once per build.
        let basemap = try site.theme.basemap.map { try WorldBasemap(text: $0.text, named: $0.file) }
        var builder = SiteBuilder(snapshot: consume snapshot, images: media, settings: site.settings, now: run.now,
                                  language: site.language, basemap: basemap?.path)
        var builders = [builder] + albumSnapshots.map { album, snapshot in
            SiteBuilder(snapshot: snapshot, images: media, settings: site.settings, now: run.now, language: site.language,
                        unlisted: album, mapInNavigation: builder.hasMap)
        }
        var routes = SiteRoutes(builders)
        let drawing = BuildMark.drawing(theme: site.theme, settings: site.settings, folio: site.folio)
        // The check of every page's path and the site's digest, on a core each.
        let (checked, digest) = inParallel({ [routes, builders] in Result { try SiteBuilder.checkPaths(routes, of: builders) } },
                                           { [builder] in builder.digest(drawing: drawing) })
        try checked.get()
        var lastSite = await lastDigest.take()
        let changes = builder.changes(since: lastSite, to: digest)
        // This build's digest is written beside the state now, and let go: held, it would be
        // at the search index's peak, and the render's.
        let stagedDigest = Result { try state.stage(digest: consume digest) }
        let previousSearch = await lastSearch
        // The search index's photo shards and word files made again only where a photo's row or
        // words may differ or a photo came, went or moved, when the last build published one: the
        // rest are its files, taken over as they are.
        let searchPublished = previousSearch[SearchIndex.folder + "meta.js"] != nil
        let changed = searchPublished ? changes.photoPositions : nil
        // The last build's photos, which its search index numbered, kept only when that index is
        // updated (`changed`); the rest of its digest let go.
        let lastIdentities = changed == nil ? nil : lastSite?.identities
        lastSite = nil
        // Past `photosHeldUpTo` photos, the listed site's photos are rows since the plan, and
        // what reads photos at random is done: from here on every builder reads them where they
        // lie (`SiteBuilder.spill`, the unlisted albums' too), the search index a photo at
        // a time, in order, the render a page's few.
        if whole == nil {
            for at in builders.indices { builders[at].spill(into: state.folder.path) }
            builder = builders[0]
            routes.readPhotos(of: builders)
        }
        let published = unlisted.filter { unlistedPhotos[$0] != nil && ($0.lock == nil || seals[$0.folder] != nil) }
        // The search index is made on another core while this one makes the feed and the map,
        // then lays out and draws the pages (`SitePages.search`). Past `photosHeldUpTo` photos it
        // is made before the last build's manifest is read, so its postings and the manifest are
        // never held at once, and its files' entries go into the manifest here rather than being
        // held beside it through the render.
        let (output, now) = (site.output, run.now)
        // What laying out the site freed (the builders' scratch, the last build's digest) goes
        // back to the system first: kept by the allocator, it would stay under the search
        // index's postings at the step's peak.
        folio_return_freed_memory()
        let search = Task { [builder] in
            try SearchFiles.make(builder, changed: changed, lastIdentities: lastIdentities,
                                 state: state, output: output, previous: previousSearch, now: now)
        }
        var files = builder.feed().map { [$0] } ?? []
        if builder.hasMap {
            if let basemap { files.append(SiteFile(path: basemap.path, text: String(decoding: basemap.svg, as: UTF8.self))) }
            if let places = builder.mapData() { files.append(places) }
        }
        // The map's files are media: named by their content, kept while a page names them.
        let mapFiles = files.map(\.path).filter { $0.hasPrefix("media/") }
        let manifest: SharedManifest
        var searchFiles = 0
        if let whole {
            manifest = SharedManifest(last: await whole.value, spillingInto: state.folder.path)
        } else {
            let entries = try await search.value
            searchFiles = entries.count
            manifest = SharedManifest(last: state.pages(), spillingInto: state.folder.path)
            entries.forEach { manifest.set($0, $1) }
        }
        return SitePages(builders: builders, routes: routes, search: whole == nil ? nil : search, searchFiles: searchFiles, files: files,
                         photos: photoCount, unlisted: published, seals: seals,
                         media: MediaInUse(photos: builders.map(\.ordered), names: names, unpublished: unpublished, files: mapFiles),
                         drawing: drawing, digest: stagedDigest, changes: changes, manifest: manifest)
    }
}

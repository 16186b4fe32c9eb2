import CSystem
import FolioChanges
import FolioCore
import FolioImaging
import FolioMedia
import FolioModel
import FolioSite
import Foundation

/// Decides what images must be made. A photo whose thumbnails are in the model and whose other
/// renditions are already published needs no decoding at all; one whose media digest is the
/// last build's (`MediaLedger`) is not looked at. Writes nothing.
struct PlanStep: BuildStep {
    static let name = "plan"
    static let activity = "planning the images"

    /// `last` is the last build's media ledger, being read beside the model's photos.
    func run(_ input: (site: ConfiguredSite, imported: ImportResult, last: Task<MediaLedger?, Never>?), in run: BuildRun) async throws -> BuildPlan {
        let (site, imported, lastRead) = input
        let database = site.database
        // The last build's photos, kept, with the rows changed since; or every row. A large
        // library's are rows from here to the last page, read where they lie (`PhotoRows`).
        let kept = KeptSnapshot.Place(url: site.paths.keptSnapshot, folio: site.folio, disk: site.disk)
        let read = try database.snapshot(kept: kept, heldUpTo: run.options.photosHeldUpTo)
        let (revision, readWhole) = (read.revision, read.readWhole)
        // Taken out of the read, not shared with it: shared, the sort below would copy every
        // photo.
        var full = (consume read).snapshot
        // In the order pages list them, sorted in place: the site's builder then shares these photos.
        full.photos.sort(by: SiteBuilder.NewestFirst.init)
        // Kept in that order, for the next build (a shard, which writes no model, keeps none).
        if readWhole, site.lock != nil { database.keep(full.photos, revision: revision, at: kept) }
        let last = await lastRead?.value
        // A photo's source is in its packed value: looked at only when some photo failed.
        let failed = imported.failed.isEmpty ? [] : full.photos.filter { imported.failed[$0.photo.source] != nil }.map(\.id)
        // Left out in place: a copy of the rest would be every photo twice.
        full.remove(Set(failed))
        let snapshot = consume full
        let names = MediaNames(site: site)
        let drawing = BuildMark.drawing(theme: site.theme, settings: site.settings, folio: site.folio)
        let thumbnails = try database.thumbnailTally()
        // A photo removed takes its thumbnails with it: only a change before that is anyone else's.
        let known = last.flatMap { $0.holds(drawing: drawing, thumbnails: imported.thumbnailsBeforeRemovals ?? thumbnails) ? $0 : nil }
        let aside = PackedStore(spillingInto: site.state.folder.path, at: PackedStore.spoolSpillSize)
        var plan = BuildPlan(snapshot: snapshot, names: names, jobs: [], making: nil, restores: [], reused: 0,
                             ledger: MediaLedger(drawing: drawing, thumbnails: thumbnails), entries: .init(in: aside), moved: nil)
        defer { plan.entries.seal() }
        // The photos whose media are not the last build's: all of them on a cold build or
        // after a setting changed (their positions a range, not a list of every one), else
        // those added or whose file changed.
        guard let known else {
            try Self.plan(&plan, looking: snapshot.photos.indices, site: site)
            return plan
        }
        let standing = known.standing(of: snapshot.photos)
        plan.reused = standing.kept.items.reduce(0) { $0 + $1.entry.renditions }
        plan.entries.park(standing.kept)
        plan.moved = standing.moved
        try Self.plan(&plan, looking: standing.changed, site: site)
        return plan
    }

    /// Plans the media of the photos at `looked` (positions in the plan's snapshot, in
    /// increasing order): their ledger entries, their jobs, the thumbnails restored.
    private static func plan<Looked: RandomAccessCollection<Int>>(_ plan: inout BuildPlan, looking looked: Looked,
                                                                 site: ConfiguredSite) throws where Looked.Index == Int {
        let (snapshot, names) = (plan.snapshot, plan.names)
        plan.lookedAt = looked.count
        guard !looked.isEmpty else { return }
        // Photos with the same bytes share their media: one job, by checksum, makes it for
        // all. Known by the checksum's first 64 bits, not its text. Two checksums that only
        // begin alike each get a job, the second not indexed. Only photos that share those bits
        // with another are indexed: a table of every photo's would be held to the plan's peak.
        // Found before the room for the jobs is made, so the keys sorted are not held beside it.
        let firstSharing = sharingKeys(looked, of: snapshot.photos)
        // At most a job for each photo looked at: the room for them made once, not doubled as
        // they come (at the plan's peak, the old room beside the new).
        plan.jobs.reserveCapacity(looked.count)
        // What reading the rows freed (their values, the statements' buffers) goes back to the
        // system before the jobs are planned: kept by the allocator, it stays under what the
        // plan then holds, at the plan's peak, until the step ends.
        folio_return_freed_memory()
        // The thumbnails the model keeps, of the photos looked at when they are a few.
        let few = looked.count * 10 < snapshot.photos.count ? looked.map { snapshot.photos[$0].id } : nil
        let stored = try site.database.thumbnailKeys(specs: names.opaque.thumbnailSpecs, of: few)
        let making = Making(settings: site.settings, paths: site.paths, names: names, stored: stored, output: site.output,
                            contentRoot: site.paths.content.path + "/")
        plan.making = making
        var jobOfFirst: [Int32: Int32] = [:]
        // What each photo misses, on every core: naming each of its renditions and asking both
        // trees for it is most of a plan that looks at every photo. 10,000 photos at a time, so
        // a large library's needs are never all held at once.
        for part in looked.chunked(10_000) {
            // Each photo unpacked once (`GalleryPhoto.photo`), for its needs and its ledger entry.
            let needs = Array(part).concurrentMap(minimum: 256) { index in
                let photo = snapshot.photos[index].photo
                return (photo, making.needs(of: photo))
            }
            // Their ledger entries, put aside with each share (`MediaLedger.Entries.Parked`).
            var entries = MediaLedger.Entries()
            entries.reserveCapacity(part.count)
            for (index, (photo, need)) in zip(part, needs) {
                entries[photo.id] = MediaLedger.entry(of: photo, digest: snapshot.photos[index].mediaDigest,
                                                      renditions: need.map { $0.reused + $0.missing.count } ?? 0)
                guard let need else { continue }
                plan.restores += need.restores
                plan.reused += need.reused
                // A photo that misses nothing needs no job.
                guard need.needsJob else { continue }
                let first = firstSharing[Int32(index)]
                if let first, let number = jobOfFirst[first].map(Int.init),
                   snapshot.photos[Int(plan.jobs[number].first)].photo.checksum == photo.checksum {
                    plan.sharing[plan.jobs[number].first, default: []].append(Int32(index))
                    plan.jobs[number].hasTiles = plan.jobs[number].hasTiles || need.tiles != nil
                    if plan.jobs[number].videoSeconds == 0, let video = need.video {
                        plan.jobs[number].videoSeconds = Int32(ImagesStep.VideoProgress.seconds(video.duration))
                    }
                    continue
                }
                if let first, jobOfFirst[first] == nil { jobOfFirst[first] = Int32(plan.jobs.count) }
                plan.jobs.append(PlannedJob(first: Int32(index), pixels: need.width * need.height, isDownload: need.origin.isDownload,
                                            hasTiles: need.tiles != nil,
                                            videoSeconds: need.video.map { Int32(ImagesStep.VideoProgress.seconds($0.duration)) } ?? 0))
            }
            plan.entries.park(entries)
        }
    }

    /// A checksum's first 64 bits (its first sixteen hex digits), or its hash when it is not hex.
    static func key(_ checksum: String) -> UInt64 {
        UInt64(checksum.prefix(16), radix: 16) ?? ContentHash.hash(Data(checksum.utf8))
    }

    /// The photos at `positions` (in increasing order) whose checksum's key (`key(_:)`) another
    /// of them has too, each with the first of them that has it; the rest not at all. Found by
    /// sorting the keys, which are let go as it returns.
    static func sharingKeys(_ positions: some Collection<Int>, of photos: PhotoRows) -> [Int32: Int32] {
        // A checksum held as a number is its own key: only the others' photos are unpacked.
        var keyed = positions.map { (key: photos[$0].checksumAsNumber ?? key(photos[$0].photo.checksum), position: Int32($0)) }
        keyed.sortWithoutScratch { ($0.key, $0.position) < ($1.key, $1.position) }
        var first: [Int32: Int32] = [:]
        var start = 0
        while start < keyed.count {
            var end = start + 1
            while end < keyed.count, keyed[end].key == keyed[start].key { end += 1 }
            if end - start > 1 {
                for at in start..<end { first[keyed[at].position] = keyed[start].position }
            }
            start = end
        }
        return first
    }

    /// What the plan asks of each photo's media, and what a job's photos are asked again when
    /// it is made (`BuildPlan.job(_:)`).
    struct Making: Sendable {
        /// Not the configured site itself: the plan is let go after the build has returned,
        /// and the site holds the build's lock.
        let settings: SiteSettings
        let paths: SitePaths
        let names: MediaNames
        /// The thumbnails the model keeps, of the photos looked at.
        let stored: StoredThumbnails
        let output: PublicOutput
        let contentRoot: String

        func needs(of photo: Photo) -> Needs? {
            PlanStep.needs(of: photo, settings: settings, paths: paths, names: names, stored: stored, output: output,
                           contentRoot: contentRoot)
        }
    }

    /// What one photo's media miss in the trees, and what of them is reused or restored from the model.
    struct Needs: Sendable {
        var origin: ImageJob.Origin
        var width: Int
        var height: Int
        var missing: [RenditionRequest] = []
        var restores: [ThumbnailRestore] = []
        var reused = 0
        var tiles: (request: TileRequest, folder: String)?
        var animation: String?
        var video: (source: URL, file: String, duration: Double)?

        /// Whether anything is to be made: a photo that misses nothing needs no job.
        var needsJob: Bool { !missing.isEmpty || tiles != nil || animation != nil || video != nil }
    }

    /// What `photo` needs made; nil for a photo nothing can be made from.
    private static func needs(of photo: Photo, settings: SiteSettings, paths: SitePaths, names: MediaNames, stored: StoredThumbnails,
                              output: PublicOutput, contentRoot: String) -> Needs? {
        guard let source = source(of: photo, settings: settings, paths: paths, contentRoot: contentRoot) else { return nil }
        var need = Needs(origin: source.origin, width: source.width, height: source.height)
        let colour = photo.colour
        let set = names.set(for: photo)
        let thumbnails = RenditionSet.distinct(set.thumbnails, width: source.width, height: source.height)
        let screens = source.screens ? RenditionSet.distinct(set.screens, width: source.width, height: source.height) : []
        let rows = source.screens ? set.rowRenditions(width: source.width, height: source.height).filter { !screens.contains($0) } : []
        for request in set.withFallbacks(thumbnails) {
            let file = set.fileName(request, checksum: photo.checksum, colour: colour)
            let key = ThumbnailKey(photoId: photo.id, spec: set.spec(request, colour: colour))
            if stored.contains(key) {
                if !output.hasMedia(file) { need.restores.append(ThumbnailRestore(key: key, file: file)) }
                need.reused += 1
            } else {
                need.missing.append(request)
            }
        }
        for request in set.withFallbacks(screens + rows) {
            if output.hasMedia(set.fileName(request, checksum: photo.checksum, colour: colour)) {
                need.reused += 1
            } else {
                need.missing.append(request)
            }
        }
        // Its media named only when it may have a file beside its renditions (most photos of
        // a large library are too small for tiles, and neither move nor play).
        let zoomable = set.tiles?.minLevel(width: source.width, height: source.height) != nil
        let moves = switch photo.kind {
        case .animated, .video, .livePhoto: true
        case .still, .raw, .remote: false
        }
        let media = zoomable || moves ? names.media(of: photo) : nil
        let tilesMissing = media?.tiles.flatMap { output.hasMedia($0.tilesBase) ? nil : $0.tilesBase }
        need.tiles = tilesMissing.flatMap { folder in set.tiles.map { ($0, folder) } }
        // A photo's renditions are made together: from one decode, at the scale the largest of
        // them needs (its pyramid's lowest level when it has tiles), each from the one above it.
        // Made apart, one (a new thumbnail size, a file lost) would not be a fresh build's byte
        // for byte: when any is missing, all are made again, and its tiles with them.
        if !need.missing.isEmpty {
            need.missing = set.withFallbacks(thumbnails) + set.withFallbacks(screens + rows)
            need.restores = []
            need.reused = 0
            if need.tiles == nil, let folder = media?.tiles?.tilesBase { need.tiles = set.tiles.map { ($0, folder) } }
        }
        need.animation = media?.animation.flatMap { output.hasMedia($0) ? nil : $0 }
        need.video = media?.video.flatMap { file in
            output.hasMedia(file) ? nil : videoSource(of: photo, paths: paths).map { ($0, file, photo.motion?.duration ?? 0) }
        }
        return need
    }

    /// The file a photo's web video is made from: the video itself, or a Live Photo's clip.
    static func videoSource(of photo: Photo, paths: SitePaths) -> URL? {
        guard case .content(let path) = photo.source else { return nil }
        switch photo.kind {
        case .video: return paths.content.appendingPathComponent(path)
        case .livePhoto: return photo.motion?.clip.map(paths.content.appendingPathComponent)
        case .still, .raw, .animated, .remote: return nil
        }
    }

    /// Where a photo's renditions are made from, at what size, and whether it gets screen
    /// renditions of its own. A Flickr photo's page shows Flickr's own sizes; only its
    /// thumbnails are made here, from the smallest size that covers them, except for a
    /// favorite, whose screen-sized image is kept in the cache and published.
    static func source(of photo: Photo, settings: SiteSettings, paths: SitePaths, contentRoot: String) -> (origin: ImageJob.Origin, width: Int, height: Int, screens: Bool)? {
        switch photo.kind {
        case .video:
            guard case .content(let path) = photo.source else { return nil }
            return (.video(contentRoot + path), photo.width, photo.height, true)
        case .still, .raw, .animated, .livePhoto:
            guard case .content(let path) = photo.source else { return nil }
            let metadata = ImageMetadata(format: photo.format, width: photo.width,
                                         height: photo.height, orientation: photo.orientation,
                                         colour: photo.colour, transparent: photo.transparent,
                                         animated: photo.animated)
            return (.file(contentRoot + path, metadata), photo.width, photo.height, true)
        case .remote:
            guard case .flickr(let id) = photo.source, let size = remoteSize(of: photo, settings: settings),
                  let url = URL(string: size.url) else { return nil }
            let cache = photo.favorite
                ? paths.cache.appendingPathComponent("flickr/\(id)-\(ContentHash.hex(size.url).prefix(12)).jpg") : nil
            return (.download(url, cache: cache), size.width, size.height, photo.favorite)
        }
    }

    /// The size a photo's renditions are made from, and whether it gets screen renditions of
    /// its own, as `source(of:settings:paths:contentRoot:)` says, without making the job's origin.
    static func size(of photo: Photo, settings: SiteSettings) -> (width: Int, height: Int, screens: Bool)? {
        switch photo.kind {
        case .still, .raw, .animated, .video, .livePhoto:
            return (photo.width, photo.height, true)
        case .remote:
            guard let size = remoteSize(of: photo, settings: settings), URL(string: size.url) != nil else { return nil }
            return (size.width, size.height, photo.favorite)
        }
    }

    /// The size of a Flickr photo that is downloaded: a favorite's screen-sized image, else the
    /// smallest that covers the thumbnails.
    private static func remoteSize(of photo: Photo, settings: SiteSettings) -> RemotePhoto.Size? {
        guard let remote = photo.remote else { return nil }
        return photo.favorite
            ? remote.size(fittingLongerSide: settings.screenSizes.max() ?? 1600)
            : remote.size(coveringShorterSide: settings.thumbnailSizes.max() ?? 400)
    }
}

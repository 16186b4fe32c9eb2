import FolioChanges
import FolioCore
import FolioImaging
import FolioMedia
import FolioModel
import FolioSite
import Foundation

/// What one photo's bytes still need made, and where they come from.
struct ImageJob: Sendable {
    enum Origin: Sendable {
        /// A file under content/ (its full path: a URL is made only for a job that reads it),
        /// with what the import learned of it, so the job decodes it without reading its
        /// header or EXIF again.
        case file(String, ImageMetadata)
        /// A video file under content/ (its full path): the renditions are made from its poster frame.
        case video(String)
        /// An image on another site (a Flickr photo's size), downloaded, and kept at `cache`
        /// (read from there when it is already) when the photo is a favorite.
        case download(URL, cache: URL?)

        var isDownload: Bool {
            if case .download = self { return true }
            return false
        }
    }

    /// Every photo with these bytes: one job makes their media for all of them.
    var photos: [(id: Int64, source: PhotoSource)]
    var origin: Origin
    /// The upright size the renditions are made from.
    var width: Int
    var height: Int
    var checksum: String
    /// What the model says of the photo's colours: what the renditions are named by.
    var colour: SourceColour
    var requests: [RenditionRequest]
    /// The pyramid to cut, and the folder it goes to.
    var tiles: (request: TileRequest, folder: String)?
    /// Where the animation goes, when the photo moves and `public/` lacks it.
    var animation: String?
    /// The video to make a web video of (the photo's own file, or a Live Photo's clip), and the
    /// file it goes to, when `public/` lacks it.
    var video: (source: URL, file: String, duration: Double)?

    /// The photo's pixel count: what its decode costs, roughly.
    var pixels: Int { width * height }

    var isDownload: Bool { origin.isDownload }
}

/// A job as the plan keeps it: which photos share the bytes, by their place in the plan's
/// snapshot, and what is needed to order the jobs. The job itself is made again from them when
/// its turn comes (`BuildPlan.job(_:)`): a cold build plans one for every photo, held from the
/// plan to the end of the images step, so what is kept of each is small.
struct PlannedJob: Sendable {
    /// The first photo with these bytes; any others are the plan's (`BuildPlan.sharing`).
    var first: Int32
    /// The pixel count of the size it is made from.
    var pixels: Int
    var isDownload: Bool
    var hasTiles: Bool
    /// The seconds of web video it makes (`ImagesStep.VideoProgress.seconds`), 0 for none.
    var videoSeconds: Int32
}

/// A thumbnail the model holds whose file is missing from `public/media/` (someone deleted
/// `public/`): written from the model's bytes, without decoding the photo.
struct ThumbnailRestore: Sendable {
    var key: ThumbnailKey
    var file: String
}

/// The names and sizes of a photo's published media, made from the model alone (its checksum,
/// size, colours, motion) whenever a page asks: a large library's are never all held at once.
struct MediaNames: Sendable {
    let opaque: RenditionSet
    let transparent: RenditionSet
    let settings: SiteSettings

    init(site: ConfiguredSite) {
        opaque = site.renditions
        transparent = site.renditions.keepingTransparency()
        settings = site.settings
    }

    func set(for photo: Photo) -> RenditionSet { photo.transparent ? transparent : opaque }

    /// Nil for a photo with nothing to publish (a remote photo without sizes).
    func media(of photo: Photo) -> PhotoMedia? {
        guard let source = PlanStep.size(of: photo, settings: settings) else { return nil }
        return set(for: photo).media(of: photo, width: source.width, height: source.height, screensOfItsOwn: source.screens)
    }
}

/// What this build publishes, and what it must make to do so.
struct BuildPlan: StepOutput {
    /// The gallery as this build publishes it: the model without the photos that would not
    /// import. Taken by the pages step (`takeSnapshot()`).
    var snapshot: GallerySnapshot
    var names: MediaNames
    var jobs: [PlannedJob]
    /// The photos with a job's bytes besides its first, by the first: few photos share their
    /// bytes, and a list in every job would cost every job its room.
    var sharing: [Int32: [Int32]] = [:]
    /// What a planned job's photos' needs are asked of again when it is made.
    var making: PlanStep.Making?
    var restores: [ThumbnailRestore]
    /// Renditions already published or kept in the model.
    var reused: Int
    /// Photos whose media were looked for (`BuildReport.photosLookedAt`).
    var lookedAt = 0
    /// Each photo's media as they are once the jobs are done (the thumbnails' tally is taken
    /// when the build ends): what the next build plans from. Its entries are in `entries` until
    /// the images are made.
    var ledger: MediaLedger
    /// The ledger's entries, put aside as they are planned.
    var entries: MediaLedger.Entries.Parked
    /// The checksum prefixes the media of the photos looked at were named by, in the last build
    /// and in this one (photos removed since included): only among names with these can media
    /// have fallen out of use (`MediaLedger.standing`). Nil when every name must be looked at
    /// (the last build's media are not known).
    var moved: Set<String>?

    /// The snapshot, which the plan no longer holds: its taker holds the only copy.
    mutating func takeSnapshot() -> GallerySnapshot {
        defer { snapshot = .empty }
        return snapshot
    }

    /// The job `planned` is: what each of its photos misses, asked again (as the plan asked,
    /// of the same model and trees), together. Nil only for a plan without `making` (none
    /// planned a job).
    func job(_ planned: PlannedJob) -> ImageJob? {
        guard let making else { return nil }
        var job: ImageJob?
        for index in photos(of: planned) {
            let photo = snapshot.photos[index].photo
            guard let need = making.needs(of: photo), need.needsJob else { continue }
            if job == nil {
                job = ImageJob(photos: [], origin: need.origin, width: need.width, height: need.height, checksum: photo.checksum,
                               colour: photo.colour, requests: [], tiles: nil, animation: nil, video: nil)
            }
            job!.photos.append((photo.id, photo.source))
            for request in need.missing where !job!.requests.contains(request) { job!.requests.append(request) }
            job!.tiles = job!.tiles ?? need.tiles
            job!.animation = job!.animation ?? need.animation
            job!.video = job!.video ?? need.video
        }
        return job
    }

    /// The ids of the job's photos.
    func ids(_ planned: PlannedJob) -> [Int64] {
        photos(of: planned).map { snapshot.photos[$0].id }
    }

    /// The job's photos, by their place in the snapshot.
    func photos(of planned: PlannedJob) -> [Int] {
        [Int(planned.first)] + (sharing[planned.first] ?? []).map(Int.init)
    }
}

import Foundation

/// What the build's steps hand on to each other.
public final class BuildContext: @unchecked Sendable {
    public let paths: SitePaths
    public let options: BuildOptions
    public let startedAt = Date()
    /// Where image work spends its time, for the report.
    public let clock = ImagingClock()

    public internal(set) var settings = SiteSettings()
    public internal(set) var database: GalleryDatabase!
    public internal(set) var theme: Theme!
    public internal(set) var processor = ImageProcessor()
    public internal(set) var renditions = RenditionSet(SiteSettings())
    public internal(set) var inventory = ContentInventory()
    public internal(set) var snapshot = GallerySnapshot(photos: [], regions: [], topRegions: [])
    /// Renditions to make, by photo.
    public internal(set) var imageWork: [ImageJob] = []
    public internal(set) var images: [Int64: PhotoImages] = [:]
    /// The model as pages see it, made once by the render step for every step after it.
    public internal(set) var siteBuilder: SiteBuilder?
    public internal(set) var pages: [Page] = []
    /// Whether the published site was made from exactly this model, theme and settings.
    public internal(set) var upToDate = false
    public internal(set) var output: PublicOutput!
    public internal(set) var issues: [BuildIssue] = []
    public internal(set) var report = BuildReport()

    init(paths: SitePaths, options: BuildOptions) {
        self.paths = paths
        self.options = options
    }
}

public struct BuildOptions: Sendable {
    /// The theme to start from; the one found beside the executable when nil.
    public var themeFolder: URL?
    /// The moment "hours ago" is measured from; now when nil.
    public var now: Date?
    /// Progress lines on standard error (a terminal's business).
    public var progress: Bool
    /// How many photos are worked on at once; the number of cores when nil.
    public var concurrency: Int?

    public init(themeFolder: URL? = nil, now: Date? = nil, progress: Bool = false, concurrency: Int? = nil) {
        self.themeFolder = themeFolder
        self.now = now
        self.progress = progress
        self.concurrency = concurrency
    }
}

extension BuildContext {
    /// The moment "hours ago" is measured from and builds are stamped with.
    var now: Date { options.now ?? startedAt }
}

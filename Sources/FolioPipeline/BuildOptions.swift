import FolioContent
import FolioCore
import FolioNetwork
import Foundation

/// How a build runs, as the command line or the preview server asks for it.
public struct BuildOptions: Sendable {
    /// The theme to start from; the one found beside the executable when nil.
    public var themeFolder: URL?
    /// The moment "hours ago" is measured from; `sourceDateEpoch`, else now, when nil.
    public var now: Date?
    /// SOURCE_DATE_EPOCH (reproducible-builds.org), when set: the build's own moment, and the
    /// latest a file's modification time counts as, so a fresh checkout builds what any other does.
    public var sourceDateEpoch: Date?
    /// Progress lines on standard error (a terminal's business).
    public var progress: Bool
    /// How many photos are worked on at once; the number of cores when nil.
    public var concurrency: Int?
    /// How every step reads the site's files.
    public var files: any FileAccess
    /// Where every step writes the site's output and state.
    public var disk: any Disk
    /// How images of photos from elsewhere (Flickr) are downloaded.
    public var web: any WebClient
    /// How a failed download is tried again.
    public var retry: RetryPolicy
    /// Where shards left their renditions; `folio-cache/renditions/` when nil and it exists.
    public var renditionCache: (any RenditionCache)?
    /// Which Folio this is, for deciding whether pages must be drawn again; the running
    /// executable's (FolioIdentity) when nil. Tests play another Folio with it.
    public var identity: String?
    /// Where the settings a build takes from its environment are read (the site's secret,
    /// `SiteSecret.outside`, and album passwords given by a variable); the process's own when
    /// not given.
    public var environment: [String: String]
    /// Up to how many photos a build holds them as values; past it (a large library) they are
    /// rows read where they lie from the plan on (`PhotoRows`: a read each time a photo is asked
    /// for), and the last build's manifest is read once the search index is made, not beside the
    /// layout. Tests make it small to build a few photos as a large library's are built.
    public var photosHeldUpTo: Int
    /// How much of content/ the import takes at once (`ContentParts`). Tests make it small to
    /// read a few photos in several parts, as a large library's are read.
    package var contentParts = ContentParts.Size()

    public init(themeFolder: URL? = nil, now: Date? = nil, sourceDateEpoch: Date? = nil, progress: Bool = false, concurrency: Int? = nil,
                files: any FileAccess = LocalFileAccess(), disk: any Disk = LocalDisk(), web: any WebClient = CurlWebClient(),
                retry: RetryPolicy = RetryPolicy(attempts: 3), renditionCache: (any RenditionCache)? = nil,
                identity: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
                photosHeldUpTo: Int = 200_000) {
        self.themeFolder = themeFolder
        self.now = now
        self.sourceDateEpoch = sourceDateEpoch
        self.progress = progress
        self.concurrency = concurrency
        self.files = files
        self.disk = disk
        self.web = web
        self.retry = retry
        self.renditionCache = renditionCache
        self.identity = identity
        self.environment = environment
        self.photosHeldUpTo = photosHeldUpTo
    }
}

extension BuildOptions {
    /// The environment's SOURCE_DATE_EPOCH: nil when unset or empty; an error naming the variable
    /// when it is not a whole number of seconds since 1970.
    public static func sourceDateEpoch(in environment: [String: String]) throws -> Date? {
        guard let text = environment["SOURCE_DATE_EPOCH"], !text.isEmpty else { return nil }
        guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seconds = Int64(text) else {
            throw FolioError(reason: "SOURCE_DATE_EPOCH is '\(text)': it must be a whole number of seconds since 1970 (reproducible-builds.org)")
        }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}

import Foundation

/// How a build runs, as the command line or the preview server asks for it.
public struct BuildOptions: Sendable {
    /// The theme to start from; the one found beside the executable when nil.
    public var themeFolder: URL?
    /// The moment "hours ago" is measured from; now when nil.
    public var now: Date?
    /// Progress lines on standard error (a terminal's business).
    public var progress: Bool
    /// How many photos are worked on at once; the number of cores when nil.
    public var concurrency: Int?
    /// How every step reads the site's files.
    public var files: any FileAccess

    public init(themeFolder: URL? = nil, now: Date? = nil, progress: Bool = false, concurrency: Int? = nil,
                files: any FileAccess = LocalFileAccess()) {
        self.themeFolder = themeFolder
        self.now = now
        self.progress = progress
        self.concurrency = concurrency
        self.files = files
    }
}

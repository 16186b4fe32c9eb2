import Foundation

/// A file of the site that is not a page drawn through the theme: the feed, the sitemap,
/// robots.txt.
public struct SiteFile: Sendable, Equatable {
    /// Relative to the public root.
    public var path: String
    public var data: Data

    public init(path: String, text: String) {
        self.path = path
        self.data = Data(text.utf8)
    }
}

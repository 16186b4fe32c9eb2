import Foundation

/// Where the published site lives, when `baseURL` says so: what turns a page's relative path into
/// the absolute address that feeds, sitemaps and link previews need. Pages themselves always link
/// relatively, so a site without a base address still works anywhere.
public struct SiteAddress: Sendable, Equatable {
    /// The base, ending in "/": "https://example.com/photos/".
    public let base: String

    /// Nil when `baseURL` is absent; `SiteSettings.validate` has refused any that is not an
    /// absolute http or https address.
    public init?(_ baseURL: String?) {
        guard let baseURL, !baseURL.isEmpty else { return nil }
        base = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
    }

    /// The absolute address of `relative` (a path from the public root, e.g. "photos/a.html").
    public func absolute(_ relative: String) -> String {
        base + Self.escapedPath(relative)
    }

    /// An image's address for another site to fetch: a Flickr photo's own sizes are already
    /// absolute; the site's own files are absolute only with a base.
    public static func image(_ image: ImageRef, in address: SiteAddress?) -> String? {
        image.external ? image.src : address?.absolute(image.src)
    }

    /// Paths are made of slugs and content hashes, but a theme's asset may hold a space: escape
    /// what a URL path may not hold, keeping "/".
    static func escapedPath(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: pathCharacters) ?? path
    }

    private static let pathCharacters: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.remove(charactersIn: ";?#[]")
        return set
    }()
}

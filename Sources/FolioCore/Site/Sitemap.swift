import Foundation

/// `sitemap.xml` (sitemaps.org): every page with the time its HTML last changed. A sitemap may
/// only hold absolute addresses, so a site gets one only when `baseURL` says where it lives.
///
/// One sitemap may list at most 50,000 addresses; a larger site gets numbered sitemaps
/// (`sitemap-1.xml`, …) and `sitemap.xml` becomes their index, so the address crawlers and
/// robots.txt know stays the same as the site grows.
public enum Sitemap {
    public static let path = "sitemap.xml"
    public static let robotsPath = "robots.txt"
    /// The protocol's limit of addresses in one sitemap.
    public static let limit = 50_000

    /// `pages` are paths from the public root with when each last changed; `limit` is the most
    /// a sitemap lists (the protocol's, except in tests).
    public static func files(pages: [(path: String, changed: Date)], address: SiteAddress?, limit: Int = limit) -> [SiteFile] {
        guard let address else { return [] }
        let sorted = pages.sorted(by: { order($0.path) < order($1.path) })
        guard sorted.count > limit else { return [SiteFile(path: path, text: urlset(sorted[...], address: address))] }
        let parts = stride(from: 0, to: sorted.count, by: limit).map { sorted[$0..<min($0 + limit, sorted.count)] }
        var index = """
            <?xml version="1.0" encoding="utf-8"?>
            <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">

            """
        var files: [SiteFile] = []
        for (number, part) in zip(1..., parts) {
            let file = SiteFile(path: partPath(number), text: urlset(part, address: address))
            let changed = part.map(\.changed).max()!
            index += "  <sitemap><loc>\(XMLText.escape(address.absolute(file.path)))</loc><lastmod>\(XMLText.date(changed))</lastmod></sitemap>\n"
            files.append(file)
        }
        index += "</sitemapindex>\n"
        return [SiteFile(path: path, text: index)] + files
    }

    /// The name of the `number`th sitemap of a site that needs more than one.
    public static func partPath(_ number: Int) -> String { "sitemap-\(number).xml" }

    /// Whether `path` is the sitemap or one of its numbered parts.
    public static func isSitemap(_ path: String) -> Bool {
        path == self.path || (path.hasPrefix("sitemap-") && path.hasSuffix(".xml") && Int(path.dropFirst(8).dropLast(4)) != nil)
    }

    private static func urlset(_ pages: ArraySlice<(path: String, changed: Date)>, address: SiteAddress) -> String {
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">

            """
        for page in pages {
            // The home page is the folder itself; "index.html" would be a second name for it.
            let location = page.path == Route.home.path ? address.base : address.absolute(page.path)
            xml += "  <url><loc>\(XMLText.escape(location))</loc><lastmod>\(XMLText.date(page.changed))</lastmod></url>\n"
        }
        xml += "</urlset>\n"
        return xml
    }

    /// The home page first, then section indexes, then the rest, each group alphabetical.
    private static func order(_ path: String) -> (Int, String) {
        if path == Route.home.path { return (0, path) }
        return (path.hasSuffix("/index.html") ? 1 : 2, path)
    }

    /// `robots.txt`: everything may be crawled, and where the sitemap (or the sitemap index) is,
    /// an absolute address, so only with a base. Crawlers read it only at a domain's root.
    public static func robots(address: SiteAddress?) -> SiteFile {
        var text = "User-agent: *\nAllow: /\n"
        if let address { text += "\nSitemap: \(address.absolute(path))\n" }
        return SiteFile(path: robotsPath, text: text)
    }
}

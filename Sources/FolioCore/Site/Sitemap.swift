import Foundation

/// `sitemap.xml` (sitemaps.org): every page with the time its HTML last changed. A sitemap may
/// only hold absolute addresses, so a site gets one only when `baseURL` says where it lives.
public enum Sitemap {
    public static let path = "sitemap.xml"

    /// `pages` are paths from the public root with when each last changed.
    public static func file(pages: [(path: String, changed: Date)], address: SiteAddress?) -> SiteFile? {
        guard let address else { return nil }
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">

            """
        for page in pages.sorted(by: { order($0.path) < order($1.path) }) {
            // The home page is the folder itself; "index.html" would be a second name for it.
            let location = page.path == "index.html" ? address.base : address.absolute(page.path)
            xml += "  <url><loc>\(XMLText.escape(location))</loc><lastmod>\(XMLText.date(page.changed))</lastmod></url>\n"
        }
        xml += "</urlset>\n"
        return SiteFile(path: path, text: xml)
    }

    /// The home page first, then section indexes, then the rest, each group alphabetical.
    private static func order(_ path: String) -> (Int, String) {
        if path == "index.html" { return (0, path) }
        return (path.hasSuffix("/index.html") ? 1 : 2, path)
    }

    /// `robots.txt`: everything may be crawled, and where the sitemap is (an absolute address,
    /// so only with a base). Crawlers read it only at a domain's root.
    public static func robots(address: SiteAddress?) -> SiteFile {
        var text = "User-agent: *\nAllow: /\n"
        if let address { text += "\nSitemap: \(address.absolute(path))\n" }
        return SiteFile(path: "robots.txt", text: text)
    }
}

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
    /// a sitemap lists (the protocol's, except in tests). The index first, when there is one.
    public static func files(pages: [(path: String, changed: Date)], address: SiteAddress?, limit: Int = limit) throws -> [SiteFile] {
        let sorted = pages.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        var files: [SiteFile] = []
        try write(pages: { each in try sorted.forEach { try each($0.path, $0.changed) } }, address: address, limit: limit) { files.append($0) }
        return files.last.map { [$0] + files.dropLast() } ?? []
    }

    /// The sitemap files made a part at a time and handed to `emit` as each is made, the index
    /// (when there is one) last, never every page's address at once. `pages` hands each page (a
    /// path from the public root, when it last changed) to the function it is given, in the
    /// order of the paths' bytes, as many times as it is called (four).
    public static func write(pages: (_ each: (String, Date) throws -> Void) throws -> Void, address: SiteAddress?,
                             limit: Int = limit, emit: (SiteFile) throws -> Void) throws {
        guard let address else { return }
        var count = 0
        try pages { _, _ in count += 1 }
        var parts: [(path: String, changed: Date)] = []
        var part = URLSet(address: address)
        func finishPart() -> SiteFile {
            let file = SiteFile(path: count > limit ? partPath(parts.count + 1) : path, text: part.finish())
            parts.append((file.path, part.latest ?? .distantPast))
            part = URLSet(address: address)
            return file
        }
        try withoutActuallyEscaping(emit) { emit in
            // The home page first, then section indexes, then the rest, each group in the paths' order.
            for group in 0..<3 {
                try pages { path, changed in
                    guard Self.group(of: path) == group else { return }
                    part.add(path, changed)
                    if part.count == limit { try emit(finishPart()) }
                }
            }
            if part.count > 0 || parts.isEmpty { try emit(finishPart()) }
        }
        guard count > limit else { return }
        var index = """
            <?xml version="1.0" encoding="utf-8"?>
            <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">

            """
        for part in parts {
            index += "  <sitemap><loc>\(XMLText.escape(address.absolute(part.path)))</loc><lastmod>\(XMLText.date(part.changed))</lastmod></sitemap>\n"
        }
        index += "</sitemapindex>\n"
        try emit(SiteFile(path: path, text: index))
    }

    /// The name of the `number`th sitemap of a site that needs more than one.
    public static func partPath(_ number: Int) -> String { "sitemap-\(number).xml" }

    /// Whether `path` is the sitemap or one of its numbered parts.
    public static func isSitemap(_ path: String) -> Bool {
        path == self.path || (path.hasPrefix("sitemap-") && path.hasSuffix(".xml") && Int(path.dropFirst(8).dropLast(4)) != nil)
    }

    /// One sitemap's addresses, as they are added.
    private struct URLSet {
        let address: SiteAddress
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">

            """
        var count = 0
        var latest: Date?

        init(address: SiteAddress) {
            self.address = address
        }

        mutating func add(_ path: String, _ changed: Date) {
            // The home page is the folder itself; "index.html" would be a second name for it.
            let location = path == Route.home.path ? address.base : address.absolute(path)
            xml += "  <url><loc>\(XMLText.escape(location))</loc><lastmod>\(XMLText.date(changed))</lastmod></url>\n"
            count += 1
            latest = max(latest ?? changed, changed)
        }

        func finish() -> String {
            xml + "</urlset>\n"
        }
    }

    /// The home page first, then section indexes, then the rest.
    private static func group(of path: String) -> Int {
        path == Route.home.path ? 0 : path.hasSuffix("/index.html") ? 1 : 2
    }

    /// `robots.txt`: everything may be crawled, and where the sitemap (or the sitemap index) is,
    /// an absolute address, so only with a base. Crawlers read it only at a domain's root.
    public static func robots(address: SiteAddress?) -> SiteFile {
        var text = "User-agent: *\nAllow: /\n"
        if let address { text += "\nSitemap: \(address.absolute(path))\n" }
        return SiteFile(path: robotsPath, text: text)
    }
}

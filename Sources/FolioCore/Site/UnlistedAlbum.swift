/// An album its `album.plist` marks unlisted: published, with its sub-albums and photos, under
/// `unlisted/<token>/`, where the token is derived from the site's secret and the folder, so only
/// its link leads there. Nothing else links to it, and it is in no listing, index, feed, sitemap
/// or count.
public struct UnlistedAlbum: Sendable, Hashable {
    /// The folder, relative to content/.
    public var path: String
    /// "unlisted/<token>/": where all its pages go.
    public var folder: String

    public static let top = "unlisted/"

    public init(path: String, secret: [UInt8]) {
        self.path = path
        let token = HMAC.sha256(key: secret, "unlisted album:" + path).prefix(12).map { byte in
            String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }.joined()
        folder = Self.top + token + "/"
    }

    /// The album's own page, to share.
    public var link: String { folder + "index.html" }

    /// Whether the folder `path` is this album or one of its sub-albums.
    func contains(_ path: String) -> Bool { RelativePath(path).isInside(RelativePath(self.path)) }

    func href(of album: AlbumTree.Album) -> String {
        album.path == path ? link : folder + album.slug + ".html"
    }

    /// The unlisted albums of `albums`, outermost only: an unlisted album's sub-albums are part of
    /// it, whatever their own setting says.
    static func all(in albums: [String: AlbumInfo], secret: [UInt8]) -> [UnlistedAlbum] {
        let marked = albums.values.filter(\.unlisted).map(\.path).sorted()
        var outermost: [String] = []
        for path in marked where !outermost.contains(where: { RelativePath(path).isInside(RelativePath($0)) }) {
            outermost.append(path)
        }
        return outermost.map { UnlistedAlbum(path: $0, secret: secret) }
    }
}

extension SiteBuilder {
    /// An unlisted album's pages: its own and its sub-albums', and its photos', asking search
    /// engines to stay away, with no sharing card, and linking to no page of the listed site a
    /// visitor could not reach anyway (people, places and regions are named, not linked).
    func unlistedPages(_ unlisted: UnlistedAlbum) -> [Page] {
        let albums = albumTree.albums.values.filter { unlisted.contains($0.path) }.sorted { $0.path < $1.path }
        var pages = albums.map { album -> Page in
            var page = albumPage(album)
            page.crumbs = albumTree.lineage(album.path).dropLast().filter { unlisted.contains($0.path) }
                .map { Crumb(title: $0.title, href: $0.href) }
            return page
        }
        pages += photoPages().map { page in
            var page = page
            page.crumbs = []
            if var photo = page.photo {
                photo.facts = photo.facts.map { fact in
                    var fact = fact
                    if fact.label != "Album" && !fact.external { fact.href = nil }
                    return fact
                }
                if let album = photo.facts.first(where: { $0.label == "Album" }), let href = album.href {
                    page.crumbs = [Crumb(title: album.value, href: href)]
                }
                page.photo = photo
            }
            return page
        }
        return pages.map { page in
            var page = Self.withFirstScreenEager(page)
            page.noindex = true
            page.social = nil
            return page
        }
    }
}

import FolioCore
import FolioModel
/// An album its `album.plist` marks unlisted: published, with its sub-albums and photos, under
/// `unlisted/<token>/`, where the token is derived from the site's secret and the folder, so only
/// its link leads there. Nothing else links to it, and it is in no listing, index, feed, sitemap
/// or count.
public struct UnlistedAlbum: Sendable, Hashable {
    /// The folder, relative to content/.
    public var path: String
    /// "unlisted/<token>/": where all its pages go.
    public var folder: String
    /// Set for a protected album: its key's verifier once the pages step has derived the key
    /// (`AlbumCipher.verifier`), `AlbumInfo.passwordMissing` without a password; nil when only
    /// unlisted.
    public var lock: String?

    public static let top = "unlisted/"

    public init(path: String, secret: [UInt8], lock: String? = nil) {
        self.path = path
        self.lock = lock
        let token = Array(HMAC.sha256(key: secret, "unlisted album:" + path).prefix(12)).hexText
        folder = Self.top + token + "/"
    }

    /// The album's own page, to share.
    public var link: String { Route.unlistedAlbum(folder: folder, slug: nil).path }

    /// Whether the folder `path` is this album or one of its sub-albums.
    package func contains(_ path: String) -> Bool { RelativePath(path).isInside(RelativePath(self.path)) }

    func route(of album: AlbumTree.Album) -> Route {
        .unlistedAlbum(folder: folder, slug: album.path == path ? nil : album.slug)
    }

    /// The unlisted albums of `albums`, outermost only: an unlisted album's sub-albums are part of
    /// it, whatever their own setting says.
    ///
    /// Protected albums come first, and a photo goes to the first album that holds it: the
    /// stricter rule wins, so a protected album inside an unlisted one (or the other way round)
    /// is protected.
    package static func all(in albums: [String: AlbumInfo], secret: [UInt8]) -> [UnlistedAlbum] {
        func outermost(_ paths: [String]) -> [String] {
            var found: [String] = []
            for path in paths.sorted() where !found.contains(where: { RelativePath(path).isInside(RelativePath($0)) }) {
                found.append(path)
            }
            return found
        }
        let locked = outermost(albums.values.filter(\.isProtected).map(\.path))
        let unlisted = outermost(albums.values.filter(\.unlisted).map(\.path))
            .filter { path in !locked.contains { RelativePath(path).isInside(RelativePath($0)) } }
        return locked.map { UnlistedAlbum(path: $0, secret: secret, lock: albums[$0]?.passwordSource) }
            + unlisted.map { UnlistedAlbum(path: $0, secret: secret) }
    }

    /// The salt a protected album's key is stretched with: its own, stable from build to build.
    package func salt(secret: [UInt8]) -> [UInt8] {
        Array(HMAC.sha256(key: secret, "protected album salt:" + path).prefix(16))
    }
}

extension SiteBuilder {
    /// An unlisted album's pages but its photos': its own and its sub-albums'.
    func unlistedRoutes(_ unlisted: UnlistedAlbum) -> [Route] {
        let albums = albumTree.albums.values.filter { unlisted.contains($0.path) }.sorted { $0.path < $1.path }
        return albums.flatMap { paged($0.route) }
    }

    /// The frame of an unlisted album's page: search engines asked to stay away, no sharing card.
    func unlistedFrame(_ frame: PageFrame, of unlisted: UnlistedAlbum) -> PageFrame {
        var frame = frame
        frame.noindex = true
        frame.social = nil
        frame.lock = unlisted.lock
        return frame
    }

    /// An unlisted album's photo page, linking to no page of the listed site a visitor could not
    /// reach anyway (people, places and regions are named, not linked), its album the way back;
    /// in a protected album, its images one of each (they go inside the encrypted page): no
    /// tiles, nothing fetched ahead.
    func unlistedPhoto(_ page: PhotoPage, of unlisted: UnlistedAlbum) -> PhotoPage {
        var page = page
        page.frame = unlistedFrame(page.frame, of: unlisted)
        page.frame.crumbs = []
        page.photo.facts = page.photo.facts.map { fact in
            var fact = fact
            if fact.kind != .album && !fact.external { fact.href = nil }
            return fact
        }
        if let album = page.photo.facts.first(where: { $0.kind == .album }), let href = album.href {
            page.frame.crumbs = [Crumb(title: album.value, href: href)]
        }
        if unlisted.lock != nil {
            page.photo.zoom = nil
            page.photo.zoomDescriptor = nil
            page.photo.nextImage = nil
            page.photo.nextSizes = nil
        }
        return page
    }
}

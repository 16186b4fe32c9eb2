import FolioCore
import FolioModel
import Foundation

/// Which pages a builder draws, where each goes, and the page at each route.
extension SiteBuilder {
    /// Every page of the site, in the order they are drawn: its listings, then a page for each
    /// photo, in the order of their paths (`photoPageOrder()`).
    public func routes() -> [Route] {
        listingRoutes() + photoPageOrder().map { route(of: ordered[Int($0)]) }
    }

    /// The photos (their positions in `ordered`) in the order of their pages' paths, which is
    /// the order of their identifiers' bytes and of the last build's manifest: the render step
    /// finds each one's entry a row or a few after the one before, not from the middle. Sorted in
    /// place as values, each identifier's first eight bytes as a number beside its position, the
    /// identifiers read again only where those eight are the same: no closure looks the numbers
    /// up, and no photo is copied to read its identifier.
    package func photoPageOrder() -> [Int32] {
        struct Keyed {
            var prefix: UInt64
            var position: Int32
        }
        let ordered = self.ordered
        var keyed = ordered.indices.map { position in
            var prefix: UInt64 = 0
            var taken = 0
            for byte in ordered[position].identifier.utf8.prefix(8) {
                prefix = prefix << 8 | UInt64(byte)
                taken += 1
            }
            return Keyed(prefix: prefix << (8 * UInt64(8 - taken)), position: Int32(position))
        }
        keyed.sort { a, b in
            guard a.prefix == b.prefix else { return a.prefix < b.prefix }
            return ordered[Int(a.position)].identifier.utf8.lexicographicallyPrecedes(ordered[Int(b.position)].identifier.utf8)
        }
        return keyed.map(\.position)
    }

    /// The pages of the site but its photos'.
    package func listingRoutes() -> [Route] {
        if let unlisted { return unlistedRoutes(unlisted) }
        var routes: [Route] = [.home, .recents, .search]
        routes += paged(.albums(), count: albumTree.albums.count)
        for album in albumTree.albums.values.sorted(by: { $0.path < $1.path }) {
            routes += paged(album.route)
        }
        routes += placesIndexRoutes()
        for place in index.places {
            routes += paged(.place(slug: place.slug))
        }
        routes.append(.regions)
        if hasMap { routes.append(.map) }
        for region in snapshot.regions {
            routes += paged(.region(slug: region.slug))
        }
        routes += paged(.people(), count: index.people.count)
        for person in index.people {
            routes += paged(.person(slug: person.slug))
        }
        routes += paged(.favorites(), count: favoritesIndexEntries().count)
        routes += paged(.allFavorites(), count: index.places.count)
        for (place, _) in index.placesWithFavorites {
            routes += paged(.favoritePlace(slug: place.slug))
        }
        return routes
    }

    /// The page at `route`; nil for a route this site has no page at. `photo` is for a photo's
    /// route: the photo's position in `ordered`, when the caller has it (`photoPosition`).
    public func page(_ route: Route, photo: Int? = nil) -> (any SitePage)? {
        guard var page = made(route, photo: photo) else { return nil }
        page.frame.hasMap = mapInNavigation ?? hasMap
        return page
    }

    /// The position in `ordered` of the photo whose page `route` is: `known`, when whoever asks
    /// has it (the render lists photo pages by their positions: `photoPageOrder`), else looked
    /// for through every photo by its identifier, from the last. Nil for a route not a photo's,
    /// or a photo this site does not show.
    func photoPosition(_ route: Route, known: Int? = nil) -> Int? {
        switch route {
        case .photo(let identifier), .unlistedPhoto(_, let identifier):
            if let known {
                assert(ordered.identifier(at: known) == identifier, "\(route.path) is not the page of the photo at \(known)")
                return known
            }
            return ordered.indices.reversed().first { ordered.identifier(at: $0) == identifier }
        default:
            return nil
        }
    }

    private func made(_ route: Route, photo: Int?) -> (any SitePage)? {
        switch route {
        case .home: return unlisted == nil ? home() : nil
        case .recents: return unlisted == nil ? recents() : nil
        case .search: return unlisted == nil ? search() : nil
        case .albums(let number): return unlisted == nil ? albumsIndex(page: number) : nil
        case .album(let slug, let name), .unlistedAlbum(_, let slug?, let name):
            return index.album[slug].flatMap { albumTree.albums[$0] }.flatMap { albumPage($0, name: name) }
        case .unlistedAlbum(_, nil, let name):
            return unlisted.flatMap { albumTree.albums[$0.path] }.flatMap { albumPage($0, name: name) }
        case .places(let letter, let number): return placesIndex(letter: letter, number: number)
        case .place(let slug, let name): return index.place[slug].flatMap { placePage($0, name: name) }
        case .regions: return regionsIndex()
        case .map: return hasMap ? mapPage() : nil
        case .region(let slug, let name): return index.region[slug].flatMap { regionPage($0, name: name) }
        case .people(let number): return peopleIndex(number: number)
        case .person(let slug, let name): return index.person[slug].flatMap { personPage($0, name: name) }
        case .favorites(let number): return favoritesIndex(onlyFavorites: true, number: number)
        case .allFavorites(let number): return favoritesIndex(onlyFavorites: false, number: number)
        case .favoritePlace(let slug, let name): return index.place[slug].flatMap { favoritesPage($0, name: name) }
        case .photo, .unlistedPhoto:
            return photoPosition(route, known: photo).map { photoPage(at: $0) }
        }
    }

    /// Fails when two routes would write one file, naming what both pages are made from: one
    /// would silently replace the other (an unlisted album's sub-album and photo of one name).
    /// Each route names its builder by its number in `builders`.
    public static func checkPaths<Routes: RandomAccessCollection<(route: Route, builder: Int)>>(_ routes: Routes, of builders: [SiteBuilder]) throws
        where Routes.Index == Int {
        // A listed photo's page is photos/<identifier>.html, and the model holds each identifier
        // once (a unique column): those pages cannot meet one another, only a page of another kind
        // under photos/, and they are looked at only when there is one, not made and hashed on
        // every build.
        if try !check(routes, of: builders, photos: false) {
            _ = try check(routes, of: builders, photos: true)
        }
    }

    /// Throws when two of `routes` land on one path: all of them, or with `photos` false all but
    /// the listed photos'. Returns whether no page but a listed photo's is under photos/.
    private static func check<Routes: RandomAccessCollection<(route: Route, builder: Int)>>(
        _ routes: Routes, of builders: [SiteBuilder], photos: Bool) throws -> Bool where Routes.Index == Int {
        // The paths in one buffer (`PathSet`), not a dictionary; the first route of a path found
        // twice looked for again.
        var seen = PathSet()
        seen.reserveCapacity(photos ? routes.count : 4_096)
        var clear = true
        for (position, entry) in routes.enumerated() {
            if !photos, case .photo = entry.route { continue }
            let path = entry.route.path
            if !photos, path.hasPrefix("photos/") { clear = false }
            guard !seen.insert(path), let first = routes.firstIndex(where: { $0.route.path == path }) else { continue }
            func described(_ at: Int) -> String {
                builders[routes[at].builder].page(routes[at].route)?.frame.described ?? path
            }
            throw FolioError(path: path, reason: "two pages would be written here: \(described(first)) and \(described(position))")
        }
        return clear
    }

    /// How many pages a listing of `count` items takes (one, even when empty).
    func pageCount(_ count: Int) -> Int {
        max(1, (count + settings.pageSize - 1) / settings.pageSize)
    }

    /// The routes of an A–Z list of `count` items: its first page, and the numbered ones after.
    func paged(_ route: Route, count: Int) -> [Route] {
        (1...pageCount(count)).map { route.page($0) }
    }

    /// The routes of a listing of photos: its first page, and the named ones after (`ListingPages`).
    func paged(_ route: Route) -> [Route] {
        listingPages(route).names.map { route.page(named: $0) }
    }

    package func route(of item: GalleryPhoto) -> Route {
        Self.route(of: item, unlistedFolder: unlisted?.folder)
    }

    /// A photo page's route: in the unlisted album's folder it is in, if any.
    static func route(of item: GalleryPhoto, unlistedFolder: String?) -> Route {
        unlistedFolder.map { .unlistedPhoto(folder: $0, identifier: item.identifier) } ?? .photo(identifier: item.identifier)
    }

    /// What makes the routes of the builder's photo pages: its photos, and the unlisted album's
    /// folder they are in, if any. A list of every page holds one for each builder, not the
    /// builder, whose copy retains each of its many parts.
    package struct PhotoRoutes: Sendable {
        package let ordered: PhotoRows
        let unlistedFolder: String?

        package func route(of item: GalleryPhoto) -> Route {
            SiteBuilder.route(of: item, unlistedFolder: unlistedFolder)
        }
    }

    package var photoRoutes: PhotoRoutes {
        PhotoRoutes(ordered: ordered, unlistedFolder: unlisted?.folder)
    }

    func photoPath(_ item: GalleryPhoto) -> String { route(of: item).path }
}

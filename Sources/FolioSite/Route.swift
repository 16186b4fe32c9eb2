/// Where each page of the site goes: the one place page paths are spelled. Pages, links,
/// breadcrumbs, the feed, the sitemap and the search index all ask a route for its path.
///
/// A list cut into numbered pages (`page` 2 and on: the A–Z indexes) puts them in a folder named
/// after its first page: `people/index.html`, then `people/index/2.html`. A listing of photos puts
/// its pages past the first there under their names (`ListingPages`): `places/paris.html`, then
/// `places/paris/2019-05-12.html`. Slugs never hold a "/", so no place, person or album can take
/// such a path.
public enum Route: Hashable, Sendable {
    case home
    case recents
    case search
    case albums(page: Int = 1)
    case album(slug: String, page: String? = nil)
    /// The Places index: A–Z on one page, or, for a long list, pages per letter (`letter`, "#"
    /// for titles that start with no letter).
    case places(letter: String? = nil, page: Int = 1)
    case place(slug: String, page: String? = nil)
    case regions
    case region(slug: String, page: String? = nil)
    /// The gallery's places on a map of the world.
    case map
    case people(page: Int = 1)
    case person(slug: String, page: String? = nil)
    /// The places that hold favorites.
    case favorites(page: Int = 1)
    /// Every place, beside the favorites switch.
    case allFavorites(page: Int = 1)
    case favoritePlace(slug: String, page: String? = nil)
    case photo(identifier: String)
    /// An unlisted album's own page (no `slug`) or a sub-album's, under its secret folder.
    case unlistedAlbum(folder: String, slug: String?, page: String? = nil)
    case unlistedPhoto(folder: String, identifier: String)

    /// Relative to the public root, e.g. "places/index.html".
    public var path: String {
        switch self {
        case .home: return "index.html"
        case .recents: return "recents/index.html"
        case .search: return "search/index.html"
        case .albums(let page): return Self.paged("albums/index", page)
        case .album(let slug, let page): return Self.paged("albums/\(slug)", page)
        case .places(let letter, let page):
            return Self.paged(letter.map { "places/index/\($0 == "#" ? "other" : $0.lowercased())" } ?? "places/index", page)
        case .place(let slug, let page): return Self.paged("places/\(slug)", page)
        case .regions: return "regions/index.html"
        case .map: return "map/index.html"
        case .region(let slug, let page): return Self.paged("regions/\(slug)", page)
        case .people(let page): return Self.paged("people/index", page)
        case .person(let slug, let page): return Self.paged("people/\(slug)", page)
        case .favorites(let page): return Self.paged("favorites/index", page)
        case .allFavorites(let page): return Self.paged("favorites/all", page)
        case .favoritePlace(let slug, let page): return Self.paged("favorites/\(slug)", page)
        case .photo(let identifier): return "photos/\(identifier).html"
        case .unlistedAlbum(let folder, let slug, let page): return Self.paged(folder + (slug ?? "index"), page)
        case .unlistedPhoto(let folder, let identifier): return "\(folder)\(identifier).html"
        }
    }

    /// The same A–Z list at page `number`; any other route stays itself.
    public func page(_ number: Int) -> Route {
        switch self {
        case .albums: return .albums(page: number)
        case .places(let letter, _): return .places(letter: letter, page: number)
        case .people: return .people(page: number)
        case .favorites: return .favorites(page: number)
        case .allFavorites: return .allFavorites(page: number)
        default: return self
        }
    }

    /// The same listing of photos at its page named `name` (nil: its first); any other route stays itself.
    public func page(named name: String?) -> Route {
        switch self {
        case .album(let slug, _): return .album(slug: slug, page: name)
        case .place(let slug, _): return .place(slug: slug, page: name)
        case .region(let slug, _): return .region(slug: slug, page: name)
        case .person(let slug, _): return .person(slug: slug, page: name)
        case .favoritePlace(let slug, _): return .favoritePlace(slug: slug, page: name)
        case .unlistedAlbum(let folder, let slug, _): return .unlistedAlbum(folder: folder, slug: slug, page: name)
        default: return self
        }
    }

    /// The first page of the listing this route is a page of (itself for any other route).
    public var firstPage: Route {
        switch self {
        case .albums, .places, .people, .favorites, .allFavorites: return page(1)
        default: return page(named: nil)
        }
    }

    /// The section of the site the page belongs to, which the navigation marks as current.
    public var section: Section {
        switch self {
        case .home: return .home
        case .recents: return .recents
        case .search: return .search
        case .albums, .album, .unlistedAlbum: return .albums
        case .places, .place: return .places
        case .regions, .region: return .regions
        case .map: return .map
        case .people, .person: return .people
        case .favorites, .allFavorites, .favoritePlace: return .favorites
        case .photo, .unlistedPhoto: return .photo
        }
    }

    /// "people/index" → "people/index.html"; page 2 → "people/index/2.html".
    private static func paged(_ stem: String, _ page: Int) -> String {
        page <= 1 ? "\(stem).html" : "\(stem)/\(page).html"
    }

    /// "places/paris" → "places/paris.html"; the page named "2019-05-12" → "places/paris/2019-05-12.html".
    private static func paged(_ stem: String, _ page: String?) -> String {
        page.map { "\(stem)/\($0).html" } ?? "\(stem).html"
    }

    public enum Section: String, Sendable, CaseIterable, Encodable {
        case home, albums, places, regions, map, people, favorites, recents, search, photo
    }

    /// The site's sections as the navigation lists them, each by its first page (Map only on a
    /// site that has one: `PageFrame.hasMap`).
    static let navigation: [(title: Phrase, route: Route)] = [
        (.sectionAlbums, .albums()), (.sectionPlaces, .places()), (.sectionRegions, .regions), (.sectionMap, .map),
        (.sectionPeople, .people()), (.sectionFavorites, .favorites()), (.sectionRecents, .recents), (.sectionSearch, .search),
    ]
}

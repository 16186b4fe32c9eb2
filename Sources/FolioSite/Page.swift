/// A page of the site as a value: a kind of page is one type, drawn by one template of the
/// theme, at a path its `Route` gives. Templates see the page's own stored properties and its
/// frame's, all under `page`, by their names (see `TemplateEncoder`): a field is written once.
///
/// Adding a kind of page: a type here, a case of `Route`, a template, and the `SiteBuilder`
/// function that makes it from the model (and its route in `SiteBuilder.routes()`).
public protocol SitePage: Encodable, Sendable {
    /// The theme's template that draws this kind of page.
    static var template: String { get }
    var frame: PageFrame { get set }
}

extension SitePage {
    public var path: String { frame.path }
}

/// What every page has, whatever it shows: what the layout draws around it.
public struct PageFrame: Sendable, Encodable {
    /// Relative to the public root, e.g. "places/index.html": the route's path.
    public var path: String
    public var section: Route.Section
    public var title: String
    public var heading: String
    public var subheading: String?
    /// A description written in Markdown (an album's sigal `index.md`), as HTML from cmark with
    /// raw HTML left out: shown unescaped under the heading.
    public var descriptionHTML: String?
    public var crumbs: [Crumb] = []
    /// Where a listing cut into pages is, and the way to its other pages.
    public var paging: Paging?
    /// The place a page is about, for the theme's script (a place's favorites add the visitor's own).
    public var placeSlug: String?
    /// How the page looks when shared (Open Graph, Twitter): pages about photos have one.
    public var social: SocialCard?
    /// What the page is made from, for messages: "person 'Index'", "photo content/a.jpg".
    public var origin: String?
    /// Search engines are asked to leave the page out (an unlisted album's).
    public var noindex = false
    /// The list of photos this listing shows, which a photo chosen here walks through.
    public var sequence: PhotoSequence?
    /// A protected album's page: its key's verifier (`AlbumCipher.verifier`), so a new password
    /// draws it again.
    public var lock: String?
    /// Whether the site has a Map, which the navigation then lists (set on every page of the
    /// listed site, so a gallery whose first photo with GPS arrives draws its pages again).
    public var hasMap = false

    public init(_ route: Route, title: String, heading: String? = nil, subheading: String? = nil) {
        self.init(path: route.path, section: route.section, title: title, heading: heading, subheading: subheading)
    }

    /// The frame of a page at `path`, for a page that stands in for another there (a protected
    /// album's locked page).
    public init(path: String, section: Route.Section, title: String, heading: String? = nil, subheading: String? = nil) {
        self.path = path
        self.section = section
        self.title = title
        self.heading = heading ?? title
        self.subheading = subheading
    }

    /// The way back up to the public root from this page: "" or "../".
    public var root: String {
        String(repeating: "../", count: path.utf8.filter { $0 == UInt8(ascii: "/") }.count)
    }

    var described: String { origin ?? "the page '\(title)'" }
}

/// The home page: the ways into the gallery, and its latest photos.
public struct HomePage: SitePage {
    public static let template = "home"
    public var frame: PageFrame
    public var stats: [StatLink] = []
    public var photoSections: [PhotoSection] = []
    public var emptyMessage: String?
}

/// A listing of photos: a place's, a region's, a person's, a place's favorites, the recents.
public struct PhotosPage: SitePage {
    public static let template = "photos"
    public var frame: PageFrame
    public var photoSections: [PhotoSection] = []
    public var emptyMessage: String?
    /// A region's places on a map framed to them; where a place is, on its page.
    public var map: MapFigure?
}

/// The Map: the gallery's places on the world, and the places with the most photos listed
/// beside it as links (the whole map for a visitor without JavaScript or sight).
public struct MapPage: SitePage {
    public static let template = "map"
    public var frame: PageFrame
    public var map: MapFigure
    public var places: [MapListItem]
    /// Said under a list that leaves places out: how many, and that Places lists them all (a
    /// link), as HTML.
    public var moreNoteHTML: String?
    /// The theme's map script's places (`SiteBuilder.mapData()`), relative to the public root.
    public var mapData: String?
}

/// A place in the list beside the Map.
public struct MapListItem: Sendable, Encodable, Equatable {
    public var href: String
    public var title: String
    public var subtitle: String?
    public var photos: String
}

/// An album: its sub-albums, then its own photos.
public struct AlbumPage: SitePage {
    public static let template = "album"
    public var frame: PageFrame
    /// The heading over `rows` (the sub-albums) when there are any.
    public var rowsTitle: String?
    public var rows: [ListRow] = []
    /// Where all the sub-albums are listed, when there are more than `rows` shows.
    public var rowsMore: Crumb?
    public var photoSections: [PhotoSection] = []
    public var emptyMessage: String?
}

/// A list of rows: the albums, the top regions, the people, the places with favorites.
public struct ListPage: SitePage {
    public static let template = "list"
    public var frame: PageFrame
    public var rows: [ListRow] = []
    /// Photos by section (the Favorites page's, by place), after the rows.
    public var photoSections: [PhotoSection] = []
    public var favoritesSwitch: FavoritesSwitch?
    public var emptyMessage: String?
}

/// The Places index: A–Z, each letter a section of rows.
public struct PlacesPage: SitePage {
    public static let template = "places"
    public var frame: PageFrame
    public var letters: [IndexLetter] = []
    public var rowSections: [RowSection] = []
    public var emptyMessage: String?
}

/// The Search page: a form; the theme's script finds and shows the results.
public struct SearchPage: SitePage {
    public static let template = "search"
    public var frame: PageFrame
    /// What the page says without JavaScript, with links to browse instead, as HTML.
    public var noscriptHTML: String?
}

/// A photo's own page.
public struct PhotoPage: SitePage {
    public static let template = "photo"
    public var frame: PageFrame
    public var photo: PhotoDetail
    /// Where its place is (the place's position, never the photo's own GPS).
    public var map: MapFigure?
}

/// A protected album's page as published: the real page, encrypted, and a form for its password.
public struct LockedPage: SitePage {
    public static let template = "locked"
    public var frame: PageFrame
    public var sealed: SealedPage

    package init(frame: PageFrame, sealed: SealedPage) {
        self.frame = frame
        self.sealed = sealed
    }
}

/// A page of a list cut into pages: where it is, and links to the others.
public struct Paging: Sendable, Encodable, Equatable {
    /// Which page of how many, in an A–Z list; nil in a listing of photos, whose pages are where
    /// its photos say (`ListingPages`) and say nothing that changes when another page is cut.
    public var number: Int?
    public var count: Int?
    /// "Page 2 of 5" in an A–Z list, the days its photos were taken in a listing of photos, in the
    /// site's language.
    public var status: String
    public var previous: String?
    public var next: String?
    /// The first page, from a page not next to it.
    public var first: String?
    /// The pages of an A–Z list a visitor can jump to: the first, the last, and those around this
    /// one, with gaps (`gap`) where pages are left out.
    public var pages: [PageLink]

    /// Paging for page `number` of `count` pages of `route`; nil when there is one page.
    init?(_ route: Route, number: Int, count: Int, language: SiteLanguage = .defaultTheme) {
        guard count > 1 else { return nil }
        self.number = number
        self.count = count
        status = language.say(.pagerStatus, ["number": language.number(number), "count": language.number(count)])
        previous = number > 1 ? route.page(number - 1).path : nil
        next = number < count ? route.page(number + 1).path : nil
        let shown = Set([1, count] + Array(max(1, number - 2)...min(count, number + 2)))
        var pages: [PageLink] = []
        for n in shown.sorted() {
            if let last = pages.last?.number, n > last + 1 {
                pages.append(PageLink(number: 0, numberText: "", href: "", current: false, gap: true))
            }
            pages.append(PageLink(number: n, numberText: language.number(n), href: route.page(n).path, current: n == number, gap: false))
        }
        self.pages = pages
    }

    /// Paging for `page` (from 0) of a listing of photos cut into `pages`, whose photos were taken
    /// on `days`; nil when there is one page.
    init?(_ route: Route, page: Int, of pages: ListingPages, days: String) {
        guard pages.pageCount > 1 else { return nil }
        status = days
        previous = page > 0 ? route.page(named: pages.names[page - 1]).path : nil
        next = page + 1 < pages.pageCount ? route.page(named: pages.names[page + 1]).path : nil
        first = page > 1 ? route.page(named: nil).path : nil
        self.pages = []
    }
}

public struct PageLink: Sendable, Encodable, Equatable {
    public var number: Int
    /// `number` as the site's language writes it.
    public var numberText: String
    public var href: String
    public var current: Bool
    /// Stands for pages left out of the list ("…").
    public var gap: Bool
}

extension Array where Element == PhotoSection {
    /// How many of a page's first photos load at once: a phone's first screen holds two to four,
    /// a desktop's one or two rows. The rest load as the visitor scrolls to them.
    static let eagerCount = 6

    /// The sections with their first screen's photos loaded at once, the very first fetched first.
    func firstScreenEager() -> [PhotoSection] {
        var sections = self
        var left = Self.eagerCount
        for s in sections.indices {
            for c in sections[s].photos.indices where left > 0 {
                sections[s].photos[c].eager = true
                sections[s].photos[c].leading = left == Self.eagerCount
                left -= 1
            }
        }
        return sections
    }
}

import FolioCore
import FolioMedia
import FolioModel
import Foundation

/// A photo's published media as pages show them.
public struct PhotoImages: Sendable, Equatable {
    public var thumb: ImageRef?
    public var screen: ImageRef?
    /// For rows of photos in their own shapes (nil where the photo's own renditions are another
    /// site's: rows then show those).
    public var row: ImageRef?
    public var zoom: TilePyramid?
    /// A video's or a Live Photo's web video.
    public var video: String?

    public init(thumb: ImageRef? = nil, screen: ImageRef? = nil, row: ImageRef? = nil, zoom: TilePyramid? = nil, video: String? = nil) {
        self.thumb = thumb
        self.screen = screen
        self.row = row
        self.zoom = zoom
        self.video = video
    }

    init(_ media: PhotoMedia) {
        var screen = ImageRef(media.screens)
        screen?.animation = media.animation
        self.init(thumb: ImageRef(media.thumbnails), screen: screen, row: ImageRef(media.rows), zoom: media.tiles, video: media.video)
    }
}

/// A photo's images as pages show them, made from its media when a page asks: a large library's
/// are not all held at once.
public struct ImageLookup: Sendable {
    private let media: @Sendable (Photo) -> PhotoMedia?

    /// Media named as each photo is asked for (a build's `MediaNames`).
    public init(naming: @escaping @Sendable (Photo) -> PhotoMedia?) {
        media = naming
    }

    /// Media given for some photos, by id.
    public init(media: [Int64: PhotoMedia]) {
        self.media = { media[$0.id] }
    }

    subscript(photo: Photo) -> PhotoImages? {
        media(photo).map(PhotoImages.init)
    }
}

/// Turns the model into the site's pages, as values, one route at a time: `routes()` says which
/// pages the site has, `page(_:)` makes one. Knows nothing of templates or files.
public struct SiteBuilder: Sendable {
    /// Its photos are `ordered`'s, and go from here when those are spilled (`spill(into:at:)`).
    public private(set) var snapshot: GallerySnapshot
    /// By photo id, as pages show them.
    let images: ImageLookup
    public let settings: SiteSettings
    /// The words pages say, and how they write numbers and dates.
    public let language: SiteLanguage
    /// The moment "hours ago" is measured from.
    public let now: Date
    /// Where the site is published, when the settings say: absolute links for cards and feeds.
    let address: SiteAddress?

    /// Every photo, newest first: the order of lists and of previous/next. Read where they lie
    /// once a large site is laid out (`spill(into:at:)`).
    package private(set) var ordered: PhotoRows
    /// The folders of content/ that hold photos.
    private(set) var albumTree: AlbumTree
    /// Set when this builder draws one unlisted album (its snapshot that album's photos alone).
    let unlisted: UnlistedAlbum?
    /// The world the maps are drawn on (`WorldBasemap.path`); maps without it show only markers.
    let basemap: String?
    /// Whether the navigation links the Map, when another builder knows (an unlisted album's
    /// pages link the listed site's Map, which their own photos alone would not say).
    let mapInNavigation: Bool?

    /// Where each photo, place, region and person is: positions in `ordered` (so each list is
    /// newest first), and the pages' subjects by their slugs.
    private(set) var index: Index
    /// Each photo's `ValueDigest` (with its person, place and region): what its cards show, as
    /// one number (see `key(_:)`).
    let cardDigests: CardDigests
    /// Draws cards as their photos' card digests alone (see `key(_:)`).
    var digestsOnly = false

    public init(snapshot: GallerySnapshot, media: [Int64: PhotoMedia], settings: SiteSettings, now: Date,
                language: SiteLanguage = .defaultTheme, unlisted: UnlistedAlbum? = nil, basemap: String? = nil,
                mapInNavigation: Bool? = nil) {
        self.init(snapshot: snapshot, images: ImageLookup(media: media), settings: settings, now: now, language: language,
                  unlisted: unlisted, basemap: basemap, mapInNavigation: mapInNavigation)
    }

    public init(snapshot: GallerySnapshot, images: ImageLookup, settings: SiteSettings, now: Date,
                language: SiteLanguage = .defaultTheme, unlisted: UnlistedAlbum? = nil, basemap: String? = nil,
                mapInNavigation: Bool? = nil) {
        self.snapshot = snapshot
        self.images = images
        self.settings = settings
        self.language = language
        self.now = now
        self.address = SiteAddress(settings.baseURL)
        // A build hands over its snapshot newest first already (`PlanStep`), and the builder then
        // shares its photos rather than holding a second copy of every one.
        var sorted = snapshot.photos
        if !(sorted.held.map(Self.isNewestFirst) ?? Self.isNewestFirst(sorted)) { sorted.sort(by: NewestFirst.init) }
        let ordered = sorted
        self.ordered = ordered
        self.unlisted = unlisted
        self.basemap = basemap
        self.mapInNavigation = mapInNavigation
        // Held photos are laid out from their array (`OrderedPhotos`).
        let layout = if let held = ordered.held {
            Layout(held, snapshot: snapshot, settings: settings, language: language, unlisted: unlisted)
        } else {
            Layout(ordered, snapshot: snapshot, settings: settings, language: language, unlisted: unlisted)
        }
        albumTree = layout.albumTree
        index = layout.index
        cardDigests = layout.cardDigests
    }

    /// Where everything is, as the builder keeps it: made by passes over `ordered`, the photos
    /// newest first (the rows' own array while they are held).
    private struct Layout {
        var albumTree: AlbumTree
        var index: Index
        var cardDigests: CardDigests

        init(_ ordered: some OrderedPhotos, snapshot: GallerySnapshot, settings: SiteSettings,
             language: SiteLanguage, unlisted: UnlistedAlbum?) {
            // The album tree and the recents' order are made on another core while this one files
            // the photos by place, region and person.
            let albums = snapshot.albums
            // Names in the order the site's language lists them.
            let collation = Collation(language.locale)
            let ((albumTree, latestAdded), (filed, places, people, centres)) = inParallel({
                var albumTree = AlbumTree(photos: ordered, settings: albums, collation: collation)
                if let unlisted {
                    albumTree.relocate { unlisted.contains($0.path) ? unlisted.route(of: $0) : $0.route }
                }
                let latest = SiteBuilder.latestAdded(ordered, count: SiteBuilder.latestKept(settings))
                return (albumTree, latest)
            }, {
                SiteBuilder.filed(ordered)
            })
            self.albumTree = albumTree
            var index = filed
            index.favoriteCount = ordered.count(where: \.favorite)
            let placesIndex = PlacesIndex(language)
            let letters = places.mapValues { placesIndex.letter($0.title) }
            // Names compared as a reader would (the locale's collation, which costs): a
            // large library's places and people are sorted on both cores.
            index.places = Array(places.values).sortedInParallel { a, b in
                let (otherA, otherB) = (letters[a.id] == PlacesIndex.other, letters[b.id] == PlacesIndex.other)
                if otherA != otherB { return otherB }
                if letters[a.id] != letters[b.id] { return placesIndex.order(letters[a.id] ?? "", letters[b.id] ?? "") }
                return a.title == b.title ? collation.precedes(a.subtitle, b.subtitle) : collation.precedes(a.title, b.title)
            }
            for place in index.places {
                let letter = letters[place.id] ?? PlacesIndex.other
                if index.placesByLetter.last?.letter == letter {
                    index.placesByLetter[index.placesByLetter.count - 1].places.append(place)
                } else {
                    index.placesByLetter.append((letter, [place]))
                }
                if place.hasFavorites {
                    let favorites = PositionList((index.byPlace[place.id] ?? []).lazy.filter { ordered[$0].favorite })
                    if !favorites.isEmpty { index.favorites[place.id] = favorites }
                }
            }
            index.people = Array(people.values).sortedInParallel { collation.precedes($0.name, $1.name) }
            index.place = Dictionary(index.places.map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
            index.person = Dictionary(index.people.map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
            index.region = Dictionary(snapshot.regions.map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
            index.album = Dictionary(albumTree.albums.values.map { ($0.slug, $0.path) }, uniquingKeysWith: { first, _ in first })
            index.inAlbum = AlbumOrder(count: ordered.count)
            // Where each photo is in its own folder's album (one listed in others too leads through its own).
            for album in albumTree.albums.values {
                for (at, position) in album.photos.enumerated() where !ordered[position].inOtherAlbums || ordered[position].folder == album.path {
                    index.inAlbum[position] = at
                }
            }
            index.latestAdded = latestAdded
            index.pages = SiteBuilder.listingPages(ordered, albumTree: albumTree, index: index,
                                                   pageSize: settings.pageSize)
            index.coordinates = centres.mapValues { centre in
                MapCoordinate.rounded(latitude: centre.latitude, longitude: centre.longitude, kilometres: settings.mapPrecision)
            }
            self.index = index
            cardDigests = CardDigests(of: ordered)
        }
    }

    // MARK: - Shared pieces

    /// Page `number` (from 1) of `items`; nil past the last page.
    package func slice<T>(_ items: [T], number: Int) -> ArraySlice<T>? {
        guard number >= 1, number <= pageCount(items.count) else { return nil }
        let start = (number - 1) * settings.pageSize
        return items[min(start, items.count)..<min(start + settings.pageSize, items.count)]
    }

    /// Lets go of its photos and its listings' positions, read from here on where they lie
    /// (`PhotoRows.spilled(into:at:)`, `PositionList.spilled(into:)`), in stores that spill into
    /// `folder`: once the site is laid out, a page asks for a few photos at a time.
    package mutating func spill(into folder: String?, at spillAt: Int = PackedStore.spillSize) {
        ordered = ordered.spilled(into: folder, at: spillAt)
        snapshot.photos = PhotoRows()
        let lists = PackedStore(spillingInto: folder, at: min(spillAt, PositionList.storeSpillSize))
        index.spillLists(into: lists)
        albumTree.spillPhotos(into: lists)
        lists.seal()
    }

    /// Every listing of photos cut into its pages (`ListingPages`), by the path of its first page:
    /// albums in their own order, places, regions, people and places' favorites newest first.
    fileprivate static func listingPages(_ ordered: some OrderedPhotos, albumTree: AlbumTree, index: Index,
                                         pageSize: Int) -> [String: ListingPages] {
        let breaks = ordered.map { ListingPages.breaks(identity(of: $0), pageSize: pageSize) }
        func pages(_ positions: PositionList, newestFirst: Bool) -> ListingPages {
            ListingPages(count: positions.count, pageSize: pageSize, newestFirst: newestFirst,
                         breaks: { breaks[positions[$0]] }, day: { when(ordered[positions[$0]]) })
        }
        var all: [String: ListingPages] = [:]
        for album in albumTree.albums.values {
            all[album.route.path] = pages(album.photos, newestFirst: false)
        }
        for place in index.places {
            all[Route.place(slug: place.slug).path] = pages(index.byPlace[place.id] ?? [], newestFirst: true)
            if let favorites = index.favorites[place.id] {
                all[Route.favoritePlace(slug: place.slug).path] = pages(favorites, newestFirst: true)
            }
        }
        for region in index.region.values {
            all[Route.region(slug: region.slug).path] = pages(index.byRegion[region.id] ?? [], newestFirst: true)
        }
        for person in index.people {
            all[Route.person(slug: person.slug).path] = pages(index.byPerson[person.id] ?? [], newestFirst: true)
        }
        return all
    }

    /// The pages of the listing `route` is a page of; one empty page for a listing this site has not.
    func listingPages(_ route: Route) -> ListingPages {
        index.pages[route.firstPage.path]
            ?? ListingPages(count: 0, pageSize: settings.pageSize, newestFirst: true, breaks: { _ in false }, day: { _ in .distantPast })
    }

    /// The page of a listing of photos (`positions`, in the order shown) that `route` names: which
    /// it is (from 0) of the listing's `pages`, and the photos it shows, read alone. Nil for a name
    /// the listing has not.
    func listingPage(_ route: Route, name: String?, _ positions: PositionList) -> (page: Int, pages: ListingPages, shown: [Int])? {
        let pages = listingPages(route)
        guard pages.count == positions.count, let page = pages.page(named: name) else { return nil }
        return (page, pages, positions.positions(in: pages.range(page)))
    }

    /// A page of a listing of photos: its frame with its pager (the pages before and after it, and
    /// the days its photos were taken), its title past the first page saying those days.
    func framed(_ frame: PageFrame, route: Route, page: Int, of pages: ListingPages, shown: [Int]) -> PageFrame {
        var frame = frame
        let dates = shown.map { Self.when(ordered[$0]) }
        let days = dates.min().map { language.days(from: $0, to: dates.max()!) } ?? ""
        frame.paging = Paging(route, page: page, of: pages, days: days)
        if page > 0 {
            frame.title = language.say(.pagerDays, ["title": frame.title, "days": days])
        }
        return frame
    }

    /// A list's page: its frame paged, its title saying which page past the first.
    func framed(_ frame: PageFrame, route: Route, number: Int, count: Int) -> PageFrame {
        var frame = frame
        frame.paging = Paging(route, number: number, count: pageCount(count), language: language)
        if number > 1 {
            frame.title = language.say(.pagerTitle, ["title": frame.title, "number": language.number(number),
                                                     "count": language.number(pageCount(count))])
        }
        return frame
    }

    static func when(_ item: GalleryPhoto) -> Date { item.taken ?? item.uploaded }

    /// A photo's identity, the hash of its identifier: where listings' pages end
    /// (`ListingPages`), and how the next build finds the photo (`SiteDigest`).
    static func identity(of item: GalleryPhoto) -> UInt64 { ContentHash.hash(item.identifier) }

    /// The identity of the photo at `position` in `ordered`, its identifier read alone.
    func identity(at position: Int) -> UInt64 { ContentHash.hash(ordered.identifier(at: position)) }

    /// Every photo's identity, by position in `ordered`.
    func identities() -> [UInt64] { ordered.indices.map(identity(at:)) }

    /// Where a photo comes in the site's order: the newest first (taken, else uploaded), photos
    /// of one moment by their identifiers.
    package struct NewestFirst: Comparable {
        let when: Date
        let identifier: String

        package init(_ item: GalleryPhoto) {
            when = SiteBuilder.when(item)
            identifier = item.identifier
        }

        package static func < (a: NewestFirst, b: NewestFirst) -> Bool {
            a.when != b.when ? a.when > b.when : a.identifier < b.identifier
        }
    }

    /// Whether `photos` are in the site's order: each read once, as rows are read.
    static func isNewestFirst(_ photos: some OrderedPhotos) -> Bool {
        var previous: NewestFirst?
        for item in photos {
            let key = NewestFirst(item)
            if let previous, key < previous { return false }
            previous = key
        }
        return true
    }


    /// Where the photos of a place, a region, a person are in `ordered`: newest first.
    func positions(of place: Place) -> PositionList { index.byPlace[place.id] ?? [] }
    func positions(of region: Region) -> PositionList { index.byRegion[region.id] ?? [] }
    func positions(of person: Person) -> PositionList { index.byPerson[person.id] ?? [] }

    func card(_ item: GalleryPhoto) -> PhotoCard {
        if digestsOnly { return digestCard(item) }
        let photo = item.photo
        return card(item, photo, thumb: images[photo]?.thumb)
    }

    /// `photo` is `item`'s, unpacked once for the whole card.
    private func card(_ item: GalleryPhoto, _ photo: Photo, thumb: ImageRef?) -> PhotoCard {
        var card = PhotoCard(href: photoPath(item), title: PhotoText.title(photo, language), subtitle: PhotoText.subtitle(photo).nilIfEmpty,
                             alt: PhotoText.alt(item, of: photo, language), thumb: thumb, favorite: item.favorite, identifier: item.identifier)
        let marks = MediaMarks(photo, language: language)
        (card.duration, card.live) = (marks.duration, marks.live)
        return card
    }

    /// A card that is only its photo's card digest: what a page's key holds of it (see `key(_:)`).
    private func digestCard(_ item: GalleryPhoto) -> PhotoCard {
        PhotoCard(href: "", title: String(cardDigests[item], radix: 16), subtitle: nil, alt: "", thumb: nil, favorite: false,
                         identifier: item.identifier)
    }

    /// The thumbnail of the newest of `positions`, to stand for a place, a region or a person.
    func cover(_ positions: PositionList) -> (ImageRef?, String) {
        guard let first = positions.first.map({ ordered[$0] }) else { return (nil, "") }
        let photo = first.photo
        return (images[photo]?.thumb, PhotoText.alt(first, of: photo, language))
    }

    /// A card showing the whole photo, for rows that keep each photo's shape.
    func shapedCard(_ item: GalleryPhoto) -> PhotoCard {
        if digestsOnly { return digestCard(item) }
        let photo = item.photo
        let images = self.images[photo]
        var card = card(item, photo, thumb: images?.thumb)
        if let shape = images?.row ?? images?.screen, shape.width > 0, shape.height > 0 {
            card.shape = shape
            card.shapeSizes = Self.shapeSizes(width: shape.width, height: shape.height)
        }
        return card
    }

    /// About how wide a photo is in rows of photos in their own shapes: rows 260 px high
    /// (style.css's `.keeps-shapes`), narrower on a phone. On a phone it says a third of the
    /// cell's width, so a phone of any density takes the row rendition 260 pixels high (about one
    /// device pixel per pixel on a 3× phone): a long album scrolled on a phone costs what its
    /// thumbnails weigh, not its screen renditions; the photo's own page is sharp.
    static func shapeSizes(width: Int, height: Int) -> String {
        let aspect = Double(width) / Double(height)
        // Rounded down: a row rendition's width is rounded to the nearest pixel, and a `sizes` a
        // pixel wider than it would make the browser take the next larger one.
        let phone = Int(min(400, (aspect * 220).rounded(.down)))
        return "(max-width: 560px) \(phone / 3)px, \(Int((aspect * 260).rounded(.down)))px"
    }

    /// The photos `shown` in rows that keep their shapes.
    func grid(_ shown: [Int]) -> [PhotoSection] {
        [PhotoSection(title: nil, photos: shown.map { shapedCard(ordered[$0]) }, keepsShapes: true)].firstScreenEager()
    }

    /// The photos `shown` from `start` of `positions` (newest first), in sections by when they were
    /// taken: hours ago for the last day, then by date. A section carried on from the page before says so.
    func timeline(_ positions: PositionList, shown: [Int], from start: Int) -> [PhotoSection] {
        var sections: [PhotoSection] = []
        for item in shown.map({ ordered[$0] }) {
            let title = PhotoText.whenSection(Self.when(item), now: now, language)
            if sections.last?.title == title {
                sections[sections.count - 1].photos.append(shapedCard(item))
            } else {
                sections.append(PhotoSection(title: title, photos: [shapedCard(item)], keepsShapes: true))
            }
        }
        if let first = shown.first, start > 0, !sections.isEmpty,
           PhotoText.whenSection(Self.when(ordered[positions[start - 1]]), now: now, language)
            == PhotoText.whenSection(Self.when(ordered[first]), now: now, language) {
            sections[0].continued = true
        }
        return sections.firstScreenEager()
    }
}

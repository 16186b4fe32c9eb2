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
    public let snapshot: GallerySnapshot
    /// By photo id, as pages show them.
    let images: ImageLookup
    public let settings: SiteSettings
    /// The moment "hours ago" is measured from.
    public let now: Date
    /// Where the site is published, when the settings say: absolute links for cards and feeds.
    let address: SiteAddress?

    /// Every photo, newest first: the order of lists and of previous/next.
    let ordered: [GalleryPhoto]
    /// The folders of content/ that hold photos.
    let albumTree: AlbumTree
    /// Set when this builder draws one unlisted album (its snapshot that album's photos alone).
    let unlisted: UnlistedAlbum?
    /// The world the maps are drawn on (`WorldBasemap.path`); maps without it show only markers.
    let basemap: String?
    /// Whether the navigation links the Map, when another builder knows (an unlisted album's
    /// pages link the listed site's Map, which their own photos alone would not say).
    let mapInNavigation: Bool?

    /// Where each photo, place, region and person is: positions in `ordered` (so each list is
    /// newest first), and the pages' subjects by their slugs.
    let index: Index
    /// Each photo's `ValueStamp` (with its person, place and region), by position in `ordered`:
    /// what its cards show, as one number (see `key(_:)`).
    let stamps: [UInt64]
    /// Draws cards as their photos' stamps alone (see `key(_:)`).
    var stampsOnly = false

    struct Index: Sendable {
        var position = PhotoPositions()
        var byPlace: [Int64: [Int]] = [:]
        var byRegion: [Int64: [Int]] = [:]
        var byPerson: [Int64: [Int]] = [:]
        /// Places A–Z, titles that start with no letter last (the "#" section).
        var places: [Place] = []
        /// The same, under their letters (`indexLetter`), A–Z then "#".
        var placesByLetter: [(letter: String, places: [Place])] = []
        /// The favorites of each place that holds any (positions, newest first).
        var favorites: [Int64: [Int]] = [:]

        /// Places that hold favorites, A–Z, with their favorites.
        var placesWithFavorites: [(place: Place, favorites: [Int])] {
            places.compactMap { place in favorites[place.id].map { (place, $0) } }
        }
        /// Everyone named, A–Z: never the person of photos no one is named for (`Person.isUnknown`).
        var people: [Person] = []
        var place: [String: Place] = [:]
        var region: [String: Region] = [:]
        var person: [String: Person] = [:]
        var album: [String: String] = [:]
        /// Positions, the photos last added first.
        var latestAdded: [Int] = []
        /// Where each place with GPS among its photos is on the maps (`MapCoordinate`).
        var coordinates: [Int64: MapCoordinate] = [:]
        /// Where each photo is in its album's own order, by position (`SiteBuilder.neighbours`).
        var inAlbum = AlbumOrder(count: 0)
    }

    /// Where each photo is in its album's own order, by its position in `ordered`: a number each
    /// (as a dictionary, 33 bytes a photo).
    struct AlbumOrder: Sendable {
        private var places: [Int32]

        init(count: Int) {
            places = [Int32](repeating: -1, count: count)
        }

        /// Nil for a photo in no album.
        subscript(position: Int) -> Int? {
            get { places.indices.contains(position) && places[position] >= 0 ? Int(places[position]) : nil }
            set { places[position] = newValue.map { Int32($0) } ?? -1 }
        }
    }

    /// Where each photo is in `ordered`, by its identifier (`NumberTable`, over the photos' own
    /// identifiers). A photo listed twice is found where it was listed last.
    struct PhotoPositions: Sendable {
        private var ordered: [GalleryPhoto] = []
        private var table = NumberTable()

        init() {}

        init(_ ordered: [GalleryPhoto]) {
            self.ordered = ordered
            table = NumberTable(count: ordered.count) { ordered[$0].photo.identifier }
        }

        subscript(identifier: String) -> Int? {
            table.number(of: identifier) { ordered[$0].photo.identifier }
        }
    }

    /// Each photo's stamp: what its cards and page show of it, the photo (`Photo.stamp`) and whom
    /// and where it names; not what the model keeps of its place and region for other pages
    /// (whether the place holds favorites, how many photographers the region has), which would
    /// move the stamps of every photo there when one photo is made a favorite or given to
    /// someone else. A person, place or region is stamped once for all the photos that name it.
    static func stamps(of photos: [GalleryPhoto]) -> [UInt64] {
        var people: [Int64: UInt64] = [:]
        var places: [Int64: UInt64] = [:]
        var regions: [Int64: UInt64] = [:]
        for item in photos {
            if people[item.person.id] == nil { people[item.person.id] = ValueStamp.of(item.person) }
            if var place = item.place, places[place.id] == nil {
                place.hasFavorites = false
                places[place.id] = ValueStamp.of(place)
            }
            if var region = item.region, regions[region.id] == nil {
                region.photographerCount = 0
                regions[region.id] = ValueStamp.of(region)
            }
        }
        let (named, located, regional) = (people, places, regions)
        return photos.concurrentMap { item in
            let stamps = (item.photo.stamp, named[item.person.id] ?? 0, item.place.flatMap { located[$0.id] } ?? 0,
                          item.region.flatMap { regional[$0.id] } ?? 0)
            return withUnsafeBytes(of: stamps) { ContentHash.hash($0) }
        }
    }

    public init(snapshot: GallerySnapshot, media: [Int64: PhotoMedia], settings: SiteSettings, now: Date,
                unlisted: UnlistedAlbum? = nil, basemap: String? = nil, mapInNavigation: Bool? = nil) {
        self.init(snapshot: snapshot, images: ImageLookup(media: media), settings: settings, now: now, unlisted: unlisted,
                  basemap: basemap, mapInNavigation: mapInNavigation)
    }

    public init(snapshot: GallerySnapshot, images: ImageLookup, settings: SiteSettings, now: Date,
                unlisted: UnlistedAlbum? = nil, basemap: String? = nil, mapInNavigation: Bool? = nil) {
        self.snapshot = snapshot
        self.images = images
        self.settings = settings
        self.now = now
        self.address = SiteAddress(settings.baseURL)
        // A build hands over its snapshot newest first already (`PlanStep`), and the builder then
        // shares its array rather than holding a second copy of every photo.
        let ordered = Self.isNewestFirst(snapshot.photos) ? snapshot.photos : snapshot.photos.sorted(by: Self.newestFirst)
        self.ordered = ordered
        self.unlisted = unlisted
        self.basemap = basemap
        self.mapInNavigation = mapInNavigation
        // The album tree and the recents' order are made on another core while this one files
        // the photos by place, region and person: each is a tenth of a second of a large library.
        let albums = snapshot.albums
        let ((albumTree, latestAdded), (filed, places, people, centres)) = inParallel({
            var albumTree = AlbumTree(photos: ordered, settings: albums)
            if let unlisted {
                albumTree.relocate { unlisted.contains($0.path) ? unlisted.route(of: $0) : $0.route }
            }
            return (albumTree, Self.latestAdded(ordered))
        }, {
            Self.filed(ordered)
        })
        self.albumTree = albumTree
        var index = filed
        let letters = places.mapValues { Self.indexLetter($0.title) }
        index.places = places.values.sorted { a, b in
            let (otherA, otherB) = (letters[a.id] == "#", letters[b.id] == "#")
            if otherA != otherB { return otherB }
            return a.title == b.title ? Self.byName(a.subtitle, b.subtitle) : Self.byName(a.title, b.title)
        }
        for place in index.places {
            let letter = letters[place.id] ?? "#"
            if index.placesByLetter.last?.letter == letter {
                index.placesByLetter[index.placesByLetter.count - 1].places.append(place)
            } else {
                index.placesByLetter.append((letter, [place]))
            }
            if place.hasFavorites {
                let favorites = (index.byPlace[place.id] ?? []).filter { ordered[$0].photo.favorite }
                if !favorites.isEmpty { index.favorites[place.id] = favorites }
            }
        }
        index.people = people.values.sorted { Self.byName($0.name, $1.name) }
        index.place = Dictionary(index.places.map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
        index.person = Dictionary(index.people.map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
        index.region = Dictionary(snapshot.regions.map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
        index.album = Dictionary(albumTree.albums.values.map { ($0.slug, $0.path) }, uniquingKeysWith: { first, _ in first })
        index.inAlbum = AlbumOrder(count: ordered.count)
        for album in albumTree.albums.values {
            for (at, position) in album.photos.enumerated() { index.inAlbum[position] = at }
        }
        index.latestAdded = latestAdded
        index.coordinates = centres.compactMapValues { centre in
            centre.mean.map { MapCoordinate.rounded(latitude: $0.latitude, longitude: $0.longitude, kilometres: settings.mapPrecision) }
        }
        self.index = index
        stamps = Self.stamps(of: ordered)
    }

    /// The photos' positions by identifier, place, region and person; the places and the people
    /// named, and where each place's photos with GPS are.
    private static func filed(_ ordered: [GalleryPhoto])
        -> (Index, places: [Int64: Place], people: [Int64: Person], centres: [Int64: MapCoordinate.Centre]) {
        var index = Index()
        index.position = PhotoPositions(ordered)
        var places: [Int64: Place] = [:]
        var people: [Int64: Person] = [:]
        var centres: [Int64: MapCoordinate.Centre] = [:]
        for (position, item) in ordered.enumerated() {
            if let place = item.place {
                index.byPlace[place.id, default: []].append(position)
                places[place.id] = place
                if let latitude = item.photo.latitude, let longitude = item.photo.longitude {
                    centres[place.id, default: MapCoordinate.Centre()].add(latitude: latitude, longitude: longitude)
                }
            }
            if let id = item.region?.id { index.byRegion[id, default: []].append(position) }
            index.byPerson[item.person.id, default: []].append(position)
            // No one named is no one: not in People, with no page and no list to walk.
            if !item.person.isUnknown { people[item.person.id] = item.person }
        }
        return (index, places, people, centres)
    }

    /// Positions, the photos last added first.
    private static func latestAdded(_ ordered: [GalleryPhoto]) -> [Int] {
        ordered.indices.sorted { a, b in
            let (pa, pb) = (ordered[a].photo, ordered[b].photo)
            return pa.uploaded != pb.uploaded ? pa.uploaded > pb.uploaded : pa.identifier < pb.identifier
        }
    }

    /// Every page of the site, in the order they are drawn: its listings, then a page for each
    /// photo, in the order of `ordered`.
    public func routes() -> [Route] {
        listingRoutes() + ordered.map { route(of: $0) }
    }

    /// The pages of the site but its photos'.
    func listingRoutes() -> [Route] {
        if let unlisted { return unlistedRoutes(unlisted) }
        var routes: [Route] = [.home, .recents, .search]
        routes += paged(.albums(), count: albumTree.albums.count)
        for album in albumTree.albums.values.sorted(by: { $0.path < $1.path }) {
            routes += paged(album.route, count: album.entries)
        }
        routes += placesIndexRoutes()
        for place in index.places {
            routes += paged(.place(slug: place.slug), count: positions(of: place).count)
        }
        routes.append(.regions)
        if hasMap { routes.append(.map) }
        for region in snapshot.regions {
            routes += paged(.region(slug: region.slug), count: positions(of: region).count)
        }
        routes += paged(.people(), count: index.people.count)
        for person in index.people {
            routes += paged(.person(slug: person.slug), count: positions(of: person).count)
        }
        routes += paged(.favorites(), count: favoritesIndexEntries().count)
        routes += paged(.allFavorites(), count: index.places.count)
        for (place, favorites) in index.placesWithFavorites {
            routes += paged(.favoritePlace(slug: place.slug), count: favorites.count)
        }
        return routes
    }

    /// The page at `route`; nil for a route this site has no page at.
    public func page(_ route: Route) -> (any SitePage)? {
        guard var page = made(route) else { return nil }
        page.frame.hasMap = mapInNavigation ?? hasMap
        return page
    }

    private func made(_ route: Route) -> (any SitePage)? {
        switch route {
        case .home: return unlisted == nil ? home() : nil
        case .recents: return unlisted == nil ? recents() : nil
        case .search: return unlisted == nil ? search() : nil
        case .albums(let number): return unlisted == nil ? albumsIndex(page: number) : nil
        case .album(let slug, let number), .unlistedAlbum(_, let slug?, let number):
            return index.album[slug].flatMap { albumTree.albums[$0] }.flatMap { albumPage($0, number: number) }
        case .unlistedAlbum(_, nil, let number):
            return unlisted.flatMap { albumTree.albums[$0.path] }.flatMap { albumPage($0, number: number) }
        case .places(let letter, let number): return placesIndex(letter: letter, number: number)
        case .place(let slug, let number): return index.place[slug].flatMap { placePage($0, number: number) }
        case .regions: return regionsIndex()
        case .map: return hasMap ? mapPage() : nil
        case .region(let slug, let number): return index.region[slug].flatMap { regionPage($0, number: number) }
        case .people(let number): return peopleIndex(number: number)
        case .person(let slug, let number): return index.person[slug].flatMap { personPage($0, number: number) }
        case .favorites(let number): return favoritesIndex(onlyFavorites: true, number: number)
        case .allFavorites(let number): return favoritesIndex(onlyFavorites: false, number: number)
        case .favoritePlace(let slug, let number): return index.place[slug].flatMap { favoritesPage($0, number: number) }
        case .photo(let identifier), .unlistedPhoto(_, let identifier):
            return index.position[identifier].map { photoPage(at: $0) }
        }
    }

    /// Fails when two routes would write one file, naming what both pages are made from: one
    /// would silently replace the other (an unlisted album's sub-album and photo of one name).
    /// Each route names its builder by its number in `builders`.
    public static func checkPaths<Routes: RandomAccessCollection<(route: Route, builder: Int)>>(_ routes: Routes, of builders: [SiteBuilder]) throws
        where Routes.Index == Int {
        // The paths in one buffer (a dictionary of a million pages' paths was 100 MB); the
        // first route of a path found twice looked for again.
        var seen = PathSet()
        seen.reserveCapacity(routes.count)
        for (position, entry) in routes.enumerated() {
            let path = entry.route.path
            guard !seen.insert(path), let first = routes.firstIndex(where: { $0.route.path == path }) else { continue }
            func described(_ at: Int) -> String {
                builders[routes[at].builder].page(routes[at].route)?.frame.described ?? path
            }
            throw FolioError(path: path, reason: "two pages would be written here: \(described(first)) and \(described(position))")
        }
    }

    // MARK: - Shared pieces

    /// How many pages a listing of `count` items takes (one, even when empty).
    func pageCount(_ count: Int) -> Int {
        max(1, (count + settings.pageSize - 1) / settings.pageSize)
    }

    /// The routes of a listing of `count` items: its first page, and the numbered ones after.
    func paged(_ route: Route, count: Int) -> [Route] {
        (1...pageCount(count)).map { route.page($0) }
    }

    /// Page `number` (from 1) of `items`; nil past the last page.
    func slice<T>(_ items: [T], number: Int) -> ArraySlice<T>? {
        guard number >= 1, number <= pageCount(items.count) else { return nil }
        let start = (number - 1) * settings.pageSize
        return items[min(start, items.count)..<min(start + settings.pageSize, items.count)]
    }

    /// A listing's page: its frame paged, its title saying which page past the first.
    func framed(_ frame: PageFrame, route: Route, number: Int, count: Int) -> PageFrame {
        var frame = frame
        frame.paging = Paging(route, number: number, count: pageCount(count))
        if number > 1 { frame.title += " (page \(number) of \(pageCount(count)))" }
        return frame
    }

    static func when(_ item: GalleryPhoto) -> Date { item.photo.taken ?? item.photo.uploaded }

    static func newestFirst(_ a: GalleryPhoto, _ b: GalleryPhoto) -> Bool {
        let (da, db) = (when(a), when(b))
        if da != db { return da > db }
        return a.photo.identifier < b.photo.identifier
    }

    static func isNewestFirst(_ photos: [GalleryPhoto]) -> Bool {
        photos.indices.dropFirst().allSatisfy { !newestFirst(photos[$0], photos[$0 - 1]) }
    }

    static func byName(_ a: String, _ b: String) -> Bool {
        a.localizedCaseInsensitiveCompare(b) == .orderedAscending
    }

    func route(of item: GalleryPhoto) -> Route {
        unlisted.map { .unlistedPhoto(folder: $0.folder, identifier: item.photo.identifier) } ?? .photo(identifier: item.photo.identifier)
    }

    func photoPath(_ item: GalleryPhoto) -> String { route(of: item).path }

    /// Where the photos of a place, a region, a person are in `ordered`: newest first.
    func positions(of place: Place) -> [Int] { index.byPlace[place.id] ?? [] }
    func positions(of region: Region) -> [Int] { index.byRegion[region.id] ?? [] }
    func positions(of person: Person) -> [Int] { index.byPerson[person.id] ?? [] }

    func card(_ item: GalleryPhoto) -> PhotoCard {
        if stampsOnly { return stampCard(item) }
        return card(item, thumb: images[item.photo]?.thumb)
    }

    private func card(_ item: GalleryPhoto, thumb: ImageRef?) -> PhotoCard {
        var card = PhotoCard(href: photoPath(item), title: PhotoText.title(item.photo), subtitle: PhotoText.subtitle(item.photo).nilIfEmpty,
                             alt: PhotoText.alt(item), thumb: thumb, favorite: item.photo.favorite, identifier: item.photo.identifier)
        if let motion = item.photo.motion {
            card.duration = motion.kind == .video ? motion.durationText : nil
            card.live = motion.kind == .live
        }
        return card
    }

    /// A card that is only its photo's stamp: what a page's key holds of it (see `key(_:)`).
    private func stampCard(_ item: GalleryPhoto) -> PhotoCard {
        let stamp = index.position[item.photo.identifier].map { stamps[$0] } ?? 0
        return PhotoCard(href: "", title: String(stamp, radix: 16), subtitle: nil, alt: "", thumb: nil, favorite: false,
                         identifier: item.photo.identifier)
    }

    /// The thumbnail of the newest of `positions`, to stand for a place, a region or a person.
    func cover(_ positions: [Int]) -> (ImageRef?, String) {
        guard let first = positions.first.map({ ordered[$0] }) else { return (nil, "") }
        return (images[first.photo]?.thumb, PhotoText.alt(first))
    }

    /// A card showing the whole photo, for rows that keep each photo's shape.
    func shapedCard(_ item: GalleryPhoto) -> PhotoCard {
        if stampsOnly { return stampCard(item) }
        let images = self.images[item.photo]
        var card = card(item, thumb: images?.thumb)
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

    /// Page `number` of the photos at `positions` (newest first) in rows that keep their shapes.
    func grid(_ positions: [Int], number: Int) -> [PhotoSection]? {
        slice(positions, number: number).map {
            [PhotoSection(title: nil, photos: $0.map { shapedCard(ordered[$0]) }, keepsShapes: true)].firstScreenEager()
        }
    }

    /// Page `number` of `photos` (newest first), in sections by when they were taken: hours ago
    /// for the last day, then by date. A section carried on from the page before says so.
    func timeline(_ positions: [Int], number: Int) -> [PhotoSection]? {
        guard let page = slice(positions, number: number) else { return nil }
        var sections: [PhotoSection] = []
        for item in page.map({ ordered[$0] }) {
            let title = PhotoText.whenSection(Self.when(item), now: now)
            if sections.last?.title == title {
                sections[sections.count - 1].photos.append(shapedCard(item))
            } else {
                sections.append(PhotoSection(title: title, photos: [shapedCard(item)], keepsShapes: true))
            }
        }
        if let first = page.first, page.startIndex > positions.startIndex, !sections.isEmpty,
           PhotoText.whenSection(Self.when(ordered[positions[page.startIndex - 1]]), now: now)
            == PhotoText.whenSection(Self.when(ordered[first]), now: now) {
            sections[0].continued = true
        }
        return sections.firstScreenEager()
    }
}

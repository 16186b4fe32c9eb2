import Foundation

/// A photo's published media as pages show them.
public struct PhotoImages: Sendable, Equatable {
    public var thumb: ImageRef?
    public var screen: ImageRef?
    public var zoom: TilePyramid?

    public init(thumb: ImageRef? = nil, screen: ImageRef? = nil, zoom: TilePyramid? = nil) {
        self.thumb = thumb
        self.screen = screen
        self.zoom = zoom
    }

    init(_ media: PhotoMedia) {
        var screen = ImageRef(media.screens)
        screen?.animation = media.animation
        self.init(thumb: ImageRef(media.thumbnails), screen: screen, zoom: media.tiles)
    }
}

/// Turns the model into the site's pages, as values. Knows nothing of templates or files.
public struct SiteBuilder: Sendable {
    public let snapshot: GallerySnapshot
    /// By photo id, made once from the media: a photo is shown on many pages.
    let images: [Int64: PhotoImages]
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

    public init(snapshot: GallerySnapshot, media: [Int64: PhotoMedia], settings: SiteSettings, now: Date,
                unlisted: UnlistedAlbum? = nil) {
        self.snapshot = snapshot
        self.images = media.mapValues(PhotoImages.init)
        self.settings = settings
        self.now = now
        self.address = SiteAddress(settings.baseURL)
        self.ordered = snapshot.photos.sorted(by: Self.newestFirst)
        var albumTree = AlbumTree(photos: snapshot.photos, settings: snapshot.albums)
        if let unlisted {
            albumTree.relocate { unlisted.contains($0.path) ? unlisted.href(of: $0) : $0.href }
        }
        self.albumTree = albumTree
        self.unlisted = unlisted
    }

    public func pages() -> [Page] {
        if let unlisted { return unlistedPages(unlisted) }
        var pages = [home(), recents(), search()]
        pages += albumPages()
        pages += placePages()
        pages += regionPages()
        pages += peoplePages()
        pages += favoritesPages()
        pages += photoPages()
        return pages.map(Self.withFirstScreenEager)
    }

    /// How many of a page's first photos load at once: a phone's first screen holds two to four,
    /// a desktop's one or two rows. The rest load as the visitor scrolls to them.
    static let eagerCount = 6

    /// `page` with its first photos loaded at once, the very first fetched first.
    static func withFirstScreenEager(_ page: Page) -> Page {
        guard var sections = page.photoSections else { return page }
        var left = eagerCount
        for s in sections.indices {
            for c in sections[s].photos.indices where left > 0 {
                sections[s].photos[c].eager = true
                sections[s].photos[c].leading = left == eagerCount
                left -= 1
            }
        }
        var page = page
        page.photoSections = sections
        return page
    }

    // MARK: - Shared pieces

    static func when(_ item: GalleryPhoto) -> Date { item.photo.taken ?? item.photo.uploaded }

    static func newestFirst(_ a: GalleryPhoto, _ b: GalleryPhoto) -> Bool {
        let (da, db) = (when(a), when(b))
        if da != db { return da > db }
        return a.photo.identifier < b.photo.identifier
    }

    static func byName(_ a: String, _ b: String) -> Bool {
        a.localizedCaseInsensitiveCompare(b) == .orderedAscending
    }

    func photoPath(_ item: GalleryPhoto) -> String {
        "\(unlisted?.folder ?? "photos/")\(item.photo.identifier).html"
    }

    func card(_ item: GalleryPhoto) -> PhotoCard {
        PhotoCard(href: photoPath(item), title: PhotoText.title(item.photo), subtitle: PhotoText.subtitle(item.photo).nilIfEmpty,
                  alt: PhotoText.alt(item), thumb: images[item.photo.id]?.thumb,
                  favorite: item.photo.favorite, identifier: item.photo.identifier)
    }

    /// The thumbnail of the newest of `photos`, to stand for a place, a region or a person.
    func cover(_ photos: [GalleryPhoto]) -> (ImageRef?, String) {
        guard let first = photos.min(by: Self.newestFirst) else { return (nil, "") }
        return (images[first.photo.id]?.thumb, PhotoText.alt(first))
    }

    /// A card showing the whole photo, for rows that keep each photo's shape.
    func shapedCard(_ item: GalleryPhoto) -> PhotoCard {
        var card = card(item)
        if let screen = images[item.photo.id]?.screen, screen.width > 0, screen.height > 0 {
            card.shape = screen
            card.shapeSizes = Self.shapeSizes(width: screen.width, height: screen.height)
        }
        return card
    }

    /// About how wide a photo is in rows of photos in their own shapes: rows about 220 px high on
    /// a phone, 260 px elsewhere (style.css's `.keeps-shapes`), never wider than a phone's screen.
    static func shapeSizes(width: Int, height: Int) -> String {
        let aspect = Double(width) / Double(height)
        return "(max-width: 560px) \(Int(min(400, (aspect * 220).rounded(.up))))px, \(Int((aspect * 260).rounded(.up)))px"
    }

    func grid(_ photos: [GalleryPhoto]) -> [PhotoSection] {
        [PhotoSection(title: nil, photos: photos.sorted(by: Self.newestFirst).map(shapedCard), keepsShapes: true)]
    }

    /// Newest first, in sections by when they were taken: hours ago for the last day, then by date.
    func timeline(_ photos: [GalleryPhoto]) -> [PhotoSection] {
        var sections: [PhotoSection] = []
        for item in photos.sorted(by: Self.newestFirst) {
            let title = PhotoText.whenSection(Self.when(item), now: now)
            if sections.last?.title == title {
                sections[sections.count - 1].photos.append(shapedCard(item))
            } else {
                sections.append(PhotoSection(title: title, photos: [shapedCard(item)], keepsShapes: true))
            }
        }
        return sections
    }

    var photosByPlace: [Int64: [GalleryPhoto]] {
        Dictionary(grouping: snapshot.photos.filter { $0.place != nil }, by: { $0.place!.id })
    }

    var places: [Place] {
        var seen: [Int64: Place] = [:]
        for item in snapshot.photos { if let place = item.place { seen[place.id] = place } }
        // Alphabetical by title, with titles that start with no letter last (the "#" section).
        return seen.values.sorted { a, b in
            let (otherA, otherB) = (Self.indexLetter(a.title) == "#", Self.indexLetter(b.title) == "#")
            if otherA != otherB { return otherB }
            return a.title == b.title ? Self.byName(a.subtitle, b.subtitle) : Self.byName(a.title, b.title)
        }
    }
}

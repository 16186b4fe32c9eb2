import FolioMedia
/// The values templates see. Plain data, already worded and linked, so templates stay logic-free.

public struct ImageRef: Sendable, Equatable, Encodable {
    /// Relative to the public root; templates prefix it with `root`.
    public var src: String
    public var width: Int
    public var height: Int
    /// The same picture at other widths, smallest first, for `srcset`; includes `src` itself.
    public var candidates: [ImageCandidate]
    /// The same widths in WebP or AVIF, for a `<picture>` source, when the site publishes
    /// them; `src` and `candidates` are then JPEG, for other browsers and for scripts.
    public var picture: PictureSource?
    /// The images are another site's (a Flickr photo's own sizes): `src` is an absolute URL.
    public var external: Bool
    /// An animated photo's animation, at its full size: what its page shows, `src` and
    /// `candidates` (stills) only to visitors who prefer reduced motion.
    public var animation: String?

    public init(src: String, width: Int, height: Int, candidates: [ImageCandidate]? = nil, picture: PictureSource? = nil,
                external: Bool = false) {
        self.src = src
        self.width = width
        self.height = height
        self.candidates = candidates ?? [ImageCandidate(src: src, width: width, last: true, external: external)]
        self.picture = picture
        self.external = external
    }
}

extension ImageRef {
    /// How a page shows a photo's renditions: every size a `srcset` candidate, smallest first;
    /// with WebP or AVIF files, the `<img>` is their JPEG twins and they are its `<picture>` source.
    init?(_ rendition: RenditionFiles) {
        guard let main = (rendition.twins ?? rendition.files).first else { return nil }
        let external = rendition.isExternal
        func candidates(_ files: [RenditionFiles.File]) -> [ImageCandidate] {
            files.reversed().enumerated().map { index, file in
                ImageCandidate(src: file.path, width: file.width, last: index == files.count - 1, external: external)
            }
        }
        self.init(src: main.path, width: main.width, height: main.height, candidates: candidates(rendition.twins ?? rendition.files),
                  external: external)
        if rendition.twins != nil {
            picture = PictureSource(type: rendition.format.mimeType, candidates: candidates(rendition.files))
        }
    }
}

/// The `<source>` of a `<picture>`: candidates in a format the `<img>` falls back from.
public struct PictureSource: Sendable, Equatable, Encodable {
    /// Its MIME type, e.g. "image/avif".
    public var type: String
    public var candidates: [ImageCandidate]

    public init(type: String, candidates: [ImageCandidate]) {
        self.type = type
        self.candidates = candidates
    }
}

/// One entry of a `srcset`. Mustache cannot join a list, so each says whether it is the last.
public struct ImageCandidate: Sendable, Equatable, Encodable {
    public var src: String
    public var width: Int
    public var last: Bool
    /// `src` is an absolute URL (see `ImageRef.external`).
    public var external: Bool = false
}

/// A photo in a grid.
public struct PhotoCard: Sendable, Encodable {
    public var href: String
    public var title: String
    /// Nil when there is nothing to add to the title.
    public var subtitle: String?
    public var alt: String
    public var thumb: ImageRef?
    public var favorite: Bool
    public var identifier: String
    /// The photo uncropped (its page's renditions), in grids that keep each photo's shape; nil in
    /// grids of square thumbnails.
    public var shape: ImageRef?
    /// The `sizes` of `shape`: about how wide a photo of its shape is in a row of such photos.
    public var shapeSizes: String?
    /// A video's duration ("0:07"), shown on its card; nil for a photo.
    public var duration: String?
    /// A Live Photo: its card says so.
    public var live = false
    /// On the page's first screen: loaded at once rather than lazily.
    public var eager = false
    /// The page's first photo: fetched first (`fetchpriority`), its paint timed (`elementtiming`).
    public var leading = false
}

/// A row of a list: a place, a region, a person.
public struct ListRow: Sendable, Encodable {
    public var href: String
    public var title: String
    public var subtitle: String?
    public var thumb: ImageRef?
    public var alt: String

    public init(href: String, title: String, subtitle: String?, thumb: ImageRef?, alt: String) {
        self.href = href
        self.title = title
        self.subtitle = subtitle?.isEmpty == true ? nil : subtitle
        self.thumb = thumb
        self.alt = alt
    }
}

public struct RowSection: Sendable, Encodable {
    public var id: String
    public var title: String
    public var rows: [ListRow]
}

public struct PhotoSection: Sendable, Encodable {
    /// Nil for a section with no heading.
    public var title: String?
    public var photos: [PhotoCard]
    /// Rows of photos in their own shapes (a place's, a person's, an album's photos), rather than
    /// square crops (overviews: the latest photos, recents).
    public var keepsShapes: Bool = false
    /// The section began on the page before (a listing cut into pages).
    public var continued: Bool = false
    /// Where its title leads (a place's favorites, from the Favorites page), and what it adds.
    public var href: String?
    public var subtitle: String?
    /// The way to the rest of its photos, when it shows only the first.
    public var more: Crumb?
}

/// A letter of the Places index's A–Z bar.
public struct IndexLetter: Sendable, Encodable {
    public var letter: String
    /// The id of its section on the page.
    public var id: String
    /// Where it leads: its section ("#letter-b"), or its own page in a long index; nil when no
    /// place files under it.
    public var href: String?
    public var present: Bool
    /// The letter whose page this is, in a long index.
    public var current: Bool
}

public struct NavItem: Sendable, Encodable {
    public var title: String
    public var href: String
    public var current: Bool
}

public struct Crumb: Sendable, Encodable {
    public var title: String
    public var href: String
}

/// One of the home page's ways in: a count and what it counts; or, for what only the visitor's
/// browser knows (their recents), no count but a note, and a name the theme's script finds it by.
public struct StatLink: Sendable, Encodable {
    public var label: String
    public var count: Int?
    /// `count` as the site's language writes numbers.
    public var countText: String?
    public var href: String
    public var name: String
    public var note: String?

    public init(label: String, count: Int?, countText: String? = nil, href: String, name: String, note: String? = nil) {
        self.label = label
        self.count = count
        self.countText = countText
        self.href = href
        self.name = name
        self.note = note
    }
}

public struct Fact: Sendable, Encodable {
    /// What the fact is, whatever the language calls it.
    public enum Kind: String, Sendable, Encodable {
        case photographer, album, place, region, taken, added, camera, lens, exposure, pictured, size, duration, live, original
        case licence, source

        var phrase: Phrase {
            switch self {
            case .photographer: return .factPhotographer
            case .album: return .factAlbum
            case .place: return .factPlace
            case .region: return .factRegion
            case .taken: return .factTaken
            case .added: return .factAdded
            case .camera: return .factCamera
            case .lens: return .factLens
            case .pictured: return .factPictured
            case .original: return .factOriginal
            case .exposure: return .factExposure
            case .size: return .factSize
            case .duration: return .factDuration
            case .live: return .factLive
            case .licence: return .factLicence
            case .source: return .factSource
            }
        }
    }

    public var kind: Kind
    public var label: String
    public var value: String
    public var href: String?
    /// `href` is another site's address, not a page of this one.
    public var external: Bool

    public init(kind: Kind, label: String, value: String, href: String? = nil, external: Bool = false) {
        self.kind = kind
        self.label = label
        self.value = value
        self.href = href
        self.external = external
    }
}

/// Everything a photo's own page shows.
public struct PhotoDetail: Sendable, Encodable {
    public var identifier: String
    public var title: String
    public var description: String?
    /// The description as HTML written by cmark from Markdown (raw HTML left out): templates
    /// show it unescaped, in place of `description`.
    public var descriptionHTML: String?
    public var alt: String
    public var image: ImageRef?
    public var thumb: ImageRef?
    /// The original's upright size: how far the viewer may zoom, and its shape before any image loads.
    public var originalWidth: Int
    public var originalHeight: Int
    /// The `sizes` of the shown image when it fills the screen (aspect-fill): the screen's width
    /// or the photo's width at the screen's height, whichever is wider.
    public var fillSizes: String
    /// Present when the original is larger than the screen rendition and tiles were made.
    public var zoom: TilePyramid?
    /// The zoom's tile grid as the viewer reads it (`TilePyramid.descriptor`), written once by
    /// the build.
    public var zoomDescriptor: String?
    public var facts: [Fact]
    public var tags: [String]
    public var favorite: Bool
    public var previous: Crumb?
    public var next: Crumb?
    /// The next photo's page renditions and their `sizes`, for the viewer to fetch ahead once this
    /// photo is shown.
    public var nextImage: ImageRef?
    public var nextSizes: String?
    /// A video's web video (its `image` the poster), played by the page's `<video>`.
    public var video: String?
    /// A Live Photo's clip as a web video: played over the still while the visitor presses or
    /// hovers it, or from its button.
    public var liveVideo: String?
    /// Where the photo is in the list previous and next walk through as written (its album).
    public var sequence: SequencePlace?
}

/// The switch on the Favorites page between "Only favorites" and "All places".
public struct FavoritesSwitch: Sendable, Encodable {
    public var onlyFavorites: Bool
    public var onlyHref: String
    public var allHref: String
}

import Foundation

/// What a photographer wrote about a photo in the file or beside it (IPTC, XMP): the words of
/// the photo rather than the camera's. Every field is optional; `filling(from:)` applies the
/// precedence between sources.
public struct PhotoDescription: Sendable, Equatable {
    public var title: String?
    public var headline: String?
    public var description: String?
    public var keywords: [String] = []
    public var creator: String?
    public var sublocation: String?
    public var city: String?
    public var state: String?
    public var country: String?
    /// XMP's 0 to 5 stars; -1 means rejected.
    public var rating: Int?
    /// The lens, as Lightroom (`aux:Lens`) or the EXIF-in-XMP schema (`exifEX:LensModel`) names it.
    public var lens: String?
    /// The colour label (`xmp:Label`: "Red", "Green", …) Lightroom, darktable and digiKam give.
    public var label: String?
    /// Who is in it: the names of the faces (and pets) of its MWG regions.
    public var people: [String] = []
    /// When it was taken (`exif:DateTimeOriginal`, else `photoshop:DateCreated`, else
    /// `xmp:CreateDate`), as the wall-clock time EXIF gives: its zone set aside.
    public var taken: Date?
    /// Where (`exif:GPSLatitude`, `exif:GPSLongitude`): both, or neither.
    public var latitude: Double?
    public var longitude: Double?
    /// How to turn the stored pixels (`tiff:Orientation`, as an EXIF orientation): a sidecar's is
    /// a photographer's turn in Lightroom or digiKam, which leave the file (a RAW) as it is.
    public var orientation: Int?

    public init(title: String? = nil, headline: String? = nil, description: String? = nil, keywords: [String] = [],
                creator: String? = nil, sublocation: String? = nil, city: String? = nil, state: String? = nil,
                country: String? = nil, rating: Int? = nil) {
        self.title = title
        self.headline = headline
        self.description = description
        self.keywords = keywords
        self.creator = creator
        self.sublocation = sublocation
        self.city = city
        self.state = state
        self.country = country
        self.rating = rating
    }

    public var isEmpty: Bool { self == PhotoDescription() }

    /// This description, with what it lacks taken from `lower` (a source it takes precedence
    /// over). The location is taken whole, never a city from one source and a country from another.
    public func filling(from lower: PhotoDescription) -> PhotoDescription {
        var merged = self
        merged.title = title ?? lower.title
        merged.headline = headline ?? lower.headline
        merged.description = description ?? lower.description
        merged.keywords = keywords.isEmpty ? lower.keywords : keywords
        merged.creator = creator ?? lower.creator
        if !hasLocation {
            (merged.sublocation, merged.city, merged.state, merged.country) = (lower.sublocation, lower.city, lower.state, lower.country)
        }
        merged.rating = rating ?? lower.rating
        merged.lens = lens ?? lower.lens
        merged.label = label ?? lower.label
        merged.people = people.isEmpty ? lower.people : people
        merged.taken = taken ?? lower.taken
        if latitude == nil { (merged.latitude, merged.longitude) = (lower.latitude, lower.longitude) }
        merged.orientation = orientation ?? lower.orientation
        return merged
    }

    var hasLocation: Bool { [sublocation, city, state, country].contains { $0 != nil } }

    /// The title a page shows: the title proper, else the headline.
    public var shownTitle: String? { title ?? headline }

    /// Whether `rule` makes the photo a favorite: its rating, or its label.
    public func isFavorite(by rule: FavoriteRule) -> Bool {
        if let rating, rule.rating > 0, rating >= rule.rating { return true }
        if let wanted = rule.label, let label, label.caseInsensitiveCompare(wanted) == .orderedSame { return true }
        return false
    }

    /// The place as Folio names places, from the town outwards: "Palo Alto, California, United
    /// States"; the sublocation (a landmark, a street) only when no town is given.
    public var place: String? {
        let parts = [city ?? sublocation, state, country].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// The region the place counts towards: the state or province, else the country.
    public var region: String? { place == nil ? nil : state ?? country ?? city ?? sublocation }
}

/// What in a photographer's tool makes a photo a favorite: a rating at or above `rating` stars
/// (0: none does), or the colour label `label` (the site's `favoriteRating` and `favoriteLabel`).
public struct FavoriteRule: Sendable, Equatable {
    public var rating: Int
    public var label: String?

    public init(rating: Int, label: String? = nil) {
        self.rating = rating
        self.label = label
    }

    /// What a photo's fingerprint keeps of the rule: the rating alone when there is no label, as
    /// models made before labels counted have it.
    public var fingerprintText: String { label.map { "\(rating) label \($0)" } ?? String(rating) }
}

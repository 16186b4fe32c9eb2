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
        return merged
    }

    var hasLocation: Bool { [sublocation, city, state, country].contains { $0 != nil } }

    /// The title a page shows: the title proper, else the headline.
    public var shownTitle: String? { title ?? headline }

    /// The place as Folio names places, from the town outwards: "Palo Alto, California, United
    /// States"; the sublocation (a landmark, a street) only when no town is given.
    public var place: String? {
        let parts = [city ?? sublocation, state, country].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// The region the place counts towards: the state or province, else the country.
    public var region: String? { place == nil ? nil : state ?? country ?? city ?? sublocation }
}

/// What a photo imported from elsewhere (Flickr) brings beside its text: where it lives, its
/// licence, its sized image URLs and the place id to learn its place from. Pages link to its
/// images; only its thumbnails (and a favorite's screen-sized image) are ever downloaded.
public struct RemotePhoto: Codable, Sendable, Equatable, Hashable {
    /// One of the sizes the service publishes (Flickr's `url_z`, `width_z`, `height_z`).
    public struct Size: Codable, Sendable, Equatable, Hashable {
        public var label: String
        public var url: String
        public var width: Int
        public var height: Int

        public init(label: String, url: String, width: Int, height: Int) {
            self.label = label
            self.url = url
            self.width = width
            self.height = height
        }
    }

    /// The photo's own page there, which its page here links to.
    public var pageURL: String {
        get { fields.value.pageURL }
        set { fields.value.pageURL = newValue }
    }
    /// The licence's id on the service (Flickr's `license`).
    public var license: String? {
        get { fields.value.license }
        set { fields.value.license = newValue }
    }
    /// Smallest first.
    public var sizes: [Size] {
        get { fields.value.sizes }
        set { fields.value.sizes = newValue }
    }
    /// The service's place id (Flickr's `place_id`), looked up once into a place and region.
    public var placeID: String? {
        get { fields.value.placeID }
        set { fields.value.placeID = newValue }
    }

    /// Held by reference: a photo holds a `RemotePhoto?` whether it came from elsewhere or not,
    /// and a reference is far smaller than the fields inline.
    private var fields: Boxed<Fields>

    /// What it holds, as stored (its JSON's keys are these names).
    private struct Fields: Codable, Sendable, Hashable {
        var pageURL: String
        var license: String?
        var sizes: [Size]
        var placeID: String?
    }

    public init(pageURL: String, license: String?, sizes: [Size], placeID: String?) {
        fields = Boxed(Fields(pageURL: pageURL, license: license, sizes: sizes, placeID: placeID))
    }

    public init(from decoder: any Decoder) throws {
        fields = Boxed(try Fields(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try fields.value.encode(to: encoder)
    }

    /// The smallest size at least `side` pixels on its shorter side, else the largest.
    public func size(coveringShorterSide side: Int) -> Size? {
        sizes.first { min($0.width, $0.height) >= side } ?? sizes.last
    }

    /// The largest size no larger than `side` on its longer side, else the smallest.
    public func size(fittingLongerSide side: Int) -> Size? {
        sizes.last { max($0.width, $0.height) <= side } ?? sizes.first
    }
}

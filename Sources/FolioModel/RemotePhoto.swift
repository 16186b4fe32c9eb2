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
    public var pageURL: String
    /// The licence's id on the service (Flickr's `license`).
    public var license: String?
    /// Smallest first.
    public var sizes: [Size]
    /// The service's place id (Flickr's `place_id`), looked up once into a place and region.
    public var placeID: String?

    public init(pageURL: String, license: String?, sizes: [Size], placeID: String?) {
        self.pageURL = pageURL
        self.license = license
        self.sizes = sizes
        self.placeID = placeID
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

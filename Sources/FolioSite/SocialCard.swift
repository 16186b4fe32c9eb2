/// How a page looks when it is shared: the Open Graph and Twitter card tags of its head. Absolute
/// addresses only: `url` and an image of the site's own exist only when `baseURL` is set (a Flickr
/// photo's image is absolute anyway), and a card without them is still a title and a description.
public struct SocialCard: Sendable, Encodable, Equatable {
    /// "article" for a photo, "website" for a page that lists photos (a place, a person, an album).
    public var type: String
    public var title: String
    public var description: String
    /// The page's own absolute address.
    public var url: String?
    public var image: String?
    public var imageAlt: String?
    public var imageWidth: Int?
    public var imageHeight: Int?
    /// "summary_large_image" with an image, else "summary".
    public var twitterCard: String

    public init(type: String, title: String, description: String, url: String?, image: ImageRef?, imageAlt: String?,
                address: SiteAddress?) {
        self.type = type
        self.title = title
        self.description = description
        self.url = url
        let absolute = image.flatMap { SiteAddress.image($0, in: address) }
        self.image = absolute
        self.imageAlt = absolute == nil ? nil : imageAlt
        self.imageWidth = absolute == nil ? nil : image?.width
        self.imageHeight = absolute == nil ? nil : image?.height
        twitterCard = absolute == nil ? "summary" : "summary_large_image"
    }
}

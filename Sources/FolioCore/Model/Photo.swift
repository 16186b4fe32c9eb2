import Foundation
import GRDB

/// One photo of the gallery, from `content/` or imported from elsewhere.
public struct Photo: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    /// The row's id: every value of this type was read from the model. Rows are written only
    /// by the import's statements, which leave the id to SQLite.
    public var id: Int64
    /// Stable across builds; names the photo's page.
    public var identifier: String
    public var source: PhotoSource
    public var title: String?
    public var description: String?
    /// The description as HTML, when it was written in Markdown; `description` is its text.
    public var descriptionHTML: String?
    public var personId: Int64
    public var placeId: Int64?
    public var taken: Date?
    public var uploaded: Date
    public var width: Int
    public var height: Int
    public var favorite: Bool
    public var catalogFavorite: Bool
    public var checksum: String
    public var fileStamp: String
    public var fingerprint: String
    public var format: String
    public var orientation: Int
    /// What its pixel values mean (Imaging's SourceColour): "srgb", "rgb-icc", "adobe-rgb"...
    public var colour = "srgb"
    /// Whether it has transparency its renditions must keep (Imaging's ImageMetadata.transparent).
    public var transparent = false
    /// Whether it moves (ImageMetadata.animated): its animation is published beside its stills.
    public var animated = false
    public var camera: String?
    public var exposure: String?
    public var latitude: Double?
    public var longitude: Double?
    /// Tags, one per line.
    public var tags: String
    /// Why the last build could not publish it (its file would not read or decode); nil when it
    /// was published. The row stays, with everything set on it, until its source is gone.
    public var lastError: String?
    /// What a photo from Flickr brings: its page, licence and sized image URLs.
    public var remote: RemotePhoto?
    /// Flickr's place id while the place it names is not known yet.
    public var flickrPlaceId: String?

    public static let databaseTableName = "photo"
    public static let person = belongsTo(Person.self)
    public static let place = belongsTo(Place.self)
    public static let thumbnails = hasMany(Thumbnail.self)
}

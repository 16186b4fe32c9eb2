import Foundation
import GRDB

/// One photo of the gallery, from `content/` or imported from elsewhere.
public struct Photo: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    /// The row's id: what the model and one build's work (renditions, pages) key a photo by.
    /// Every value of this type was read from the model: rows are written only by the import's
    /// upsert, which leaves the id to SQLite (`Photo(importing:)`).
    public var id: Int64
    /// Stable across builds; names the photo's page.
    public var identifier: String
    /// Where it comes from; what an import finds its row by.
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
    /// Of its bytes (a Flickr photo's: of its thumbnails' URL): what its renditions are named by.
    public var checksum: String
    public var fileStamp: String
    public var fingerprint: String
    /// Its file's format, as its bytes said (a remote photo's is JPEG).
    public var format: ImageFormat
    public var orientation: Int
    /// What its pixel values mean.
    public var colour: SourceColour
    /// Whether it has transparency its renditions must keep (Imaging's ImageMetadata.transparent).
    public var transparent: Bool
    /// Whether it moves (ImageMetadata.animated): its animation is published beside its stills.
    public var animated: Bool
    /// A video's or a Live Photo's motion; nil for a still.
    public var motion: PhotoMotion?
    public var camera: String?
    public var exposure: String?
    public var latitude: Double?
    public var longitude: Double?
    /// Stored as a JSON array (see the v11 migration).
    public var tags: [String]
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

extension Photo {
    /// The columns queries name, made from the coding keys (see `Region.Columns`).
    public enum Columns {
        public static let identifier = Column(CodingKeys.identifier)
        public static let taken = Column(CodingKeys.taken)
        public static let favorite = Column(CodingKeys.favorite)
    }
}

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

extension Photo {
    /// Reads a row column by column. The `Decodable` path GRDB offers costs about 9 µs a photo
    /// through the coding containers, and a build reads every photo of the library: at 100,000
    /// photos that was most of the plan step. The JSON columns are decoded only when they hold
    /// something. The coding keys name the columns, as they do when a photo is written.
    public init(row: Row) throws {
        func json<T: Decodable>(_ key: CodingKeys, _ type: T.Type) throws -> T? {
            guard let text = row[key.stringValue] as String? else { return nil }
            return try JSONDecoder().decode(T.self, from: Data(text.utf8))
        }
        let sourceText: String = row[CodingKeys.source.stringValue]
        guard let source = PhotoSource(text: sourceText) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [CodingKeys.source], debugDescription: "unknown photo source '\(sourceText)'"))
        }
        let tagsText: String = row[CodingKeys.tags.stringValue]
        id = row[CodingKeys.id.stringValue]
        identifier = row[CodingKeys.identifier.stringValue]
        self.source = source
        title = row[CodingKeys.title.stringValue]
        description = row[CodingKeys.description.stringValue]
        descriptionHTML = row[CodingKeys.descriptionHTML.stringValue]
        personId = row[CodingKeys.personId.stringValue]
        placeId = row[CodingKeys.placeId.stringValue]
        taken = row[CodingKeys.taken.stringValue]
        uploaded = row[CodingKeys.uploaded.stringValue]
        width = row[CodingKeys.width.stringValue]
        height = row[CodingKeys.height.stringValue]
        favorite = row[CodingKeys.favorite.stringValue]
        catalogFavorite = row[CodingKeys.catalogFavorite.stringValue]
        checksum = row[CodingKeys.checksum.stringValue]
        fileStamp = row[CodingKeys.fileStamp.stringValue]
        fingerprint = row[CodingKeys.fingerprint.stringValue]
        format = row[CodingKeys.format.stringValue]
        orientation = row[CodingKeys.orientation.stringValue]
        colour = row[CodingKeys.colour.stringValue]
        transparent = row[CodingKeys.transparent.stringValue]
        animated = row[CodingKeys.animated.stringValue]
        motion = try json(.motion, PhotoMotion.self)
        camera = row[CodingKeys.camera.stringValue]
        exposure = row[CodingKeys.exposure.stringValue]
        latitude = row[CodingKeys.latitude.stringValue]
        longitude = row[CodingKeys.longitude.stringValue]
        tags = tagsText == "[]" ? [] : try JSONDecoder().decode([String].self, from: Data(tagsText.utf8))
        lastError = row[CodingKeys.lastError.stringValue]
        remote = try json(.remote, RemotePhoto.self)
        flickrPlaceId = row[CodingKeys.flickrPlaceId.stringValue]
    }
}

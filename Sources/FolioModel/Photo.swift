import FolioCore
import FolioImaging
import Foundation
import GRDB

/// One photo of the gallery, from `content/` or imported from elsewhere: one row of the photo
/// table. Its stored properties are the table's columns (their names are the coding keys the
/// compiler writes), and everything made of a photo follows from them as its `Codable`
/// conformance has them: the row written and read, the snapshot's packed record and the digest
/// that is its hash, in code generated from the properties (`Photo+Row.generated.swift`,
/// `GalleryPhoto+Packing.generated.swift`, rewritten by `GeneratedCodeTests`). A new property is a
/// new column: add a migration for it (`GalleryDatabase+Schema.swift`), and give it a default here
/// if photos are made without it.
/// What the import keeps in the row to tell a changed photo by is not the photo's: see
/// `PhotoImport.fileStamp` and `KnownPhoto`.
public struct Photo: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    /// The row's id: what the model and one build's work (renditions, pages) key a photo by.
    /// `GalleryDatabase.unwrittenID` until the import writes the row, which leaves it to SQLite.
    public var id: Int64 = 0
    /// Stable across builds; names the photo's page.
    public var identifier: String
    /// Where it comes from; what an import finds its row by.
    public var source: PhotoSource
    public var title: String?
    public var description: String?
    /// The description as HTML, when it was written in Markdown; `description` is its text.
    public var descriptionHTML: String?
    public var personId: Int64 = 0
    public var placeId: Int64?
    public var taken: Date?
    public var uploaded: Date
    public var width = 0
    public var height = 0
    public var favorite = false
    /// What the source said of the favorite flag, which a favorite set from the command line
    /// overrides until the source changes its mind.
    public var catalogFavorite = false
    /// Of its bytes (a Flickr photo's: of its thumbnails' URL): what its renditions are named by.
    public var checksum: String
    /// Its file's format, as its bytes said (a remote photo's is JPEG).
    public var format = ImageFormat.jpeg
    /// Its EXIF orientation (1 to 8).
    public var orientation = 1
    /// What its pixel values mean.
    public var colour = SourceColour.sRGB
    /// Whether it has transparency its renditions must keep.
    public var transparent = false
    /// Whether it moves (an animated GIF or WebP): its animation is published beside its stills.
    public var animated = false
    /// A video's or a Live Photo's motion; nil for a still.
    public var motion: PhotoMotion?
    public var camera: String?
    public var exposure: String?
    /// The lens, as the camera (EXIF LensModel) or the photographer's tool (XMP) names it.
    public var lens: String?
    public var latitude: Double?
    public var longitude: Double?
    /// Stored as a JSON array.
    public var tags: [String] = []
    /// Who is in it, by name (Google Takeout's `people`), stored as a JSON array: not who took
    /// it, which is its person.
    public var pictured: [String] = []
    /// The albums, by folder, it is listed in besides its own folder's: a Google Takeout photo
    /// in several albums is one photo, its file in the first (stored as a JSON array).
    public var alsoListedIn: [String] = []
    /// Why the last build could not publish it (its file would not read or decode); nil when it
    /// was published. The row stays, with everything set on it, until its source is gone.
    public var lastError: String?
    /// What a photo from Flickr brings: its page, licence and sized image URLs.
    public var remote: RemotePhoto?
    /// Flickr's place id while the place it names is not known yet.
    public var flickrPlaceId: String?

    /// A photo with what every photo has; the rest is set property by property.
    public init(identifier: String, source: PhotoSource, uploaded: Date, checksum: String) {
        self.identifier = identifier
        self.source = source
        self.uploaded = uploaded
        self.checksum = checksum
    }

    public static let databaseTableName = "photo"
    public static let person = belongsTo(Person.self)
    public static let place = belongsTo(Place.self)
    public static let thumbnails = hasMany(Thumbnail.self)

    /// The columns queries name.
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let identifier = Column(CodingKeys.identifier)
        public static let taken = Column(CodingKeys.taken)
        public static let favorite = Column(CodingKeys.favorite)
    }

}

extension Photo {
    /// The photo's own text that visitors' search finds it by, field by field: `prose` is its
    /// own (a description), `named` a name many photos share (a tag, a lens). Its title, which
    /// the site gives an untitled photo, and the names of its person, place, region and albums
    /// are the site's to add. Every property is a case of the switch, so a new one does not
    /// compile until it says whether search finds a photo by it.
    public func searchedText(prose: (String) -> Void, named: (String) -> Void) {
        for field in Self.fields {
            switch field {
            case .description: description.map(prose)
            case .tags: tags.forEach(named)
            case .lens: lens.map(named)
            case .pictured: pictured.forEach(named)
            // Albums' titles are the site's to add, as its own folder's are.
            case .id, .identifier, .source, .title, .descriptionHTML, .personId, .placeId, .taken, .uploaded,
                 .width, .height, .favorite, .catalogFavorite, .checksum, .format, .orientation, .colour,
                 .transparent, .animated, .motion, .camera, .exposure, .latitude, .longitude, .lastError,
                 .remote, .flickrPlaceId, .alsoListedIn:
                break
            }
        }
    }

    /// Every property's coding key (the key is the property's name), in the order declared.
    private static let fields: [CodingKeys] = Mirror(reflecting: Photo(identifier: "", source: .content(path: ""), uploaded: .distantPast, checksum: ""))
        .children.compactMap { $0.label.flatMap(CodingKeys.init(stringValue:)) }
}

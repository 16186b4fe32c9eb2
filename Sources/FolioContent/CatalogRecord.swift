import FolioCore
import FolioModel
import Foundation

/// One entry of a `*.plist` catalog, checked and typed.
public struct CatalogRecord: Sendable, Hashable, Encodable {
    /// Where the record stands, for messages: "content/FakeData.plist, record 3".
    public var location: String
    /// The image, relative to `content/`.
    public var path: String
    public var name: String?
    public var user: String?
    public var description: String?
    public var place: String?
    public var region: String?
    public var latitude: Double?
    public var longitude: Double?
    public var taken: Date?
    public var uploaded: Date?
    public var favorite: Bool
    public var tags: [String]

    /// The keys a record may carry; anything else is reported and ignored.
    static let knownKeys: Set<String> = [
        "path", "name", "user", "description", "place", "region", "latitude", "longitude",
        "taken", "uploaded", "favorite", "tags",
    ]

    /// Every stored property, in the order `fingerprint` takes them: a test holds this list to
    /// the type's own (`Mirror`), so a property added to the record cannot be left out of it.
    static let fingerprintedProperties = [
        "location", "path", "name", "user", "description", "place", "region", "latitude", "longitude",
        "taken", "uploaded", "favorite", "tags",
    ]

    /// The record's values hashed, to tell an edited record from an unchanged one (not where it
    /// stands: records may move). Written property by property, the very stamp
    /// `ContentHash.hex(encoding:)` gives, which the models of earlier builds hold.
    var fingerprint: String { ContentHash.hexText(fingerprintValue) }

    /// The number `fingerprint` writes in hex.
    package var fingerprintValue: UInt64 {
        ValueDigest.made { values in
            values.keyed()
            values.field("location", "")
            values.field("path", path)
            values.field("name", name)
            values.field("user", user)
            values.field("description", description)
            values.field("place", place)
            values.field("region", region)
            values.field("latitude", latitude)
            values.field("longitude", longitude)
            values.field("taken", taken)
            values.field("uploaded", uploaded)
            values.field("favorite", favorite)
            values.field("tags", tags)
        }
    }
}

extension CatalogRecord {
    /// Where a record was read: its catalog (relative to `content/`), its place among the
    /// records read from it (`CatalogReader.Result.records`), and its fingerprint, which tells
    /// the record read again there from one edited since.
    public struct Place: Sendable, Equatable {
        public var catalog: String
        public var index: Int32
        public var fingerprint: UInt64
    }
}

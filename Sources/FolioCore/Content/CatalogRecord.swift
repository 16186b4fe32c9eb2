import Foundation

/// One entry of a `*.plist` catalog, checked and typed.
public struct CatalogRecord: Sendable, Equatable, Encodable {
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

    /// The record's values hashed, to tell an edited record from an unchanged one. Where it
    /// stands in its catalog is not one of them: records may move.
    var fingerprint: String {
        var values = self
        values.location = ""
        return ContentHash.hex(encoding: values)
    }
}

import Foundation

/// One entry of a `*.plist` catalog, checked and typed.
public struct CatalogRecord: Sendable, Equatable {
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

    /// A stable text of the record's values, to tell an edited record from an unchanged one.
    var fingerprintText: String {
        let parts: [String?] = [
            path, name, user, description, place, region, latitude.map { "\($0)" }, longitude.map { "\($0)" },
            taken.map { "\($0.timeIntervalSince1970)" }, uploaded.map { "\($0.timeIntervalSince1970)" },
            favorite ? "1" : "0", tags.joined(separator: "\u{1f}"),
        ]
        return parts.map { $0 ?? "\u{0}" }.joined(separator: "\u{1e}")
    }
}

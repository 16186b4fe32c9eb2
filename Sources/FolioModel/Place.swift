import GRDB

/// Where photos were taken, by its full name ("Palo Alto, California, United States").
public struct Place: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    public var id: Int64
    public var name: String
    /// The most detailed part of the name: "Palo Alto".
    public var title: String
    /// The rest: "California, United States".
    public var subtitle: String
    public var slug: String
    public var regionId: Int64
    /// Whether any photo here is a favorite; kept by the code that sets and clears favorites.
    public var hasFavorites: Bool

    public static let databaseTableName = "place"
    public static let region = belongsTo(Region.self)
    public static let photos = hasMany(Photo.self)
}

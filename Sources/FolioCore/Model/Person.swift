import GRDB

/// Someone who took photos.
public struct Person: Codable, Hashable, Sendable, FetchableRecord, MutablePersistableRecord {
    public var id: Int64?
    public var name: String
    public var slug: String

    public static let databaseTableName = "person"
    public static let photos = hasMany(Photo.self)

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

import GRDB

/// Someone who took photos.
public struct Person: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    public var id: Int64
    /// Who they are where their photos come from: "name:Josh" (a catalog or EXIF names them),
    /// "flickr:12037949754@N01" (a Flickr account).
    public var key: String
    public var name: String
    public var slug: String

    /// Who took a photo that names no one: a name only, which pages leave out rather than show.
    /// (A catalog's `user` "Unknown" says the same, and is the same person to the model.)
    public static let unknownName = "Unknown"

    /// No one named: the person the import gives a photo no one is named for. By key, so a Flickr
    /// account whose display name is "Unknown" is someone, with a page.
    public var isUnknown: Bool { key == PhotoImport.key(forName: Self.unknownName) }

    public static let databaseTableName = "person"
    public static let photos = hasMany(Photo.self)
}

import GRDB

/// Someone who took photos.
public struct Person: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    public var id: Int64
    /// Who they are where their photos come from: "name:Josh" (a catalog or EXIF names them),
    /// "flickr:12037949754@N01" (a Flickr account).
    public var key: String
    public var name: String
    public var slug: String

    /// What content says for no one: the import's name for a photo no one is named for, and a
    /// catalog's `user` "Unknown", which means the same. The model keeps no such word: no one is
    /// `nobodyKey`, with no name, and pages say what their language calls them.
    public static let unknownName = "Unknown"

    /// The key of no one named.
    public static let nobodyKey = "nobody"

    /// No one named: the person the import gives a photo no one is named for. By key, so a Flickr
    /// account whose display name is "Unknown" is someone, with a page.
    public var isUnknown: Bool { key == Self.nobodyKey }

    /// The name the model keeps for the person of `key`: none for no one.
    public static func storedName(_ name: String, key: String) -> String { key == nobodyKey ? "" : name }

    public static let databaseTableName = "person"
    public static let photos = hasMany(Photo.self)
}

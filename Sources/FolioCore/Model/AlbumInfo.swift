import GRDB

/// What a folder's `album.plist` says of the album the folder is: its title, description and
/// cover. Albums themselves are the folders photos are in; only these settings are stored.
public struct AlbumInfo: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    /// The folder, relative to content/: "travel/japan".
    public var path: String
    public var title: String?
    public var description: String?
    /// The description as HTML, when it was written in Markdown (a sigal `index.md`).
    public var descriptionHTML: String?
    /// The cover photo's file, relative to the folder.
    public var cover: String?

    public static let databaseTableName = "album"

    public init(path: String, title: String? = nil, description: String? = nil, cover: String? = nil, descriptionHTML: String? = nil) {
        self.path = path
        self.title = title
        self.description = description
        self.cover = cover
        self.descriptionHTML = descriptionHTML
    }
}

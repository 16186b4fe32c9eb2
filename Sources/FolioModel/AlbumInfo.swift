import GRDB

/// What a folder's `album.plist` says of the album the folder is: its title, description,
/// cover, and whether it is unlisted. Albums themselves are the folders photos are in; only
/// these settings are stored.
public struct AlbumInfo: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    /// The folder, relative to content/: "travel/japan".
    public var path: String
    public var title: String?
    public var description: String?
    /// The description as HTML, when it was written in Markdown (a sigal `index.md`).
    public var descriptionHTML: String?
    /// The cover photo's file, relative to the folder.
    public var cover: String?
    /// Published only at an address its link alone knows, in no listing, index, feed or count.
    public var unlisted: Bool
    /// Set for a password-protected album (which is unlisted too): where its password was read
    /// from, as it was then (`AlbumSettingsReader.passwordSource`), so the next build knows when it
    /// may have changed; `passwordMissing` when none could be had. Never the password nor anything
    /// computed from it, against which a guess would cost far less than against the published pages.
    public var passwordSource: String?
    /// False for a folder that is no album: its photos are in none, and the albums in it are its
    /// parent's (a Google Takeout export's `Photos from 2023` and `Takeout/Google Photos`).
    public var isAlbum = true

    public static let passwordMissing = "missing"

    public var isProtected: Bool { passwordSource != nil }

    public static let databaseTableName = "album"

    public init(path: String, title: String? = nil, description: String? = nil, cover: String? = nil, descriptionHTML: String? = nil,
                unlisted: Bool = false, passwordSource: String? = nil, isAlbum: Bool = true) {
        self.path = path
        self.title = title
        self.description = description
        self.cover = cover
        self.descriptionHTML = descriptionHTML
        self.unlisted = unlisted
        self.passwordSource = passwordSource
        self.isAlbum = isAlbum
    }
}

extension AlbumInfo {
    /// The columns queries name, made from the coding keys (see `Region.Columns`).
    public enum Columns {
        public static let path = Column(CodingKeys.path)
    }
}

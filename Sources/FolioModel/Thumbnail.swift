import Foundation
import GRDB

/// The encoded bytes of a small rendition, kept so a rebuild never decodes the photo again.
public struct Thumbnail: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    public var photoId: Int64
    public var spec: String
    public var checksum: String
    public var width: Int
    public var height: Int
    public var bytes: Data

    package init(photoId: Int64, spec: String, checksum: String, width: Int, height: Int, bytes: Data) {
        self.photoId = photoId
        self.spec = spec
        self.checksum = checksum
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    public static let databaseTableName = "thumbnail"
    public static let photo = belongsTo(Photo.self)
}

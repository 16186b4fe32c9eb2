import GRDB

/// What Flickr said of one of its place ids: the place's full name, most detailed part first
/// ("San Francisco, California, United States"), and its region. Looked up once, kept for good.
public struct FlickrPlace: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public var placeId: String
    public var name: String
    public var region: String

    public static let databaseTableName = "flickrPlace"

    public init(placeId: String, name: String, region: String) {
        self.placeId = placeId
        self.name = name
        self.region = region
    }
}

import GRDB

extension GalleryDatabase {
    /// What the model holds for these sources, by source: one statement per 500.
    public func stamps(for sources: [PhotoSource]) throws -> [PhotoSource: PhotoStamp] {
        try writer.read { db in
            var stamps: [PhotoSource: PhotoStamp] = [:]
            for chunk in sources.map(\.text).chunked(500) {
                for row in try Row.fetchAll(db, sql: """
                    SELECT source, \(PhotoStamp.columns) FROM photo WHERE source IN \(Self.placeholders(chunk.count))
                    """, arguments: StatementArguments(chunk)) {
                    guard let source = PhotoSource.fromDatabaseValue(row["source"]) else { continue }
                    stamps[source] = try PhotoStamp(row: row)
                }
            }
            return stamps
        }
    }

    /// The places already learned of these Flickr place ids.
    public func flickrPlaces(_ ids: some Collection<String>) throws -> [String: FlickrPlace] {
        try writer.read { db in
            var places: [String: FlickrPlace] = [:]
            for chunk in Array(Set(ids)).chunked(500) {
                for place in try FlickrPlace.fetchAll(db, keys: chunk) { places[place.placeId] = place }
            }
            return places
        }
    }

    /// Flickr place ids that photos wait on: their lookup failed, and a later import tries again.
    public func pendingFlickrPlaceIds() throws -> Set<String> {
        try writer.read { db in
            Set(try String.fetchAll(db, sql: "SELECT DISTINCT flickrPlaceId FROM photo WHERE flickrPlaceId IS NOT NULL"))
        }
    }
}

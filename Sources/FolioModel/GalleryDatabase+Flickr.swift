import GRDB

extension GalleryDatabase {
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

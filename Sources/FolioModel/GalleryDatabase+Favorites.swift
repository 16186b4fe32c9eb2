import GRDB

extension GalleryDatabase {
    /// Marks a photo as a favorite, or not, and keeps its place's has-favorites flag true to it.
    /// Returns false when no photo has that identifier.
    @discardableResult
    public func setFavorite(_ favorite: Bool, photo identifier: String) throws -> Bool {
        try writer.write { db in
            guard var photo = try Photo.filter(Photo.Columns.identifier == identifier).fetchOne(db) else { return false }
            photo.favorite = favorite
            try photo.update(db, columns: [Photo.Columns.favorite])
            try Self.bumpGeneration(db)
            if let placeId = photo.placeId {
                try Self.refreshFavorites(ofPlaces: [placeId], db)
            }
            return true
        }
    }
}

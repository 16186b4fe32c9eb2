import Foundation
import GRDB

/// A photo with the names of its person, place and region: one row of everything a page lists.
public struct GalleryPhoto: Sendable, Hashable, FetchableRecord {
    public var photo: Photo
    public var person: Person
    public var place: Place?
    public var region: Region?

    public init(row: Row) throws {
        photo = try Photo(row: row)
        person = row["person"]
        place = row["place"]
        region = row["region"]
    }
}

/// Everything a site build reads from the model, fetched in a few queries.
public struct GallerySnapshot: Sendable {
    public var photos: [GalleryPhoto]
    public var regions: [Region]
    public var topRegions: [Region]
    /// What `album.plist` files say, by folder.
    public var albums: [String: AlbumInfo] = [:]
    /// How many regions Top Regions shows.
    public var topRegionLimit = 50

    /// The gallery without the photos `excluded` (those one build could not publish): the
    /// regions they leave without a photo go, and the photographer counts of the regions they
    /// were in are counted again from the photos that stay, so no page promises a photo that
    /// is not there. The model itself keeps them.
    public func excluding(_ excluded: Set<Int64>) -> GallerySnapshot {
        let removed = photos.filter { excluded.contains($0.photo.id) }
        guard !removed.isEmpty else { return self }
        var copy = self
        copy.photos = photos.filter { !excluded.contains($0.photo.id) }
        let affected = Set(removed.compactMap { $0.region?.id })
        let photographers = Region.photographerCounts(copy.photos.compactMap { item in
            item.region.flatMap { affected.contains($0.id) ? (region: $0.id, person: item.photo.personId) : nil }
        })
        let lived = Set(copy.photos.compactMap { $0.region?.id })
        copy.regions = regions.compactMap { region in
            guard lived.contains(region.id) else { return nil }
            var region = region
            if affected.contains(region.id) { region.photographerCount = photographers[region.id] ?? 0 }
            return region
        }
        copy.topRegions = Array(copy.regions.filter { $0.photographerCount > 0 }.sorted(by: Region.morePopular).prefix(topRegionLimit))
        return copy
    }
}

extension GalleryDatabase {
    public func snapshot(topRegionLimit: Int = 50) throws -> GallerySnapshot {
        try writer.read { db in
            let request = Photo
                .including(required: Photo.person)
                .including(optional: Photo.place.including(optional: Place.region))
            let photos = try GalleryPhoto.fetchAll(db, request)
            let regions = try Region.order(Region.Columns.name).fetchAll(db)
            let top = try Region.mostPopular(limit: topRegionLimit).fetchAll(db)
            let albums = Dictionary(try AlbumInfo.fetchAll(db).map { ($0.path, $0) }, uniquingKeysWith: { $1 })
            return GallerySnapshot(photos: photos, regions: regions, topRegions: top, albums: albums, topRegionLimit: topRegionLimit)
        }
    }

    /// Counts, for summaries and tests.
    public func count(_ table: String) throws -> Int {
        try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
    }

    public func photo(identifier: String) throws -> Photo? {
        try writer.read { db in try Photo.filter(Photo.Columns.identifier == identifier).fetchOne(db) }
    }
}

extension GalleryDatabase {
    /// A number that changes whenever anything a page shows changes.
    public func generation() throws -> Int {
        try writer.read { db in try Int.fetchOne(db, sql: "SELECT generation FROM modelGeneration") ?? 0 }
    }

    static func bumpGeneration(_ db: Database) throws {
        try db.execute(sql: "UPDATE modelGeneration SET generation = generation + 1")
    }

    /// Whether a photo was taken in `range`: pages word such photos "hours ago".
    public func hasPhotosTaken(in range: ClosedRange<Date>) throws -> Bool {
        try writer.read { db in
            try Photo.filter(range.contains(Photo.Columns.taken)).isEmpty(db) == false
        }
    }
}

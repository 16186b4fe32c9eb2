import Foundation
import GRDB

/// A photo with the names of its person, place and region: one row of everything a page lists.
public struct GalleryPhoto: Sendable, Hashable {
    public var photo: Photo
    // Its person, place and region, each held once for all the photos that name it (`Shared`):
    // held in each photo, they were 190 of the 640 bytes each of a large library's photos took.
    private var sharedPerson: Shared<Person>
    private var sharedPlace: Shared<Place>?
    private var sharedRegion: Shared<Region>?

    public var person: Person {
        get { sharedPerson.value }
        set { sharedPerson = Shared(newValue) }
    }

    public var place: Place? {
        get { sharedPlace?.value }
        set { sharedPlace = newValue.map(Shared.init) }
    }

    public var region: Region? {
        get { sharedRegion?.value }
        set { sharedRegion = newValue.map(Shared.init) }
    }

    public init(photo: Photo, person: Person, place: Place?, region: Region?) {
        self.init(photo: photo, person: Shared(person), place: place.map(Shared.init), region: region.map(Shared.init))
    }

    init(photo: Photo, person: Shared<Person>, place: Shared<Place>?, region: Shared<Region>?) {
        self.photo = photo
        sharedPerson = person
        sharedPlace = place
        sharedRegion = region
    }

    public static func == (a: GalleryPhoto, b: GalleryPhoto) -> Bool {
        a.photo == b.photo && a.person == b.person && a.place == b.place && a.region == b.region
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(photo)
        hasher.combine(person)
        hasher.combine(place)
        hasher.combine(region)
    }
}

/// A value many others hold, kept once: a reference to it costs a pointer where the value
/// would cost its whole size in each of them.
final class Shared<Value: Sendable>: Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
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
            // Photos, people, places and regions each read once and put together here, not
            // joined in SQL: a person's, a place's and a region's names are then one string each
            // however many photos show them, not a copy per photo (100,000 photos in 1,000
            // places held 100,000 copies of every place's name).
            let regions = try Region.order(Region.Columns.name).fetchAll(db)
            let people = Dictionary(try Person.fetchAll(db).map { ($0.id, Shared($0)) }, uniquingKeysWith: { first, _ in first })
            let places = Dictionary(try Place.fetchAll(db).map { ($0.id, Shared($0)) }, uniquingKeysWith: { first, _ in first })
            let regionsById = Dictionary(regions.map { ($0.id, Shared($0)) }, uniquingKeysWith: { first, _ in first })
            // Read row by row into an array of the right size: a large library's photos are
            // the largest thing a build holds, and growing an array by doubling leaves up to
            // half of it unused.
            var photos: [GalleryPhoto] = []
            photos.reserveCapacity(try Photo.fetchCount(db))
            let rows = try Row.fetchCursor(db, Photo.all())
            var columns: Photo.ColumnIndexes?
            while let row = try rows.next() {
                if columns == nil { columns = try Photo.ColumnIndexes(row) }
                let photo = try Photo(row: row, columns: columns!)
                guard let person = people[photo.personId] else { continue }
                let place = photo.placeId.flatMap { places[$0] }
                photos.append(GalleryPhoto(photo: photo, person: person, place: place, region: place.flatMap { regionsById[$0.value.regionId] }))
            }
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

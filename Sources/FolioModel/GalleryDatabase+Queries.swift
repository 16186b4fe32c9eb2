import FolioCore
import Foundation
import GRDB

/// A value many others hold, kept once: a reference to it costs a pointer where the value
/// would cost its whole size in each of them.
final class Shared<Value: Sendable>: Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// A value held by reference inside another, which it would make larger inline (an optional
/// part most of a library's photos lack costs its whole size in each of them, nil or not). A
/// change makes a box of its own: the value's other copies keep what they hold.
package struct Boxed<Value: Sendable & Hashable>: Sendable, Hashable {
    private var box: Shared<Value>

    package init(_ value: Value) {
        box = Shared(value)
    }

    package var value: Value {
        get { box.value }
        set { box = Shared(newValue) }
    }

    package static func == (a: Boxed, b: Boxed) -> Bool { a.box === b.box || a.box.value == b.box.value }

    package func hash(into hasher: inout Hasher) { hasher.combine(box.value) }
}

/// Everything a site build reads from the model, fetched in a few queries.
public struct GallerySnapshot: Sendable {
    /// Held, or read where they lie past the number of photos the model's read was told
    /// (`GalleryDatabase.snapshot(kept:topRegionLimit:halves:heldUpTo:)`).
    public var photos: PhotoRows
    public var regions: [Region]
    public var topRegions: [Region]
    /// What `album.plist` files say, by folder.
    public var albums: [String: AlbumInfo] = [:]
    /// How many regions Top Regions shows.
    public var topRegionLimit = 50

    /// A gallery of nothing.
    public static let empty = GallerySnapshot(photos: PhotoRows(), regions: [], topRegions: [])

    /// The gallery without the photos `excluded` (those one build could not publish): the
    /// regions they leave without a photo go, and the photographer counts of the regions they
    /// were in are counted again from the photos that stay, so no page promises a photo that
    /// is not there. The model itself keeps them.
    public func excluding(_ excluded: Set<Int64>) -> GallerySnapshot {
        filter { !excluded.contains($0.id) }
    }

    /// The gallery of the photos `keep` takes, as `excluding` makes it: a new array of those
    /// alone, the whole never copied (an unlisted album's few photos out of a large library's).
    public func filter(_ keep: (GalleryPhoto) -> Bool) -> GallerySnapshot {
        guard let affected = regions(ofPhotosLeftOut: { !keep($0) }) else { return self }
        var copy = self
        copy.photos = PhotoRows(photos.filter(keep))
        copy.recount(affected)
        return copy
    }

    /// `excluding(_:)` in place: a snapshot held nowhere else loses its photos without a copy
    /// of the rest being made beside it.
    public mutating func remove(_ excluded: Set<Int64>) {
        guard !excluded.isEmpty, let affected = regions(ofPhotosLeftOut: { excluded.contains($0.id) }) else { return }
        photos.removeAll { excluded.contains($0.id) }
        recount(affected)
    }

    /// The regions of the photos `leftOut` takes, nil when it takes none.
    private func regions(ofPhotosLeftOut leftOut: (GalleryPhoto) -> Bool) -> Set<Int64>? {
        var any = false
        var regions = Set<Int64>()
        for item in photos where leftOut(item) {
            any = true
            if let region = item.regionId { regions.insert(region) }
        }
        return any ? regions : nil
    }

    /// The regions as the photos now are, after some went: those left without a photo gone,
    /// the photographers of the `affected` (those the photos that went were in) counted again.
    private mutating func recount(_ affected: Set<Int64>) {
        let photographers = Region.photographerCounts(photos.compactMap { item in
            item.region.flatMap { affected.contains($0.id) ? (region: $0.id, person: item.person.id) : nil }
        })
        let lived = Set(photos.compactMap { $0.region?.id })
        regions = regions.compactMap { region in
            guard lived.contains(region.id) else { return nil }
            var region = region
            if affected.contains(region.id) { region.photographerCount = photographers[region.id] ?? 0 }
            return region
        }
        topRegions = Array(regions.filter { $0.photographerCount > 0 }.sorted(by: Region.morePopular).prefix(topRegionLimit))
    }
}

extension GalleryDatabase {
    /// Everything pages show. From `halves` photos on, the photos' rows are read in two halves at
    /// once (`photos(_:count:names:beside:)`).
    public func snapshot(topRegionLimit: Int = 50, halves: Int = photosReadInHalves) throws -> GallerySnapshot {
        try snapshot(topRegionLimit: topRegionLimit, halves: halves, beside: reader)
    }

    /// The same, the later half read by the connection `beside` makes (nil: none, `db` reads all).
    package func snapshot(topRegionLimit: Int, halves: Int, beside: () throws -> DatabaseQueue?) throws -> GallerySnapshot {
        try writer.read { db in
            let names = try PhotoNames(db)
            let photos = try allPhotos(db, names: names, halves: halves, beside: beside)
            return try Self.snapshot(db, photos: photos, names: names, topRegionLimit: topRegionLimit)
        }
    }

    /// The snapshot of `photos`, with the rest of what pages show read in `db`.
    package static func snapshot(_ db: Database, photos: PhotoRows, names: PhotoNames, topRegionLimit: Int) throws -> GallerySnapshot {
        let top = try Region.mostPopular(db, limit: topRegionLimit)
        let albums = Dictionary(try AlbumInfo.fetchAll(db).map { ($0.path, $0) }, uniquingKeysWith: { $1 })
        return GallerySnapshot(photos: photos, regions: names.ordered, topRegions: top, albums: albums, topRegionLimit: topRegionLimit)
    }

    /// Every photo, from `halves` photos on in two halves at once (`photos(_:count:names:spillingInto:beside:)`).
    /// Past `heldUpTo` photos, they are read by `db` alone into rows spilling beside the model
    /// (`PhotoRows.Writer`), each row written as its photo is read: a large library's photos
    /// are never all held at once.
    func allPhotos(_ db: Database, names: PhotoNames, halves: Int, heldUpTo: Int = .max,
                   beside: () throws -> DatabaseQueue?) throws -> PhotoRows {
        let count = try Photo.fetchCount(db)
        if count > heldUpTo {
            var rows = PhotoRows.Writer(spillingInto: spillFolder, count: count)
            let store = PackedStore(spillingInto: spillFolder)
            try Self.read(db, Photo.all(), names: names, into: store) { rows.append($0) }
            store.seal()
            return rows.finish()
        }
        // A second connection that will not open (the file's folder unreadable for a moment)
        // leaves the whole to this one.
        return PhotoRows(try Self.photos(db, count: count, names: names, spillingInto: spillFolder,
                                         beside: count >= halves ? (try? beside()) ?? nil : nil))
    }

    /// Where a snapshot's packed photos go past a few megabytes: beside the model (nil in memory).
    var spillFolder: String? { path.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path } }

    /// From how many photos a snapshot reads the rows in two halves at once.
    public static let photosReadInHalves = 20_000

    /// The people, places and regions photos name, by id, each held once (`Shared`).
    package struct PhotoNames: Sendable {
        var people: [Int64: Shared<Person>]
        var places: [Int64: Shared<Place>]
        var regions: [Int64: Shared<Region>]
        /// The regions by name.
        var ordered: [Region]

        // Photos, people, places and regions each read once and put together here, not joined
        // in SQL: a person's, a place's and a region's names are then one string each however
        // many photos show them, not a copy per photo.
        init(_ db: Database) throws {
            ordered = try Region.order(Region.Columns.name).fetchAll(db)
            people = Dictionary(try Person.fetchAll(db).map { ($0.id, Shared($0)) }, uniquingKeysWith: { first, _ in first })
            places = Dictionary(try Place.fetchAll(db).map { ($0.id, Shared($0)) }, uniquingKeysWith: { first, _ in first })
            regions = Dictionary(ordered.map { ($0.id, Shared($0)) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Every photo with its names, in the order of their ids. With a second connection
    /// (`beside`), the later half of the rows is read by it on another core while `db` reads
    /// the first. Both halves are read into the one array the snapshot keeps, never a half apart
    /// and appended. The second connection's half is taken only when it saw the same model
    /// (its generation, and as many photos); else `db` reads that half itself.
    private static func photos(_ db: Database, count: Int, names: PhotoNames, spillingInto folder: String?,
                               beside reader: DatabaseQueue?) throws -> [GalleryPhoto] {
        guard let reader, let middle = try Int64.fetchOne(db, sql: "SELECT id FROM photo ORDER BY id LIMIT 1 OFFSET ?", arguments: [count / 2])
        else {
            // Read row by row into an array of the right size: a large library's photos are
            // the largest thing a build holds, and growing an array by doubling leaves up to
            // half of it unused.
            var photos: [GalleryPhoto] = []
            photos.reserveCapacity(count)
            let store = PackedStore(spillingInto: folder)
            try read(db, Photo.all(), names: names, into: store) { photos.append($0) }
            store.seal()
            return photos
        }
        let generation = try Int.fetchOne(db, sql: "SELECT generation FROM modelGeneration")
        let earlier = Photo.filter(Photo.Columns.id < middle).order(Photo.Columns.id)
        let later = Photo.filter(Photo.Columns.id >= middle).order(Photo.Columns.id)
        return try [GalleryPhoto](unsafeUninitializedCapacity: count) { buffer, initialized in
            // In this transaction the earlier rows are exactly count / 2, the later the rest.
            var first = Slots(start: buffer.baseAddress!, room: count / 2)
            let second = Slots(start: buffer.baseAddress! + count / 2, room: count - count / 2)
            let beside = Beside(second, store: PackedStore(spillingInto: folder))
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                beside.read(reader, later, names: names, generation: generation, count: count)
            }
            let store = PackedStore(spillingInto: folder)
            do {
                try read(db, earlier, names: names, into: store) { try first.append($0) }
                group.wait()
                if !beside.done {
                    beside.slots.clear()
                    try read(db, later, names: names, into: store) { try beside.slots.append($0) }
                }
                store.seal()
                beside.store.seal()
            } catch {
                group.wait()
                first.clear()
                beside.slots.clear()
                throw error
            }
            // Rows without their person are passed over: the later half closes the gap.
            if first.filled < first.room {
                (first.start + first.filled).moveInitialize(from: beside.slots.start, count: beside.slots.filled)
            }
            initialized = first.filled + beside.slots.filled
        }
    }

    /// Room for a run of photos in an array being made: filled from `start`, never past `room`.
    private struct Slots: @unchecked Sendable {
        struct Full: Error {}

        let start: UnsafeMutablePointer<GalleryPhoto>
        let room: Int
        private(set) var filled = 0

        init(start: UnsafeMutablePointer<GalleryPhoto>, room: Int) {
            self.start = start
            self.room = room
        }

        package mutating func append(_ photo: GalleryPhoto) throws {
            guard filled < room else { throw Full() }
            (start + filled).initialize(to: photo)
            filled += 1
        }

        mutating func clear() {
            start.deinitialize(count: filled)
            filled = 0
        }
    }

    /// The later half, read by the second connection on its thread; looked at once the group is
    /// waited for. `done` only when it read the same model as the first, all of it.
    private final class Beside: @unchecked Sendable {
        var slots: Slots
        /// Where its photos are packed (`GalleryPhoto`): a store of its own, written on its thread.
        let store: PackedStore
        var done = false

        init(_ slots: Slots, store: PackedStore) {
            self.slots = slots
            self.store = store
        }

        func read(_ reader: DatabaseQueue, _ request: QueryInterfaceRequest<Photo>, names: PhotoNames, generation: Int?, count: Int) {
            do {
                try reader.read { db in
                    guard try Int.fetchOne(db, sql: "SELECT generation FROM modelGeneration") == generation,
                          try Photo.fetchCount(db) == count else { return }
                    try GalleryDatabase.read(db, request, names: names, into: store) { try slots.append($0) }
                    done = true
                }
            } catch {
                done = false
            }
        }
    }

    /// Reads the rows `request` asks for, each photo packed into `store`.
    static func read(_ db: Database, _ request: QueryInterfaceRequest<Photo>, names: PhotoNames, into store: PackedStore,
                             each: (GalleryPhoto) throws -> Void) throws {
        // One string for each folder, however many photos it holds.
        var folders: [String: String] = [:]
        try RowReader.forEach(db, request, names: Photo.columnNames) { row in
            let photo = try Photo(row)
            guard let person = names.people[photo.personId] else { return }
            let place = photo.placeId.flatMap { names.places[$0] }
            let folder = photo.source.folder.map { folder in
                if let held = folders[folder] { return held }
                folders[folder] = folder
                return folder
            }
            try each(GalleryPhoto(photo: photo, person: person, place: place, region: place.flatMap { names.regions[$0.value.regionId] },
                                  store: store, folder: .some(folder)))
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

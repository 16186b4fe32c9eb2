import FolioCore
import Foundation
import GRDB

extension GalleryDatabase {
    /// What the model holds for these sources, by source: one statement per 500.
    public func knownPhotos(for sources: [PhotoSource]) throws -> [PhotoSource: KnownPhoto] {
        try writer.read { db in try Self.knownPhotos(for: sources, db) }
    }

    fileprivate static func knownPhotos(for sources: [PhotoSource], _ db: Database) throws -> [PhotoSource: KnownPhoto] {
        var known: [PhotoSource: KnownPhoto] = [:]
        for chunk in sources.map(\.text).chunked(500) {
            for row in try Row.fetchAll(db, sql: """
                SELECT source, \(KnownPhoto.columns) FROM photo WHERE source IN \(Self.placeholders(chunk.count))
                """, arguments: StatementArguments(chunk)) {
                guard let source = PhotoSource.fromDatabaseValue(row["source"]) else { continue }
                known[source] = try KnownPhoto(row: row)
            }
        }
        return known
    }

    /// What the model holds for every photo of one kind of source, by source.
    public func knownPhotos(of kind: PhotoSource.Kind) throws -> [PhotoSource: KnownPhoto] {
        try writer.read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT source, \(KnownPhoto.columns) FROM photo WHERE source LIKE ? ESCAPE '\\'
                """, arguments: [Self.likePrefix(kind.rawValue + ":")])
            var known: [PhotoSource: KnownPhoto] = [:]
            known.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM photo") ?? 0)
            while let row = try rows.next() {
                guard let source = PhotoSource.fromDatabaseValue(row[0]) else { continue }
                known[source] = KnownPhoto(row: row, from: 1)
            }
            return known
        }
    }

    /// What the import needs of every photo from content/ to tell the changed ones (`ContentMarks`);
    /// `knownPhotos(for:)` reads the changed ones' whole known.
    package func contentMarks() throws -> ContentMarks {
        try writer.read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT source, fileStamp, fingerprint FROM photo WHERE source LIKE ? ESCAPE '\\'
                """, arguments: [Self.likePrefix(PhotoSource.Kind.content.rawValue + ":")])
            var marks: [(key: UInt64, mark: PhotoMark)] = []
            marks.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM photo") ?? 0)
            let prefix = PhotoSource.Kind.content.rawValue.utf8.count + 1
            while let row = try rows.next() {
                // The path's hash from the column's bytes ("content:" left off): no string made.
                guard let key = try row.withUnsafeData(atIndex: 0, { data in
                    data.flatMap { $0.count > prefix ? $0.dropFirst(prefix).withUnsafeBytes(ContentMarks.key(of:)) : nil }
                }) else { continue }
                marks.append((key, PhotoMark(fileStamp: row[1], fingerprint: row[2])))
            }
            return ContentMarks(consume marks)
        }
    }

    /// Every source of one kind the model holds: for the import that finds photos gone.
    package func sources(of kind: PhotoSource.Kind) throws -> [PhotoSource] {
        try writer.read { db in try Self.sources(of: kind, db) }
    }

    static func sources(of kind: PhotoSource.Kind, _ db: Database) throws -> [PhotoSource] {
        try String.fetchAll(db, sql: "SELECT source FROM photo WHERE source LIKE ? ESCAPE '\\'",
                            arguments: [likePrefix(kind.rawValue + ":")]).compactMap(PhotoSource.init(text:))
    }

    /// Applies a batch in one transaction, with a handful of statements whatever its size:
    /// people, regions and places are upserted as sets, photos in multi-row upserts, and the
    /// derived values refreshed for just the places and regions the batch touched.
    public func apply(_ batch: ImportBatch) throws {
        guard !batch.isEmpty else { return }
        try apply(inParts: { parts in try parts.add(batch) })
    }

    /// What `apply(inParts:)` hands the import, inside its transaction: a part of the photos to
    /// add, and what the model holds of a part's photos before they are added.
    package struct ImportParts {
        fileprivate let db: Database
        fileprivate let addPart: (ImportBatch) throws -> Void

        package func add(_ batch: ImportBatch) throws {
            try addPart(batch)
        }

        /// `GalleryDatabase.knownPhotos(for:)`, read in the transaction the parts are added in.
        package func known(for sources: [PhotoSource]) throws -> [PhotoSource: KnownPhoto] {
            try GalleryDatabase.knownPhotos(for: sources, db)
        }

        /// `GalleryDatabase.sources(of:)`, with the parts added so far.
        package func sources(of kind: PhotoSource.Kind) throws -> [PhotoSource] {
            try GalleryDatabase.sources(of: kind, db)
        }

        /// `GalleryDatabase.thumbnailTally()`, with the parts added so far.
        package func thumbnailTally() throws -> String {
            try GalleryDatabase.thumbnailTally(db)
        }
    }

    /// Applies the batches `produce` hands to `parts.add`, as it makes them, all in one
    /// transaction: the model has all of them or, when `produce` or a batch throws, none. A cold
    /// import of a large library makes its photos a few thousand at a time, and an import of
    /// every photo changed reads what the model knows of them as many at a time: neither holds
    /// them all. The derived values are refreshed once, at the end, for every place and region
    /// the batches touched.
    package func apply(inParts produce: (_ parts: ImportParts) throws -> Void) throws {
        try writer.write { db in
            var touched = Touched()
            var applied = false
            try produce(ImportParts(db: db) { batch in
                guard !batch.isEmpty else { return }
                try Self.applyPart(batch, &touched, db)
                applied = true
            })
            guard applied else { return }
            try Self.removeOrphans(db)
            try Self.refreshFavorites(ofPlaces: touched.places, db)
            try Self.refreshPhotographerCounts(ofRegions: touched.regions, db)
            try Self.bumpGeneration(db)
        }
    }

    /// The places and regions batches touched: their derived values are refreshed after.
    private struct Touched {
        var places = Set<Int64>()
        var regions = Set<Int64>()
    }

    private static func applyPart(_ batch: ImportBatch, _ touched: inout Touched, _ db: Database) throws {
        // No control character is ever stored: SQLite would hand a name with a NUL back cut short.
        var batch = batch
        batch.upserts = batch.upserts.concurrentMap { $0.cleaned() }
        let touchedSources = (batch.upserts.map(\.source) + batch.removals).map(\.text)
        // The places the photos were in, before they change or go.
        let left = try Self.placeIds(ofSources: touchedSources, db)

        let personIds = try Self.upsertPeople(Dictionary(batch.upserts.map { ($0.personKey, $0.person) }, uniquingKeysWith: { $1 }), db)
        // Places by full name, with the region each photo (or Flickr) gives it. A library
        // names a few thousand places for a hundred thousand photos: each is split once.
        var placeNames: [String: PlaceName] = [:]
        var regionOfPlace: [String: String] = [:]
        for p in batch.upserts {
            guard let given = p.place else { continue }
            let place = placeNames[given] ?? PlaceName(given)
            placeNames[given] = place
            if regionOfPlace[place.full] == nil { regionOfPlace[place.full] = p.region ?? place.defaultRegion }
        }
        for place in batch.flickrPlaces where regionOfPlace[PlaceName(place.name).full] == nil {
            regionOfPlace[PlaceName(place.name).full] = place.region
        }
        let regionIds = try Self.upsertRegions(Set(regionOfPlace.values), db)
        touched.regions.formUnion(try Self.regionIds(ofPlaces: left, db))
        let placeIds = try Self.upsertPlaces(try regionOfPlace.mapValues { try Self.id(of: $0, in: regionIds, "region") }, db)

        try Self.upsertPhotos(batch.upserts, personIds: personIds, placeIds: placeNames.compactMapValues { placeIds[$0.full] }, db)
        for chunk in batch.removals.chunked(500) {
            try db.execute(sql: "DELETE FROM photo WHERE source IN \(Self.placeholders(chunk.count))",
                           arguments: StatementArguments(chunk.map(\.text)))
        }
        try Self.learnFlickrPlaces(batch.flickrPlaces, placeIds: placeIds, db)

        touched.places.formUnion(left)
        touched.places.formUnion(placeIds.values)
        touched.regions.formUnion(regionIds.values)
    }

    /// Records why photos could not be published in this build, and clears the mark of those
    /// that were (`published`, by id): one statement each way. Pages do not show it, so the
    /// generation stays.
    public func recordFailures(_ failures: [PhotoSource: String], published: [Int64]) throws {
        guard !failures.isEmpty || !published.isEmpty else { return }
        try writer.write { db in
            for (source, reason) in failures.sorted(by: { $0.key < $1.key }) {
                try db.execute(sql: "UPDATE photo SET lastError = ? WHERE source = ?", arguments: [reason, source.text])
            }
            for chunk in published.chunked(500) {
                try db.execute(sql: """
                    UPDATE photo SET lastError = NULL WHERE lastError IS NOT NULL AND id IN \(Self.placeholders(chunk.count))
                    """, arguments: StatementArguments(Array(chunk)))
            }
        }
    }

    /// The photos the last build could not publish, and why.
    public func failingPhotos() throws -> [(source: PhotoSource, reason: String)] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT source, lastError FROM photo WHERE lastError IS NOT NULL ORDER BY source")
                .compactMap { row in PhotoSource.fromDatabaseValue(row["source"]).map { ($0, row["lastError"]) } }
        }
    }

    // MARK: - Statements

    static func placeIds(ofSources sources: [String], _ db: Database) throws -> Set<Int64> {
        var ids = Set<Int64>()
        for chunk in sources.chunked(500) {
            ids.formUnion(try Int64.fetchAll(db, sql: """
                SELECT DISTINCT placeId FROM photo WHERE placeId IS NOT NULL AND source IN \(placeholders(chunk.count))
                """, arguments: StatementArguments(chunk)))
        }
        return ids
    }

    static func regionIds(ofPlaces places: Set<Int64>, _ db: Database) throws -> Set<Int64> {
        guard !places.isEmpty else { return [] }
        return Set(try Int64.fetchAll(db, sql: "SELECT DISTINCT regionId FROM place WHERE id IN \(placeholders(places.count))",
                                      arguments: StatementArguments(Array(places))))
    }

    /// Inserts the people the model lacks, renames those whose name changed (a Flickr user's
    /// display name), and returns every key's id.
    static func upsertPeople(_ names: [String: String], _ db: Database) throws -> [String: Int64] {
        guard !names.isEmpty else { return [:] }
        var known: [String: (id: Int64, name: String)] = [:]
        for chunk in Array(names.keys).chunked(500) {
            for row in try Row.fetchAll(db, sql: "SELECT id, key, name FROM person WHERE key IN \(placeholders(chunk.count))",
                                        arguments: StatementArguments(chunk)) {
                known[row["key"]] = (row["id"], row["name"])
            }
        }
        let names = Dictionary(uniqueKeysWithValues: names.map { ($0.key, Person.storedName($0.value, key: $0.key)) })
        for (key, name) in names.sorted(by: { $0.key < $1.key }) where known[key].map({ $0.name != name }) == true {
            try db.execute(sql: "UPDATE person SET name = ? WHERE key = ?", arguments: [name, key])
        }
        let missing = names.keys.filter { known[$0] == nil }.sorted()
        var ids = known.mapValues(\.id)
        guard !missing.isEmpty else { return ids }
        var slugs = Set(try String.fetchAll(db, sql: "SELECT slug FROM person"))
        let people = missing.map { key in
            let name = names[key] ?? key
            return Person(id: unwrittenID, key: key, name: name, slug: Slug.unique(name.isEmpty ? key : name, in: &slugs))
        }
        try insertRows(people, perStatement: 300, db)
        for chunk in missing.chunked(500) {
            for row in try Row.fetchAll(db, sql: "SELECT id, key FROM person WHERE key IN \(placeholders(chunk.count))",
                                        arguments: StatementArguments(chunk)) {
                ids[row["key"]] = row["id"]
            }
        }
        return ids
    }

    /// Inserts the regions the model lacks and returns every name's id. A new region's
    /// photographers are counted once its places and photos are in (`refreshPhotographerCounts`).
    static func upsertRegions(_ names: Set<String>, _ db: Database) throws -> [String: Int64] {
        guard !names.isEmpty else { return [:] }
        var ids = try fetchIds(table: Region.databaseTableName, names: Array(names), db)
        let missing = names.subtracting(ids.keys).sorted()
        if !missing.isEmpty {
            var slugs = Set(try String.fetchAll(db, sql: "SELECT slug FROM region"))
            let regions = missing.map { Region(id: unwrittenID, name: $0, slug: Slug.unique($0, in: &slugs), photographerCount: 0) }
            try insertRows(regions, perStatement: 400, db)
            ids.merge(try fetchIds(table: Region.databaseTableName, names: missing, db)) { $1 }
        }
        return ids
    }

    static func fetchIds(table: String, names: [String], _ db: Database) throws -> [String: Int64] {
        var ids: [String: Int64] = [:]
        for chunk in names.chunked(500) {
            for row in try Row.fetchAll(db, sql: "SELECT id, name FROM \(table) WHERE name IN \(placeholders(chunk.count))",
                                        arguments: StatementArguments(chunk)) {
                ids[row["name"]] = row["id"]
            }
        }
        return ids
    }

    /// Places by full name with their region; a place's region follows the newest import.
    static func upsertPlaces(_ regionByPlace: [String: Int64], _ db: Database) throws -> [String: Int64] {
        guard !regionByPlace.isEmpty else { return [:] }
        let names = regionByPlace.keys.sorted()
        let existing = try fetchIds(table: "place", names: names, db)
        var slugs = Set(try String.fetchAll(db, sql: "SELECT slug FROM place"))
        let places = try names.map { name in
            let split = PlaceName(name)
            // A known place keeps its slug (its page's address) and whether it holds favorites.
            let slug = existing[name] == nil ? Slug.unique(split.full, in: &slugs) : ""
            return Place(id: unwrittenID, name: name, title: split.title, subtitle: split.subtitle, slug: slug,
                         regionId: try id(of: name, in: regionByPlace, "place"), hasFavorites: false)
        }
        try insertRows(places, perStatement: 150, db, onConflict: "name", updates: { _ in [takingNew("regionId")] })
        return try fetchIds(table: "place", names: names, db)
    }

    /// Keeps what Flickr said of its place ids, and gives the photos that waited on one its
    /// place: two statements per 300 places.
    static func learnFlickrPlaces(_ places: [FlickrPlace], placeIds: [String: Int64], _ db: Database) throws {
        for chunk in places.chunked(300) {
            var cases = StatementArguments()
            for place in chunk {
                cases += [place.placeId, try id(of: PlaceName(place.name).full, in: placeIds, "place")]
            }
            try insertRows(Array(chunk), perStatement: 300, db, onConflict: "placeId",
                           updates: { $0.filter { $0 != "placeId" }.map(takingNew) })
            let whens = Array(repeating: "WHEN ? THEN ?", count: chunk.count).joined(separator: " ")
            try db.execute(sql: """
                UPDATE photo SET placeId = CASE flickrPlaceId \(whens) END, flickrPlaceId = NULL
                WHERE flickrPlaceId IN \(placeholders(chunk.count))
                """, arguments: cases + StatementArguments(chunk.map(\.placeId)))
        }
    }

    /// Photos are written as `Photo` encodes them (`PhotoImport.row`), so its coding keys are
    /// the columns. A photo already in the model keeps its identifier (its page's address) and
    /// takes everything else anew, except its favorite flag: a favorite set from the command line
    /// stays until the catalog itself changes its mind.
    /// `placeIds`: by the place as each photo names it.
    static func upsertPhotos(_ photos: [PhotoImport], personIds: [String: Int64], placeIds: [String: Int64], _ db: Database) throws {
        for photo in photos { _ = try id(of: photo.personKey, in: personIds, "person") }
        // Made as `insertRows` takes them, a block at a time: a large batch is never all rows at once.
        let rows = photos.lazy.map { photo in
            photo.row(personId: personIds[photo.personKey] ?? unwrittenID, placeId: photo.place.flatMap { placeIds[$0] })
        }
        try insertRows(rows, perStatement: 40, db, onConflict: "source") { columns in
            columns.filter { !["identifier", "source", "favorite"].contains($0) }.map(takingNew) + ["""
                favorite = CASE WHEN excluded.catalogFavorite = photo.catalogFavorite THEN photo.favorite
                                ELSE excluded.catalogFavorite END
                """]
        }
    }

    /// People, places and regions nobody refers to any more go with the last photo that did.
    static func removeOrphans(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM person WHERE NOT EXISTS (SELECT 1 FROM photo WHERE photo.personId = person.id);
            DELETE FROM place WHERE NOT EXISTS (SELECT 1 FROM photo WHERE photo.placeId = place.id);
            DELETE FROM region WHERE NOT EXISTS (SELECT 1 FROM place WHERE place.regionId = region.id);
            """)
    }

    static func refreshFavorites(ofPlaces places: Set<Int64>, _ db: Database) throws {
        for chunk in Array(places).chunked(500) {
            try db.execute(sql: """
                UPDATE place SET hasFavorites = EXISTS (SELECT 1 FROM photo WHERE photo.placeId = place.id AND photo.favorite)
                WHERE id IN \(placeholders(chunk.count))
                """, arguments: StatementArguments(chunk))
        }
    }

    /// Two statements per 500 regions: who took a photo in them, then their counts
    /// (`Region.photographerCounts`), so Top Regions never counts over all photos.
    static func refreshPhotographerCounts(ofRegions regions: Set<Int64>, _ db: Database) throws {
        for chunk in regions.sorted().chunked(500) {
            let taken = try Row.fetchAll(db, sql: """
                SELECT DISTINCT place.regionId, photo.personId FROM photo JOIN place ON place.id = photo.placeId
                WHERE place.regionId IN \(placeholders(chunk.count))
                """, arguments: StatementArguments(chunk)).map { (region: $0[0] as Int64, person: $0[1] as Int64) }
            let counts = Region.photographerCounts(taken)
            var cases = StatementArguments()
            for region in chunk { cases += [region, counts[region] ?? 0] }
            let whens = Array(repeating: "WHEN ? THEN ?", count: chunk.count).joined(separator: " ")
            try db.execute(sql: """
                UPDATE region SET photographerCount = CASE id \(whens) END WHERE id IN \(placeholders(chunk.count))
                """, arguments: cases + StatementArguments(chunk))
        }
    }

    /// The id stored for `name`; an error, never a crash, should a name not come back as it went in.
    static func id(of name: String, in ids: [String: Int64], _ kind: String) throws -> Int64 {
        guard let id = ids[name] else {
            throw FolioError(reason: "the model could not store the \(kind) '\(CleanText.line(name))'")
        }
        return id
    }

    // MARK: - SQL text

    static func placeholders(_ count: Int) -> String {
        "(" + Array(repeating: "?", count: count).joined(separator: ",") + ")"
    }

    static func rows(_ count: Int, columns: Int) -> String {
        Array(repeating: placeholders(columns), count: count).joined(separator: ",")
    }

    static func likePrefix(_ prefix: String) -> String {
        prefix.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
    }
}

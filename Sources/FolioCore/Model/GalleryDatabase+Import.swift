import Foundation
import GRDB

extension GalleryDatabase {
    /// What the model holds for every photo of one kind of source, by source.
    public func stamps(of kind: PhotoSource.Kind) throws -> [PhotoSource: PhotoStamp] {
        try writer.read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT source, identifier, checksum, fileStamp, fingerprint
                FROM photo WHERE source LIKE ? ESCAPE '\\'
                """, arguments: [Self.likePrefix(kind.rawValue + ":")])
            var stamps: [PhotoSource: PhotoStamp] = [:]
            // Columns by position: looking each up by name, for every photo, was most of this read.
            while let row = try rows.next() {
                guard let source = PhotoSource.fromDatabaseValue(row[0]) else { continue }
                stamps[source] = PhotoStamp(identifier: row[1], checksum: row[2], fileStamp: row[3], fingerprint: row[4])
            }
            return stamps
        }
    }

    /// Applies a batch in one transaction, with a handful of statements whatever its size:
    /// people, regions and places are upserted as sets, photos in multi-row upserts, and the
    /// derived values refreshed for just the places and regions the batch touched.
    public func apply(_ batch: ImportBatch) throws {
        guard !batch.isEmpty else { return }
        // No control character is ever stored: SQLite would hand a name with a NUL back cut short.
        var batch = batch
        batch.upserts = batch.upserts.map { $0.cleaned() }
        try writer.write { db in
            let touchedSources = (batch.upserts.map(\.source) + batch.removals).map(\.text)
            var touchedPlaces = try Self.placeIds(ofSources: touchedSources, db)

            let personIds = try Self.upsertPeople(Dictionary(batch.upserts.map { ($0.personKey, $0.person) }, uniquingKeysWith: { $1 }), db)
            // Places by full name, with the region each photo (or Flickr) gives it.
            var regionOfPlace: [String: String] = [:]
            for p in batch.upserts {
                guard let place = p.place.map(PlaceName.init) else { continue }
                if regionOfPlace[place.full] == nil { regionOfPlace[place.full] = p.region ?? place.defaultRegion }
            }
            for place in batch.flickrPlaces where regionOfPlace[PlaceName(place.name).full] == nil {
                regionOfPlace[PlaceName(place.name).full] = place.region
            }
            let regionIds = try Self.upsertNamed(table: "region", names: Set(regionOfPlace.values), db)
            var touchedRegions = try Self.regionIds(ofPlaces: touchedPlaces, db)
            let placeIds = try Self.upsertPlaces(try regionOfPlace.mapValues { try Self.id(of: $0, in: regionIds, "region") }, db)

            try Self.upsertPhotos(batch.upserts, personIds: personIds, placeIds: placeIds, db)
            for chunk in batch.removals.chunked(500) {
                try db.execute(sql: "DELETE FROM photo WHERE source IN \(Self.placeholders(chunk.count))",
                               arguments: StatementArguments(chunk.map(\.text)))
            }
            try Self.learnFlickrPlaces(batch.flickrPlaces, placeIds: placeIds, db)

            touchedPlaces.formUnion(placeIds.values)
            touchedRegions.formUnion(regionIds.values)
            try Self.removeOrphans(db)
            try Self.refreshFavorites(ofPlaces: touchedPlaces, db)
            try Self.refreshPhotographerCounts(ofRegions: touchedRegions, db)
            try Self.bumpGeneration(db)
        }
    }

    /// Records why photos could not be published in this build, and clears the mark of those
    /// that were: one statement each way. Pages do not show it, so the generation stays.
    public func recordFailures(_ failures: [PhotoSource: String], published: [PhotoSource]) throws {
        guard !failures.isEmpty || !published.isEmpty else { return }
        try writer.write { db in
            for (source, reason) in failures.sorted(by: { $0.key < $1.key }) {
                try db.execute(sql: "UPDATE photo SET lastError = ? WHERE source = ?", arguments: [reason, source.text])
            }
            for chunk in published.map(\.text).chunked(500) {
                try db.execute(sql: """
                    UPDATE photo SET lastError = NULL WHERE lastError IS NOT NULL AND source IN \(Self.placeholders(chunk.count))
                    """, arguments: StatementArguments(chunk))
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
        for (key, name) in names.sorted(by: { $0.key < $1.key }) where known[key].map({ $0.name != name }) == true {
            try db.execute(sql: "UPDATE person SET name = ? WHERE key = ?", arguments: [name, key])
        }
        let missing = names.keys.filter { known[$0] == nil }.sorted()
        var ids = known.mapValues(\.id)
        guard !missing.isEmpty else { return ids }
        var slugs = Set(try String.fetchAll(db, sql: "SELECT slug FROM person"))
        for chunk in missing.chunked(300) {
            var arguments = StatementArguments()
            for key in chunk {
                let name = names[key] ?? key
                arguments += [key, name, Slug.unique(name, in: &slugs)]
            }
            try db.execute(sql: "INSERT INTO person (key, name, slug) VALUES \(rows(chunk.count, columns: 3))", arguments: arguments)
        }
        for chunk in missing.chunked(500) {
            for row in try Row.fetchAll(db, sql: "SELECT id, key FROM person WHERE key IN \(placeholders(chunk.count))",
                                        arguments: StatementArguments(chunk)) {
                ids[row["key"]] = row["id"]
            }
        }
        return ids
    }

    /// Inserts the names a table lacks (region) and returns every name's id.
    static func upsertNamed(table: String, names: Set<String>, _ db: Database) throws -> [String: Int64] {
        guard !names.isEmpty else { return [:] }
        var ids = try fetchIds(table: table, names: Array(names), db)
        let missing = names.subtracting(ids.keys).sorted()
        if !missing.isEmpty {
            var slugs = Set(try String.fetchAll(db, sql: "SELECT slug FROM \(table)"))
            for chunk in missing.chunked(400) {
                var arguments = StatementArguments()
                for name in chunk { arguments += [name, Slug.unique(name, in: &slugs)] }
                try db.execute(sql: "INSERT INTO \(table) (name, slug) VALUES \(rows(chunk.count, columns: 2))", arguments: arguments)
            }
            ids.merge(try fetchIds(table: table, names: missing, db)) { $1 }
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
        for chunk in names.chunked(150) {
            var arguments = StatementArguments()
            for name in chunk {
                let split = PlaceName(name)
                let slug = existing[name] == nil ? Slug.unique(split.full, in: &slugs) : ""
                arguments += [name, split.title, split.subtitle, slug, try id(of: name, in: regionByPlace, "place")]
            }
            try db.execute(sql: """
                INSERT INTO place (name, title, subtitle, slug, regionId) VALUES \(rows(chunk.count, columns: 5))
                ON CONFLICT(name) DO UPDATE SET regionId = excluded.regionId
                """, arguments: arguments)
        }
        return try fetchIds(table: "place", names: names, db)
    }

    /// Keeps what Flickr said of its place ids, and gives the photos that waited on one its
    /// place: two statements per 300 places.
    static func learnFlickrPlaces(_ places: [FlickrPlace], placeIds: [String: Int64], _ db: Database) throws {
        for chunk in places.chunked(300) {
            var rows = StatementArguments()
            var cases = StatementArguments()
            for place in chunk {
                rows += [place.placeId, place.name, place.region]
                cases += [place.placeId, try id(of: PlaceName(place.name).full, in: placeIds, "place")]
            }
            try db.execute(sql: """
                INSERT INTO flickrPlace (placeId, name, region) VALUES \(Self.rows(chunk.count, columns: 3))
                ON CONFLICT(placeId) DO UPDATE SET name = excluded.name, region = excluded.region
                """, arguments: rows)
            let whens = Array(repeating: "WHEN ? THEN ?", count: chunk.count).joined(separator: " ")
            try db.execute(sql: """
                UPDATE photo SET placeId = CASE flickrPlaceId \(whens) END, flickrPlaceId = NULL
                WHERE flickrPlaceId IN \(placeholders(chunk.count))
                """, arguments: cases + StatementArguments(chunk.map(\.placeId)))
        }
    }

    static let photoColumns = [
        "identifier", "source", "title", "description", "personId", "placeId", "taken", "uploaded",
        "width", "height", "favorite", "catalogFavorite", "checksum", "fileStamp", "fingerprint",
        "format", "orientation", "camera", "exposure", "latitude", "longitude", "tags", "lastError",
        "remote", "flickrPlaceId", "colour", "descriptionHTML", "transparent", "animated",
    ]

    static func upsertPhotos(_ photos: [PhotoImport], personIds: [String: Int64], placeIds: [String: Int64], _ db: Database) throws {
        let updates = photoColumns
            .filter { !["identifier", "source", "favorite"].contains($0) }
            .map { "\($0) = excluded.\($0)" }
            .joined(separator: ", ")
        for chunk in photos.chunked(40) {
            var arguments = StatementArguments()
            for p in chunk {
                let place = p.place.flatMap { placeIds[PlaceName($0).full] }
                arguments += [
                    p.identifier, p.source.text, p.title, p.description, try id(of: p.personKey, in: personIds, "person"), place, p.taken, p.uploaded,
                    p.width, p.height, p.favorite, p.favorite, p.checksum, p.fileStamp, p.fingerprint,
                    p.format, p.orientation, p.camera, p.exposure, p.latitude, p.longitude,
                    p.tags.joined(separator: "\n"), nil,
                    try p.remote.map(Self.json), place == nil ? p.remote?.placeID : nil, p.colour, p.descriptionHTML,
                    p.transparent, p.animated,
                ]
            }
            try db.execute(sql: """
                INSERT INTO photo (\(photoColumns.joined(separator: ", "))) VALUES \(rows(chunk.count, columns: photoColumns.count))
                ON CONFLICT(source) DO UPDATE SET \(updates),
                  favorite = CASE WHEN excluded.catalogFavorite = photo.catalogFavorite THEN photo.favorite
                                  ELSE excluded.catalogFavorite END
                """, arguments: arguments)
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

    static func refreshPhotographerCounts(ofRegions regions: Set<Int64>, _ db: Database) throws {
        for chunk in Array(regions).chunked(500) {
            try db.execute(sql: """
                UPDATE region SET photographerCount = (
                  SELECT COUNT(DISTINCT photo.personId) FROM photo JOIN place ON place.id = photo.placeId
                  WHERE place.regionId = region.id)
                WHERE id IN \(placeholders(chunk.count))
                """, arguments: StatementArguments(chunk))
        }
    }

    static func json(_ remote: RemotePhoto) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(remote), as: UTF8.self)
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

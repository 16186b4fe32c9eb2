import GRDB

extension GalleryDatabase {
    /// The thumbnails the model keeps, in a few numbers: any kept or dropped changes them.
    package func thumbnailTally() throws -> String {
        try writer.read { db in try Self.thumbnailTally(db) }
    }

    static func thumbnailTally(_ db: Database) throws -> String {
        let row = try Row.fetchOne(db, sql: "SELECT count(*), total(photoId), max(rowid) FROM thumbnail")
        return "\(row?[0] as Int64? ?? 0) \(row?[1] as Double? ?? 0) \(row?[2] as Int64? ?? 0)"
    }

    /// Which stored thumbnails are still valid for their photo's current source, by photo id and
    /// spec: what a plan needs to know, without loading any bytes. Of all photos, or of `photos`
    /// alone (a build that looks at a few of a large library's).
    public func thumbnailKeys(specs: [String], of photos: [Int64]? = nil) throws -> StoredThumbnails {
        var stored = StoredThumbnails()
        guard !specs.isEmpty else { return stored }
        let sql = """
            SELECT thumbnail.photoId, thumbnail.spec FROM thumbnail JOIN photo ON photo.id = thumbnail.photoId
            WHERE thumbnail.checksum = photo.checksum AND thumbnail.spec IN \(Self.placeholders(specs.count))
            """
        try writer.read { db in
            try Self.each(sql, specs: specs, photos: photos, column: "thumbnail.photoId") { sql, arguments in
                let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
                while let row = try rows.next() { stored.insert(photoId: row[0], spec: row[1]) }
            }
        }
        stored.putInOrder()
        return stored
    }

    /// Runs `sql`, whose arguments are `specs`, once; or, given `photos`, once for each 500 of
    /// them, narrowed to those by `column`.
    private static func each(_ sql: String, specs: [String], photos: [Int64]?, column: String,
                             _ body: (String, StatementArguments) throws -> Void) rethrows {
        guard let photos else { return try body(sql, StatementArguments(specs)) }
        for chunk in photos.chunked(500) {
            try body(sql + " AND \(column) IN \(placeholders(chunk.count))", StatementArguments(specs) + StatementArguments(Array(chunk)))
        }
    }

    /// The stored thumbnails with these keys.
    public func thumbnails(_ keys: [ThumbnailKey]) throws -> [Thumbnail] {
        try writer.read { db in
            try keys.map { key in
                try Thumbnail.fetchOne(db, key: ["photoId": key.photoId, "spec": key.spec])
            }.compactMap { $0 }
        }
    }

    /// Stores new thumbnails and forgets those no current photo or spec can use.
    public func replaceThumbnails(_ thumbnails: [Thumbnail], keepingSpecs specs: [String]) throws {
        try store(thumbnails)
        try forgetThumbnails(keepingSpecs: specs)
    }

    /// Stores new thumbnails, one transaction for all of them: a build stores them a batch at a
    /// time as its images are made, so a large library's are never all held at once.
    package func store(_ thumbnails: [Thumbnail]) throws {
        guard !thumbnails.isEmpty else { return }
        try writer.write { db in
            try Self.insertRows(thumbnails, perStatement: 40, db, onConflict: "photoId, spec") { columns in
                columns.filter { $0 != "photoId" && $0 != "spec" }.map(Self.takingNew)
            }
            try Self.bumpGeneration(db)
        }
    }

    /// Forgets the thumbnails no current photo or spec can use.
    /// Of every photo, or of `photos` alone (a build that made the thumbnails of a few of a
    /// large library's, the specs as they were: a look at every thumbnail is a scan of them all).
    package func forgetThumbnails(keepingSpecs specs: [String], of photos: [Int64]? = nil) throws {
        let sql = """
            DELETE FROM thumbnail
            WHERE (spec NOT IN \(Self.placeholders(specs.count))
               OR checksum <> (SELECT checksum FROM photo WHERE photo.id = thumbnail.photoId))
            """
        try writer.write { db in
            try Self.each(sql, specs: specs, photos: photos, column: "photoId") { try db.execute(sql: $0, arguments: $1) }
        }
    }
}

public struct ThumbnailKey: Hashable, Sendable {
    public var photoId: Int64
    public var spec: String

    package init(photoId: Int64, spec: String) {
        self.photoId = photoId
        self.spec = spec
    }
}

/// Which photos have a thumbnail of each spec in the model: the photos' ids, sorted, by spec.
/// A build that looks at every photo asks this of each; a set of keys would hold a copy of the
/// spec's text for every photo.
public struct StoredThumbnails: Sendable {
    private var photos: [String: [Int64]] = [:]

    public var count: Int { photos.values.reduce(0) { $0 + $1.count } }

    mutating func insert(photoId: Int64, spec: String) {
        photos[spec, default: []].append(photoId)
    }

    /// Sorted, each id once, so `contains` can halve.
    mutating func putInOrder() {
        for spec in photos.keys {
            photos[spec]!.sort()
            var last: Int64?
            photos[spec]!.removeAll { id in
                defer { last = id }
                return id == last
            }
        }
    }

    public func contains(_ key: ThumbnailKey) -> Bool {
        photos[key.spec]?.sortedIndex(of: key.photoId) != nil
    }
}

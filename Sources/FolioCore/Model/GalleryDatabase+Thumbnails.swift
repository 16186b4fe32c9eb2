import GRDB

extension GalleryDatabase {
    /// The stored thumbnails still valid for their photo's current source, keyed by photo id and spec.
    public func thumbnails(specs: [String]) throws -> [ThumbnailKey: Thumbnail] {
        guard !specs.isEmpty else { return [:] }
        return try writer.read { db in
            let thumbnails = try Thumbnail.fetchAll(db, sql: """
                SELECT thumbnail.* FROM thumbnail JOIN photo ON photo.id = thumbnail.photoId
                WHERE thumbnail.checksum = photo.checksum AND thumbnail.spec IN \(Self.placeholders(specs.count))
                """, arguments: StatementArguments(specs))
            return Dictionary(thumbnails.map { (ThumbnailKey(photoId: $0.photoId, spec: $0.spec), $0) },
                              uniquingKeysWith: { first, _ in first })
        }
    }

    /// Stores new thumbnails and forgets those no current photo or spec can use.
    public func replaceThumbnails(_ thumbnails: [Thumbnail], keepingSpecs specs: [String]) throws {
        try writer.write { db in
            for thumbnail in thumbnails {
                try thumbnail.upsert(db)
            }
            if !thumbnails.isEmpty { try Self.bumpGeneration(db) }
            try db.execute(sql: """
                DELETE FROM thumbnail
                WHERE spec NOT IN \(Self.placeholders(specs.count))
                   OR checksum <> (SELECT checksum FROM photo WHERE photo.id = thumbnail.photoId)
                """, arguments: StatementArguments(specs))
        }
    }
}

public struct ThumbnailKey: Hashable, Sendable {
    public var photoId: Int64
    public var spec: String
}

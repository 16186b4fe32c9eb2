import Foundation
import GRDB

extension GalleryDatabase {
    /// Deletes the photos of `kind` uploaded before `cutoff`, favorites excepted, in one
    /// transaction; people, places and regions left without a photo go with them, and the
    /// counts of those that stay are refreshed. Returns the sources removed.
    @discardableResult
    public func prune(_ kind: PhotoSource.Kind, uploadedBefore cutoff: Date) throws -> [PhotoSource] {
        let sources = try writer.read { db in
            try String.fetchAll(db, sql: """
                SELECT source FROM photo WHERE source LIKE ? ESCAPE '\\' AND uploaded < ? AND NOT favorite ORDER BY source
                """, arguments: [Self.likePrefix(kind.rawValue + ":"), cutoff]).compactMap(PhotoSource.init(text:))
        }
        try apply(ImportBatch(removals: sources))
        return sources
    }

    /// The sources of every photo of `kind` that is a favorite.
    public func favorites(_ kind: PhotoSource.Kind) throws -> [PhotoSource] {
        try writer.read { db in
            try String.fetchAll(db, sql: "SELECT source FROM photo WHERE source LIKE ? ESCAPE '\\' AND favorite",
                                arguments: [Self.likePrefix(kind.rawValue + ":")]).compactMap(PhotoSource.init(text:))
        }
    }
}

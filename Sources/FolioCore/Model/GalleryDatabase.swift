import Foundation
import GRDB

/// The gallery's durable store: one SQLite file that lives with the site (never in `public/`).
///
/// Everything that writes goes through methods on this type, so that the derived values
/// (a region's photographer count, a place's has-favorites flag) are kept right by the
/// same transaction that changes what they are derived from.
public struct GalleryDatabase: Sendable {
    let writer: any DatabaseWriter

    /// Opens (creating if needed) the database at `url` and brings its schema up to date.
    public static func open(at url: URL) throws -> GalleryDatabase {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            return try GalleryDatabase(queue)
        } catch let error as DatabaseError {
            throw FolioError(path: url.path, reason: "cannot open the gallery database: \(error.message ?? "\(error)")")
        }
    }

    /// A private database in memory, for tests and throwaway builds.
    public static func inMemory() throws -> GalleryDatabase {
        try GalleryDatabase(DatabaseQueue(configuration: configuration))
    }

    init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    private static var configuration: Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(5)
        return config
    }

    /// The names of the migrations applied so far, oldest first.
    public func appliedMigrations() throws -> [String] {
        try writer.read { db in try Self.migrator.appliedMigrations(db) }
    }
}

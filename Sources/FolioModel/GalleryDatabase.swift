import FolioCore
import Foundation
import GRDB

/// The gallery's durable store: one SQLite file that lives with the site (never in `public/`).
///
/// Everything that writes goes through methods on this type, so that the derived values
/// (a region's photographer count, a place's has-favorites flag) are kept right by the
/// same transaction that changes what they are derived from.
public struct GalleryDatabase: Sendable {
    package let writer: any DatabaseWriter
    /// The file, for a second connection that reads beside the first (nil in memory).
    let path: String?

    /// Opens (creating if needed) the database at `url` and brings its schema up to date.
    public static func open(at url: URL) throws -> GalleryDatabase {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            return try GalleryDatabase(queue, path: url.path)
        } catch let error as DatabaseError {
            throw FolioError(path: url.path, reason: "cannot open the gallery database: \(error.message ?? "\(error)")")
        }
    }

    /// A private database in memory, for tests and throwaway builds.
    public static func inMemory() throws -> GalleryDatabase {
        try GalleryDatabase(DatabaseQueue(configuration: configuration))
    }

    init(_ writer: any DatabaseWriter, path: String? = nil) throws {
        self.writer = writer
        self.path = path
        try writer.read { db in try Self.checkIsFolioModel(db, path: path ?? ":memory:") }
        try Self.migrator.migrate(writer)
    }

    /// What `PRAGMA application_id` says of a Folio model: "FOLI".
    static let applicationID: Int32 = 0x464F_4C49

    /// Refuses, before writing anything, a file that is not a Folio model (another program's
    /// database) or is one from a newer Folio: its tables are not ours to change.
    static func checkIsFolioModel(_ db: Database, path: String) throws {
        let tables = try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name
            """)
        guard !tables.isEmpty else { return }  // a new file
        let known = Set(migrator.migrations)
        if tables.contains("grdb_migrations") {
            let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            if let first = migrator.migrations.first, applied.contains(first) {
                let unknown = applied.filter { !known.contains($0) }
                guard unknown.isEmpty else {
                    throw FolioError(path: path, reason: "made by a newer Folio (it has '\(unknown[0])'); this one leaves it as it is")
                }
                return
            }
        }
        let shown = tables.prefix(4).map { "'\($0)'" }.joined(separator: ", ") + (tables.count > 4 ? " and \(tables.count - 4) more" : "")
        throw FolioError(path: path, reason: "not a Folio model (it holds the tables \(shown)); Folio leaves it as it is")
    }

    private static var configuration: Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(5)
        return config
    }

    /// A connection of its own that only reads the file, for work beside this one's; nil in memory.
    func reader() throws -> DatabaseQueue? {
        guard let path else { return nil }
        var config = Self.configuration
        config.readonly = true
        return try DatabaseQueue(path: path, configuration: config)
    }

    /// What SQLite finds wrong with the file (`integrity_check`) and with its references
    /// (`foreign_key_check`); empty when the model is sound.
    public func integrityProblems() throws -> [String] {
        try writer.read { db in
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
            let references = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { "a broken reference in \($0[0] as String? ?? "?")" }
            return integrity + references
        }
    }

    /// The names of the migrations applied so far, oldest first.
    public func appliedMigrations() throws -> [String] {
        try writer.read { db in try Self.migrator.appliedMigrations(db) }
    }
}

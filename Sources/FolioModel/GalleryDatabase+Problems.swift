import FolioCore
import GRDB

extension GalleryDatabase {
    /// Replaces the problems of the photos read this build with what reading them `found` (a
    /// photo read without one is not in it), keeps those of the photos `keeping` says are still
    /// in content/ and were not read again, forgets the rest, and returns the problems kept (read
    /// by an earlier build, unchanged since): they are not fixed, only not read again.
    public func replacePhotoProblems(found: [PhotoSource: [BuildIssue]], keeping: (PhotoSource) -> Bool) throws -> [BuildIssue] {
        try writer.write { db in
            let stored = try StoredProblem.filter(StoredProblem.Columns.photoSource != nil).fetchAll(db)
            let kept = stored.filter { problem in
                guard let source = problem.photoSource.flatMap(PhotoSource.init(text:)) else { return false }
                return found[source] == nil && keeping(source)
            }
            let wanted = kept + found.sorted { $0.key < $1.key }.flatMap { source, issues in
                issues.map { StoredProblem($0, of: source) }
            }
            guard Set(stored) != Set(wanted) || stored.count != wanted.count else { return kept.map(\.issue) }
            try StoredProblem.filter(StoredProblem.Columns.photoSource != nil).deleteAll(db)
            for problem in wanted { try problem.insert(db) }
            return kept.map(\.issue)
        }
    }

    /// The photos the model keeps problems of: few, however large the library.
    package func sourcesWithProblems() throws -> Set<PhotoSource> {
        try writer.read { db in
            Set(try String.fetchAll(db, sql: "SELECT DISTINCT photoSource FROM \(StoredProblem.databaseTableName) WHERE photoSource IS NOT NULL")
                .compactMap(PhotoSource.init(text:)))
        }
    }

    /// Replaces the build's own problems (catalogs, folders, images) with this build's.
    public func replaceBuildProblems(_ issues: [BuildIssue]) throws {
        try writer.write { db in
            let stored = try StoredProblem.filter(StoredProblem.Columns.photoSource == nil).fetchAll(db)
            let wanted = issues.map { StoredProblem($0, of: nil) }
            guard stored != wanted else { return }
            try StoredProblem.filter(StoredProblem.Columns.photoSource == nil).deleteAll(db)
            for problem in wanted { try problem.insert(db) }
        }
    }

    /// Every problem the model keeps, as the last build left them: errors first, then by file.
    public func problems() throws -> [BuildIssue] {
        try writer.read { db in
            try StoredProblem.fetchAll(db).map(\.issue)
                .sorted { ($0.severity == .error ? 0 : 1, $0.path, $0.reason) < ($1.severity == .error ? 0 : 1, $1.path, $1.reason) }
        }
    }
}

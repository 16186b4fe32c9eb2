import FolioCore
import GRDB

/// A row of `problem`: a warning or error a build found, kept in the model so that later builds
/// (and `folio problems`) still name it until it is fixed.
public struct StoredProblem: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    /// The photo whose reading found it (`PhotoSource.text`); nil for the build's own problems.
    public var photoSource: String?
    public var severity: String
    public var path: String
    public var reason: String

    public static let databaseTableName = "problem"

    public init(_ issue: BuildIssue, of photo: PhotoSource?) {
        photoSource = photo?.text
        severity = issue.severity.rawValue
        path = issue.path
        reason = issue.reason
    }

    /// The issue as builds report it; a severity this Folio does not know reads as an error.
    public var issue: BuildIssue {
        BuildIssue(severity: BuildIssue.Severity(rawValue: severity) ?? .error, path: path, reason: reason)
    }
}

extension StoredProblem {
    /// The columns queries name, made from the coding keys (see `Region.Columns`).
    public enum Columns {
        public static let photoSource = Column(CodingKeys.photoSource)
    }
}

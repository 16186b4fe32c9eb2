/// Something wrong with one input, collected while the build goes on with the rest.
public struct BuildIssue: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable { case warning, error }

    public var severity: Severity
    /// The file concerned, relative to the site when it is inside it.
    public var path: String
    public var reason: String

    public static func error(_ path: String, _ reason: String) -> BuildIssue {
        BuildIssue(severity: .error, path: path, reason: reason)
    }

    public static func warning(_ path: String, _ reason: String) -> BuildIssue {
        BuildIssue(severity: .warning, path: path, reason: reason)
    }

    public var description: String { "\(severity.rawValue): \(path): \(reason)" }
}

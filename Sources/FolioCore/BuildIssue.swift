/// Something wrong with one input, collected while the build goes on with the rest.
public struct BuildIssue: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable { case warning, error }

    public var severity: Severity
    /// The file concerned, relative to the site when it is inside it.
    public var path: String
    public var reason: String

    public init(severity: Severity, path: String, reason: String) {
        self.severity = severity
        self.path = path
        self.reason = reason
    }

    public static func error(_ path: String, _ reason: String) -> BuildIssue {
        BuildIssue(severity: .error, path: path, reason: reason)
    }

    public static func warning(_ path: String, _ reason: String) -> BuildIssue {
        BuildIssue(severity: .warning, path: path, reason: reason)
    }

    /// One line, whatever the names in it hold: a file name may carry a newline (which would split
    /// the message a deploy log greps for), an escape sequence (which a terminal would obey) or a
    /// right-to-left override (which would show the name backwards); each is written as `\u{1B}`.
    public var description: String { CleanText.shown("\(severity.rawValue): \(path): \(reason)") }
}

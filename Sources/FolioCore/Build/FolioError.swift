/// A failure with the file it concerns and what is wrong, in words a user can act on.
public struct FolioError: Error, CustomStringConvertible, Sendable, Equatable {
    public var path: String?
    public var reason: String

    public init(path: String? = nil, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        path.map { "\($0): \(reason)" } ?? reason
    }
}

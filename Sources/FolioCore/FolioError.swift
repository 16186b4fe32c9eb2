/// A failure with the file it concerns and what is wrong, in words a user can act on; the
/// build's runner adds the step it happened in.
public struct FolioError: Error, CustomStringConvertible, Sendable, Equatable {
    public var path: String?
    public var reason: String
    /// The build step that failed, when it happened in a build.
    public var step: String?

    public init(path: String? = nil, reason: String, step: String? = nil) {
        self.path = path
        self.reason = reason
        self.step = step
    }

    public var description: String {
        let text = path.map { "\($0): \(reason)" } ?? reason
        return step.map { "\(text) (in step '\($0)')" } ?? text
    }
}

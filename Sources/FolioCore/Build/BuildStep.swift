/// One named stage of the build. Each takes the context and leaves it for the next.
public protocol BuildStep: Sendable {
    var name: String { get }
    func run(_ context: BuildContext) async throws
}

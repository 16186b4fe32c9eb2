import FolioCore
/// One named stage of the build: it takes what the stages before it made and returns what it
/// makes, so the data flow reads from the signatures.
protocol BuildStep: Sendable {
    associatedtype Input: Sendable
    associatedtype Output: StepOutput
    static var name: String { get }
    /// What the step does, as a message about a failing disk says it ("writing renditions").
    static var activity: String { get }
    func run(_ input: Input, in run: BuildRun) async throws -> Output
}

/// What a step returns: its own values, and the problems it found with single inputs (a bad
/// photo, a bad record), which the build reports while it goes on with the rest.
protocol StepOutput: Sendable {
    var issues: [BuildIssue] { get }
}

extension StepOutput {
    var issues: [BuildIssue] { [] }
}

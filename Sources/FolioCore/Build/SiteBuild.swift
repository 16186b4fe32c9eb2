import Foundation

/// A build of one site: the pipeline of named steps, run in order by one runner that logs
/// `[i/n] step` and tags any error with the step it came from.
public struct SiteBuild: Sendable {
    public let paths: SitePaths
    public let options: BuildOptions

    public static let steps: [any BuildStep] = [
        ConfigureStep(), LoadContentStep(), ImportStep(), PlanStep(), ImagesStep(), RenderStep(), SearchIndexStep(), WriteStep(),
    ]

    public init(paths: SitePaths, options: BuildOptions = BuildOptions()) {
        self.paths = paths
        self.options = options
    }

    /// Builds the site. Bad photos and records are in the report; a thrown error means no new
    /// site was put in place (the previous `public/` is as it was).
    @discardableResult
    public func run(log: (String) -> Void = { _ in }) async throws -> BuildReport {
        let context = BuildContext(paths: paths, options: options)
        let steps = Self.steps
        defer { context.output?.discard() }
        for (index, step) in steps.enumerated() {
            log("[\(index + 1)/\(steps.count)] \(step.name)")
            let started = Date()
            do {
                try await step.run(context)
            } catch let error as FolioError {
                throw FolioError(path: error.path, reason: "\(error.reason) (in step '\(step.name)')")
            } catch {
                throw FolioError(reason: "\(step.name): \(error)")
            }
            context.report.stepTimes.append((step.name, Date().timeIntervalSince(started)))
        }
        context.report.issues = context.issues
        context.report.upToDate = context.upToDate
        context.report.duration = Date().timeIntervalSince(context.startedAt)
        let imaging = context.clock.seconds
        context.report.imagingTimes = ImagingClock.Phase.allCases.map { ($0.rawValue, imaging[$0] ?? 0) }
        return context.report
    }
}

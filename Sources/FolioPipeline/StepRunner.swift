import CSystem
import FolioCore
import Foundation
import GRDB

/// Runs the build's steps in order: logs `[i/n] step`, times each, gathers the issues their
/// outputs carry, and tags an error with the step it came from.
struct StepRunner {
    let run: BuildRun
    let count: Int
    let log: (String) -> Void
    private(set) var index = 0
    private(set) var times: [(String, TimeInterval)] = []
    private(set) var issues: [BuildIssue] = []

    init(run: BuildRun, count: Int, log: @escaping (String) -> Void) {
        self.run = run
        self.count = count
        self.log = log
        // Arrays of a quarter megabyte and more (a step's lists by place or person, the search
        // postings, the manifest's entries) go back to the system when freed: in the heap, the
        // arrays a step freed stayed under those it kept, adding to the build's peak; mapped on
        // their own, the peak is the memory in use.
        folio_map_large_blocks(256 * 1024)
    }

    var hasErrors: Bool { issues.contains { $0.severity == .error } }

    mutating func step<Step: BuildStep>(_ step: Step, _ input: Step.Input) async throws -> Step.Output {
        index += 1
        log("[\(index)/\(count)] \(Step.name)")
        let started = Date()
        let output: Step.Output
        do {
            output = try await step.run(input, in: run)
        } catch var error as FolioError {
            error.step = error.step ?? Step.name
            throw error
        } catch let failure as DiskFailure {
            throw placed(failure, Step.self)
        } catch let error as DatabaseError {
            // SQLite's own words name the statement that failed, not the disk that did.
            guard let failure = DiskFailure(error, model: run.paths.database.path) else {
                throw FolioError(reason: "\(error)", step: Step.name)
            }
            throw placed(failure, Step.self)
        } catch {
            throw FolioError(reason: "\(error)", step: Step.name)
        }
        times.append((Step.name, Date().timeIntervalSince(started)))
        issues += output.issues
        // What the step freed goes back to the system: glibc keeps it for reuse otherwise, and
        // what one step held (the catalogs' records, the import's rows) stays in the process
        // through the steps after it, adding to the build's peak.
        folio_return_freed_memory()
        return output
    }

    /// A disk failure, said of the site's folder and of what `Step` was doing.
    private func placed<Step: BuildStep>(_ failure: DiskFailure, _: Step.Type) -> DiskFailure {
        var failure = failure
        failure.site = failure.site ?? run.paths.root.path
        failure.activity = failure.activity ?? Step.activity
        return failure
    }
}

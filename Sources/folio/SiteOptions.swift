import ArgumentParser
import FolioCore
import FolioPipeline
import Foundation

/// Where the site is: shared by every command that works on one.
struct SiteOptions: ParsableArguments {
    @Option(name: [.customShort("s"), .long], help: "The site's folder (the one holding content/).", completion: .directory)
    var site: String = "."

    var paths: SitePaths { SitePaths(root: URL(fileURLWithPath: site)) }
}

/// Prints a user-facing error and ends with a failure status.
func fail(_ error: Error) -> ExitCode {
    tell("error: \(error)")
    return ExitCode.failure
}

/// SOURCE_DATE_EPOCH from the environment, when set (reproducible-builds.org).
func sourceDateEpoch() throws -> Date? {
    do {
        return try BuildOptions.sourceDateEpoch(in: ProcessInfo.processInfo.environment)
    } catch let error as FolioError {
        throw ValidationError(error.reason)
    }
}

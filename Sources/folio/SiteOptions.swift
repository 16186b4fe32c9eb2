import ArgumentParser
import Foundation
import FolioCore

/// Where the site is: shared by every command that works on one.
struct SiteOptions: ParsableArguments {
    @Option(name: [.customShort("s"), .long], help: "The site's folder (the one holding content/).", completion: .directory)
    var site: String = "."

    var paths: SitePaths { SitePaths(root: URL(fileURLWithPath: site)) }
}

/// Prints a user-facing error and ends with a failure status.
func fail(_ error: Error) -> ExitCode {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    return ExitCode.failure
}

import FolioCore
import FolioImaging
import Foundation

/// One run of the build pipeline: what every step may consult. Nothing in it changes while the
/// run goes on; what a step finds out, it returns.
struct BuildRun: Sendable {
    let paths: SitePaths
    let options: BuildOptions
    let startedAt: Date
    /// Where image work spends its time, for the report.
    let clock: ImagingClock

    init(paths: SitePaths, options: BuildOptions, startedAt: Date = Date()) {
        self.paths = paths
        self.options = options
        self.startedAt = startedAt
        clock = ImagingClock()
    }

    /// The moment "hours ago" is measured from and builds are stamped with.
    var now: Date { options.now ?? options.sourceDateEpoch ?? startedAt }

    /// A file's modification time as the site may show it: never later than SOURCE_DATE_EPOCH,
    /// when it is set, as a checkout writes every file at the moment it is made.
    func fileTime(_ modified: Date) -> Date {
        options.sourceDateEpoch.map { min(modified, $0) } ?? modified
    }
    var files: any FileAccess { options.files }
    var disk: any Disk { options.disk }
    /// How many photos are worked on at once.
    var concurrency: Int { max(1, options.concurrency ?? ProcessInfo.processInfo.activeProcessorCount) }

    func progress(_ label: String, total: Int) -> ProgressLine {
        ProgressLine(label, total: total, enabled: options.progress)
    }
}

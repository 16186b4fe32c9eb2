import FolioContent
import FolioCore
import FolioModel
import FolioSite
import Foundation

/// What a build did, for the summary line and for tests.
public struct BuildReport: Sendable {
    /// Nothing changed since the last build: nothing was rendered or written.
    public var upToDate = false
    public var photos = 0
    public var pages = 0
    /// Pages whose keys were made: those a change since the last build could touch (every page
    /// when the photos' order, the albums or the drawing changed).
    public var pagesLookedAt = 0
    /// Pages drawn through the templates: those whose values or drawing changed.
    public var pagesRendered = 0
    public var pagesWritten = 0
    public var imported = 0
    public var removed = 0
    public var renditionsMade = 0
    public var renditionsReused = 0
    /// Photos whose media were looked for: those whose media may have changed since the last
    /// build (every photo when that is not known, `MediaLedger`).
    public var photosLookedAt = 0
    /// Renditions shards made, taken from the rendition cache.
    public var renditionsFromCache = 0
    /// Photos left out of the site because their file would not read or decode, as the model
    /// records them (and new files that never made it into the model).
    public var failedPhotos: [PhotoSource] = []
    public var issues: [BuildIssue] = []
    /// Files under content/ that are not photos Folio reads, companions of photos included.
    public var skipped: [SkippedFile] = []
    /// Files the owner left out (`.nomedia`, `exclude`).
    public var leftOut: [LeftOutFile] = []
    /// What a Google Takeout export left unpaired.
    public var takeoutGaps = TakeoutGaps()
    /// Unlisted albums published, each with its folder and its page: the owner's to share.
    public var unlisted: [(folder: String, link: String)] = []
    /// The password variables albums name that were not set.
    var unsetVariables: [String] = []
    public var duration: TimeInterval = 0
    public var stepTimes: [(String, TimeInterval)] = []
    /// CPU seconds in each phase of image work, summed over all cores.
    public var imagingTimes: [(String, TimeInterval)] = []

    /// Wall time of each step, then CPU time of each imaging phase, as `name=seconds` pairs.
    public var timings: String {
        let steps = stepTimes.map { "\($0.0.replacingOccurrences(of: " ", with: "-"))=\(String(format: "%.3f", $0.1))" }
        let imaging = imagingTimes.map { "cpu-\($0.0)=\(String(format: "%.3f", $0.1))" }
        return (steps + imaging).joined(separator: " ")
    }

    public var errors: [BuildIssue] { issues.filter { $0.severity == .error } }
    public var warnings: [BuildIssue] { issues.filter { $0.severity == .warning } }
    public var succeeded: Bool { errors.isEmpty }

    /// Whether a build with `issues` has nothing to say beyond its summary: no issue, no file
    /// skipped or left out. What a build that is not says, the next says again until it is
    /// fixed (`StandingReport`).
    func isQuiet(_ issues: [BuildIssue]) -> Bool {
        issues.isEmpty && skipped.isEmpty && leftOut.isEmpty && takeoutGaps.isEmpty
    }

    /// The lines that follow the summary: what was skipped ("skipped 3 files: 2 .mov (video),
    /// 1 .cr2 (RAW)"), and the companions beside their photos.
    public var skippedLines: [String] {
        [SkippedFile.skippedLine(skipped), SkippedFile.companionLine(skipped), LeftOutFile.line(leftOut)].compactMap { $0 }
            + takeoutGaps.lines + unlisted.map { "unlisted album content/\($0.folder): public/\($0.link)" }
    }

    /// What a site put in place with errors is, in a few words: "built, 1 photo skipped",
    /// "built, 2 photos skipped, 1 other problem" (a catalog record, a folder).
    public var problemHeadline: String {
        let others = max(0, errors.count - failedPhotos.count)
        let parts = [failedPhotos.isEmpty ? nil : "\(Wording.count(failedPhotos.count, "photo")) skipped",
                     others == 0 ? nil : Wording.count(others, failedPhotos.isEmpty ? "problem" : "other problem")]
        return (["built"] + parts.compactMap { $0 }).joined(separator: ", ")
    }

    public var summary: String {
        var line = "\(Wording.count(photos, "photo")), \(Wording.count(pages, "page"))"
        if upToDate {
            line += " (up to date)"
        } else {
            line += " (\(imported) imported, \(removed) removed, \(renditionsMade) renditions made, \(renditionsReused) reused,"
            line += " \(Wording.count(photosLookedAt, "photo")) looked at,"
            line += " \(pagesLookedAt) pages looked at, \(pagesRendered) rendered, \(pagesWritten) written)"
        }
        if !failedPhotos.isEmpty { line += ", \(Wording.count(failedPhotos.count, "photo")) failed" }
        if !errors.isEmpty { line += ", \(Wording.count(errors.count, "error"))" }
        if !warnings.isEmpty { line += ", \(Wording.count(warnings.count, "warning"))" }
        line += String(format: " in %.2f s", duration)
        return line
    }
}

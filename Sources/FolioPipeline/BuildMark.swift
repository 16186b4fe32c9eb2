import FolioContent
import FolioCore
import FolioModel
import FolioSite
import Foundation

/// What a finished build leaves in the site's build state (see BuildState): the fingerprint of
/// everything its pages were made from, so the next build can tell in a few reads that nothing
/// changed, and what it had to say, to say again.
struct BuildMark: Codable, Equatable {
    /// Where an older Folio kept it: in `public/` itself.
    static let legacyFileName = ".folio-build"

    var fingerprint: String
    var builtAt: Date
    /// What that build published, for the summary of a build that finds nothing to do.
    var photos: Int
    var pages: Int
    /// content/ as that build's walk found it (`ContentWalk.digest`): the next build whose walk
    /// finds the same stops there, reading no catalog and looking up no photo, and says again
    /// what this one said (`standing`).
    var content: UInt64?
    /// What that build said beyond its summary; nil when it had nothing to say.
    var standing: StandingReport?

    static func fingerprint(generation: Int, theme: Theme, settings: SiteSettings, folio: String) -> String {
        ContentHash.hex("\(generation)|\(drawing(theme: theme, settings: settings, folio: folio))")
    }

    /// The fingerprint of `site` as its model is now. A secret given from outside the model is
    /// part of it (what a secret would leave unchanged has the same one): another secret, or
    /// none, is another site's unlisted addresses.
    static func fingerprint(of site: ConfiguredSite) throws -> String {
        let made = fingerprint(generation: try site.database.generation(), theme: site.theme, settings: site.settings, folio: site.folio)
        guard let secret = site.outsideSecret else { return made }
        return ContentHash.hex("\(made)|\(secret.markText)")
    }

    /// How a page's values become HTML: this Folio (`folio`, its build identity: see
    /// FolioIdentity), the theme and the settings. Another Folio draws every page again, and
    /// writes those that come out different.
    static func drawing(theme: Theme, settings: SiteSettings, folio: String) -> String {
        ContentHash.hex("\(folio)|\(theme.fingerprint)|\(ContentHash.hex(encoding: settings))")
    }

    /// The mark, decided before content/ is read, when its walk finds it as the mark says: the
    /// same files give the same site and the same problems, errors included, unless what that
    /// build said came from elsewhere too (see `StandingReport.followsFromContent`).
    static func upToDate(_ site: ConfiguredSite, now: Date, content: UInt64?, environment: [String: String]) throws -> BuildMark? {
        guard let content, let mark = try unchanged(site, now: now), mark.content == content,
              mark.standing?.followsFromContent(environment) ?? true
        else { return nil }
        return mark
    }

    /// The mark, decided after the import, when the model is as the mark says and that build
    /// had no error: after an error the photos that failed are tried again.
    static func upToDate(_ site: ConfiguredSite, now: Date) throws -> BuildMark? {
        guard let mark = try unchanged(site, now: now), mark.standing?.hasErrors != true else { return nil }
        return mark
    }

    /// The mark of the published site when it was made from exactly this model, theme and
    /// settings, and no photo is recent enough for its "hours ago" to have moved on since: then
    /// there is nothing to do.
    private static func unchanged(_ site: ConfiguredSite, now: Date) throws -> BuildMark? {
        let fingerprint = try fingerprint(of: site)
        guard let mark = site.state.mark(), mark.fingerprint == fingerprint, mark.builtAt <= now,
              try !site.database.hasPhotosTaken(in: mark.builtAt.addingTimeInterval(-24 * 3600)...now)
        else { return nil }
        return mark
    }
}

/// What a build said beyond its summary: its problems, the photos that failed, the files it
/// skipped or left out, its unlisted albums. Kept with its mark, so a build that finds
/// content/ as it was says them again without reading or rendering anything.
struct StandingReport: Codable, Equatable {
    var issues: [BuildIssue]
    var failedPhotos: [PhotoSource]
    var skipped: [SkippedFile]
    var leftOut: [LeftOutFile]
    var takeoutGaps: TakeoutGaps
    var unlisted: [Unlisted]
    /// The password variables albums named that were not set (each an error): names only.
    var unsetVariables: [String]

    struct Unlisted: Codable, Equatable {
        var folder: String
        var link: String
    }

    /// What `report` and `issues` say beyond the summary; nil when they say nothing more.
    init?(_ report: BuildReport, issues: [BuildIssue]) {
        guard !(report.isQuiet(issues) && report.failedPhotos.isEmpty && report.unlisted.isEmpty) else { return nil }
        self.issues = issues
        failedPhotos = report.failedPhotos
        skipped = report.skipped
        leftOut = report.leftOut
        takeoutGaps = report.takeoutGaps
        unlisted = report.unlisted.map { Unlisted(folder: $0.folder, link: $0.link) }
        unsetVariables = report.unsetVariables
    }

    var hasErrors: Bool { issues.contains { $0.severity == .error } || !failedPhotos.isEmpty }

    /// Whether the same files under content/ would say it again: not once a password variable
    /// that was not set is set, nor when a photo from Flickr failed (its image may download next
    /// time).
    func followsFromContent(_ environment: [String: String]) -> Bool {
        unsetVariables.allSatisfy { environment[$0]?.isEmpty ?? true } && failedPhotos.allSatisfy { $0.kind == .content }
    }

    /// Says it again in `report`.
    func repeated(in report: BuildReport) -> BuildReport {
        var report = report
        report.issues = issues
        report.failedPhotos = failedPhotos
        report.skipped = skipped
        report.leftOut = leftOut
        report.takeoutGaps = takeoutGaps
        report.unlisted = unlisted.map { ($0.folder, $0.link) }
        return report
    }
}

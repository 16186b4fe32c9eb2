import FolioChanges
import FolioCore
import Foundation

extension BuildMark {
    /// The fingerprint of `site` as its model is now. A secret given from outside the model is
    /// part of it (what a secret would leave unchanged has the same one): another secret, or
    /// none, is another site's unlisted addresses.
    static func fingerprint(of site: ConfiguredSite) throws -> String {
        let made = fingerprint(generation: try site.database.generation(), theme: site.theme, settings: site.settings, folio: site.folio)
        guard let secret = site.outsideSecret else { return made }
        return ContentHash.hex("\(made)|\(secret.markText)")
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

extension StandingReport {
    /// What `report` and `issues` say beyond the summary; nil when they say nothing more.
    init?(_ report: BuildReport, issues: [BuildIssue]) {
        guard !(report.isQuiet(issues) && report.failedPhotos.isEmpty && report.unlisted.isEmpty) else { return nil }
        self.init(issues: issues, failedPhotos: report.failedPhotos, skipped: report.skipped, leftOut: report.leftOut,
                  takeoutGaps: report.takeoutGaps, unlisted: report.unlisted.map { Unlisted(folder: $0.folder, link: $0.link) },
                  unsetVariables: report.unsetVariables)
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

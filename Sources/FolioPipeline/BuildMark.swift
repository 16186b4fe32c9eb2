import FolioCore
import FolioSite
import Foundation

/// What a finished clean build leaves in the site's build state (see BuildState): the
/// fingerprint of everything its pages were made from, so the next build can tell in a few reads
/// that nothing changed.
struct BuildMark: Codable, Equatable {
    /// Where an older Folio kept it: in `public/` itself.
    static let legacyFileName = ".folio-build"

    var fingerprint: String
    var builtAt: Date
    /// What that build published, for the summary of a build that finds nothing to do.
    var photos: Int
    var pages: Int
    /// content/ as that build's walk found it (`ContentWalk.digest`), kept only when the build
    /// had nothing to say (no issue, nothing skipped): the next build whose walk finds the same
    /// stops there, reading no catalog and looking up no photo.
    var content: UInt64?

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

    /// `upToDate(_:now:)`, decided before content/ is read: when its walk finds it as the mark says.
    static func upToDate(_ site: ConfiguredSite, now: Date, content: UInt64?) throws -> BuildMark? {
        guard let content, let mark = try upToDate(site, now: now), mark.content == content else { return nil }
        return mark
    }

    /// The mark of the published site when it was made from exactly this model, theme and
    /// settings, and no photo is recent enough for its "hours ago" to have moved on since: then
    /// there is nothing to do.
    static func upToDate(_ site: ConfiguredSite, now: Date) throws -> BuildMark? {
        let fingerprint = try fingerprint(of: site)
        guard let mark = site.state.mark(), mark.fingerprint == fingerprint, mark.builtAt <= now,
              try !site.database.hasPhotosTaken(in: mark.builtAt.addingTimeInterval(-24 * 3600)...now)
        else { return nil }
        return mark
    }
}

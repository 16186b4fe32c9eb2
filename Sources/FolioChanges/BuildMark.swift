import FolioContent
import FolioCore
import FolioModel
import FolioSite
import Foundation

/// What a finished build leaves in the site's build state (see BuildState): the fingerprint of
/// everything its pages were made from, so the next build can tell in a few reads that nothing
/// changed, and what it had to say, to say again.
package struct BuildMark: Codable, Equatable {
    /// Where an older Folio kept it: in `public/` itself.
    package static let legacyFileName = ".folio-build"

    package var fingerprint: String
    package var builtAt: Date
    /// What that build published, for the summary of a build that finds nothing to do.
    package var photos: Int
    package var pages: Int
    /// content/ as that build's walk found it (`ContentWalk.digest`): the next build whose walk
    /// finds the same stops there, reading no catalog and looking up no photo, and says again
    /// what this one said (`standing`).
    package var content: UInt64?
    /// What that build said beyond its summary; nil when it had nothing to say.
    package var standing: StandingReport?

    package init(fingerprint: String, builtAt: Date, photos: Int, pages: Int, content: UInt64? = nil, standing: StandingReport? = nil) {
        self.fingerprint = fingerprint
        self.builtAt = builtAt
        self.photos = photos
        self.pages = pages
        self.content = content
        self.standing = standing
    }

    package static func fingerprint(generation: Int, theme: Theme, settings: SiteSettings, folio: String) -> String {
        ContentHash.hex("\(generation)|\(drawing(theme: theme, settings: settings, folio: folio))")
    }

    /// How a page's values become HTML: this Folio (`folio`, its build identity: see
    /// FolioIdentity), the theme and the settings. Another Folio draws every page again, and
    /// writes those that come out different.
    package static func drawing(theme: Theme, settings: SiteSettings, folio: String) -> String {
        ContentHash.hex("\(folio)|\(theme.fingerprint)|\(ContentHash.hex(encoding: settings))")
    }
}

/// What a build said beyond its summary: its problems, the photos that failed, the files it
/// skipped or left out, its unlisted albums. Kept with its mark, so a build that finds
/// content/ as it was says them again without reading or rendering anything.
package struct StandingReport: Codable, Equatable {
    package var issues: [BuildIssue]
    package var failedPhotos: [PhotoSource]
    package var skipped: [SkippedFile]
    package var leftOut: [LeftOutFile]
    package var takeoutGaps: TakeoutGaps
    package var unlisted: [Unlisted]
    /// The password variables albums named that were not set (each an error): names only.
    package var unsetVariables: [String]

    package struct Unlisted: Codable, Equatable {
        package var folder: String
        package var link: String

        package init(folder: String, link: String) {
            self.folder = folder
            self.link = link
        }
    }

    package init(issues: [BuildIssue], failedPhotos: [PhotoSource], skipped: [SkippedFile], leftOut: [LeftOutFile],
                 takeoutGaps: TakeoutGaps, unlisted: [Unlisted], unsetVariables: [String]) {
        self.issues = issues
        self.failedPhotos = failedPhotos
        self.skipped = skipped
        self.leftOut = leftOut
        self.takeoutGaps = takeoutGaps
        self.unlisted = unlisted
        self.unsetVariables = unsetVariables
    }

    package var hasErrors: Bool { issues.contains { $0.severity == .error } || !failedPhotos.isEmpty }

    /// Whether the same files under content/ would say it again: not once a password variable
    /// that was not set is set, nor when a photo from Flickr failed (its image may download next
    /// time).
    package func followsFromContent(_ environment: [String: String]) -> Bool {
        unsetVariables.allSatisfy { environment[$0]?.isEmpty ?? true } && failedPhotos.allSatisfy { $0.kind == .content }
    }
}

import FolioChanges
import FolioCore
import Foundation

/// Completes the new site (the theme's assets), puts it in place of the old one, deletes the
/// media no page uses any more, and keeps the build's state beside the model (the page manifest
/// and the mark that lets the next build see nothing changed).
struct WriteStep: BuildStep {
    static let name = "write public/"
    static let activity = "putting the new site in place"

    struct Input: Sendable {
        var site: ConfiguredSite
        /// The site's pages as drawn, less their builders and routes (`pageCount` of them).
        var pages: SitePages
        var pageCount: Int
        var rendered: RenderedSite
        /// content/ as this build found it (`BuildMark.content`).
        var content: UInt64?
        /// What this build said beyond its summary (`BuildMark.standing`).
        var standing: StandingReport?
        /// Where the trees differed as the last build left them, if that is known.
        var trees: TreeLedger?
        /// Each photo's media as this build leaves them (`BuildPlan.ledger`, less the photos
        /// whose images failed), written beside the state in place (`BuildState.stage(media:)`):
        /// what the next build plans from. Its hash, or why it could not be written.
        var media: Result<String, any Error>
        /// Where media may have fallen out of use (`BuildPlan.moved`).
        var moved: Set<String>?
    }

    func run(_ input: Input, in run: BuildRun) async throws -> Written {
        let site = input.site
        let output = site.output
        // The scripts' words head the first of them, which every page loads (`SiteLanguage.scriptWords`).
        try output.copyAssets(from: site.theme.assetFolders, files: run.files, heads: ["folio.js": Data(site.language.scriptWords.utf8)])
        // Made now, not at planning: storing new thumbnails changed the model's generation.
        let mark = BuildMark(fingerprint: try BuildMark.fingerprint(of: site), builtAt: run.now, photos: input.pages.photos,
                             pages: input.pageCount, content: input.content, standing: input.standing)
        // The media in use listed only where they may not be the last build's: among the names
        // of the photos whose media moved, when nothing else that decides them did; the map's
        // files the last build left are known by name.
        let inUse = input.pages.media.digest(drawing: input.pages.drawing)
        let moved = MediaInUse.moved(since: input.trees, inUse: inUse, photos: input.moved)
        let stale = moved == nil ? [] : MediaInUse.stale(input.pages.media.files, since: input.trees)
        let keeping = moved?.isEmpty == true ? nil : input.pages.media.paths(among: moved)
        // The state written on the other core while the site is put in place: the manifest
        // beside the state in place, a piece at a time, to be put in its place after with the
        // digest the pages step wrote.
        let state = site.state
        let (manifest, digest) = (input.rendered.manifest, input.pages.digest)
        async let staged = Result { (pages: try state.stage(pages: manifest), digest: try digest.get()) }
        let swap = try output.commit(keepingMedia: keeping, among: moved, dropping: stale,
                                     pages: input.rendered.manifest.lastPaths)
        var issues: [BuildIssue] = []
        // Kept beside the model once the new site is in place (it names the folder swapped in);
        // the site is built even when it cannot be kept: the next build draws every page.
        do {
            let written = try await staged.get()
            try state.save(stagedPages: written.pages, stagedDigest: written.digest, mark: mark)
            // Only where what was published is known: its pages, by the manifest; or where a
            // cold build's twin is the next tree, one file with the new site at every path.
            if !input.rendered.manifest.lastIsEmpty || output.twinIsNext,
               let differing = output.twinIsNext ? PathSet() : output.changedPaths,
               let pages = state.pagesHash(), let next = BuildState.identity(of: output.next) {
                try state.save(trees: TreeLedger(pages: pages, next: next, differing: differing, inUse: inUse,
                                                  others: input.pages.media.files.sorted()),
                               stagedMedia: try input.media.get())
            }
        } catch let error as FolioError {
            issues.append(.warning(site.paths.shown(site.paths.state), "\(error.reason); the next build draws every page again"))
        } catch let failure as DiskFailure {
            // The new site is in place: the disk failed only the state kept for the next build.
            issues.append(.warning(site.paths.shown(site.paths.state),
                                   "cannot keep the build's state: \(String(cString: strerror(failure.code))); the next build draws every page again"))
        }
        if swap != .atomic {
            issues.append(.warning(site.paths.shown(output.destination),
                                   "this file system cannot swap two folders in one step: for a moment there was no site"))
        }
        return Written(issues: issues)
    }
}

/// The new site is in place.
struct Written: StepOutput {
    var issues: [BuildIssue]
}

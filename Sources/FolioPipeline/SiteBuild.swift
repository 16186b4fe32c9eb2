import FolioChanges
import FolioContent
import FolioCore
import FolioImaging
import Foundation

/// A build of one site: the pipeline of named steps, each taking what the ones before it made.
///
/// configure → walk content → (nothing moved? stop) → load content → import (content/'s catalogs and
/// photos, a part at a time) → (up to date? stop) → plan → images → pages → render → write public/
public struct SiteBuild: Sendable {
    public let paths: SitePaths
    public let options: BuildOptions

    /// The steps' names, in order, as the log and the timings show them.
    public static let steps = [
        ConfigureStep.name, WalkContentStep.name, LoadContentStep.name, ImportStep.name, PlanStep.name, ImagesStep.name,
        PagesStep.name, RenderStep.name, WriteStep.name,
    ]

    public init(paths: SitePaths, options: BuildOptions = BuildOptions()) {
        self.paths = paths
        self.options = options
    }

    /// Builds the site. Bad photos and records are in the report; a thrown error means no new
    /// site was put in place (the previous `public/` is as it was).
    @discardableResult
    public func run(log: @escaping (String) -> Void = { _ in }) async throws -> BuildReport {
        let run = BuildRun(paths: paths, options: options)
        var steps = StepRunner(run: run, count: Self.steps.count, log: log)

        let site = try await steps.step(ConfigureStep(), ())
        defer { site.catalogWrites.finish() }
        var walk: ContentWalk? = try await steps.step(WalkContentStep(), site)
        let content = walk?.digest
        var report = BuildReport()
        // Nothing under content/ moved since the last build, and nothing else did: no catalog is
        // read, no photo looked up in the model, and what that build said is said again.
        if let mark = try BuildMark.upToDate(site, now: run.now, content: content, environment: run.options.environment) {
            return try upToDate(report, mark: mark, steps, run, site: site, imported: ImportResult(), sayingAgain: true)
        }
        // The listing of every file under content/ is handed to the load, whose parts hold it to
        // the import's end: only its digest is needed here.
        let (imported, passwords) = try await importContent(site, walk.take()!, &steps, &report)

        if !steps.hasErrors, var mark = try BuildMark.upToDate(site, now: run.now) {
            // Files touched and read again to no effect: the next build sees content/ as now, and
            // says what this one says. Its pages, and so its unlisted albums, are the mark's.
            report.unlisted = mark.standing?.unlisted.map { ($0.folder, $0.link) } ?? []
            let standing = StandingReport(report, issues: steps.issues)
            if mark.content != content || mark.standing != standing {
                mark.content = content
                mark.standing = standing
                try? site.state.save(mark: mark)
            }
            return try upToDate(report, mark: mark, steps, run, site: site, imported: imported, sayingAgain: false)
        }
        var published: Published? = try await publish(site, imported: imported, passwords: passwords, content: content,
                                                      &steps, run, report)
        let finished = published?.report
        // What the build held (every photo, page and media file of a large library) is freed on
        // another core while the caller gets on with the report. Taken out, not copied: with
        // `publish` returned and `published` emptied, no reference is left here to be dropped
        // last, and free it on this core after all.
        letGo(published.take()?.held)
        return finished!
    }

    /// A published site's report, and what its build held, for the caller to let go.
    private struct Published {
        var report: BuildReport
        var held: (BuildPlan, SitePages, RenderedSite)
    }

    /// Plans, makes and publishes the site from the model as imported: plan → images → pages →
    /// render → write public/.
    private func publish(_ site: ConfiguredSite, imported: ImportResult, passwords: [String: String], content: UInt64?,
                         _ steps: inout StepRunner, _ run: BuildRun, _ report: BuildReport) async throws -> Published {
        var report = report
        // Where the two output trees differ, as the last build left them; forgotten before the
        // next tree is touched, so a build killed from here on leaves the next looking at every file.
        let state = site.state
        let trees = state.trees(next: site.output.next)
        // The last build's media ledger (an entry per photo) is read on another core while the
        // plan reads the model; let go once planned from, not held through the pages, the render
        // and the write, where the build's peak is.
        var media: Task<MediaLedger?, Never>? = Task { trees.flatMap(state.media(of:)) }
        try state.dropTrees()
        try site.output.prepare(differing: trees?.differing)
        var plan = try await steps.step(PlanStep(), (site, imported, media))
        media = nil
        let images = try await steps.step(ImagesStep(), (site, plan))
        // What is done is let go: a cold build of a large library held every photo's image job,
        // then every page's route and the builders' lists, to its end, where its peak is.
        plan.jobs = []
        plan.restores = []
        // The photos whose images failed are left out of the pages in place, not copied: a
        // copy of the rest held beside the plan's would be every photo twice.
        plan.snapshot.remove(images.failed)
        // The media ledger this build leaves is known once the images are made: written beside
        // the one in place and let go, not held through the pages, the render and the write (the
        // write step puts it in place with the site). Up to `BuildOptions.photosHeldUpTo` photos
        // it is written on another core beside the pages step; past that, before the pages are laid out.
        plan.ledger.entries = plan.entries.take(removing: images.failed)
        plan.ledger.thumbnails = try site.database.thumbnailTally()
        let staging = Task { [ledger = plan.ledger] in Result { try state.stage(media: ledger) } }
        plan.ledger.entries = [:]
        if plan.snapshot.photos.count > options.photosHeldUpTo { _ = await staging.value }
        // The photos handed to the pages step, which holds the only copy from here: what it
        // leaves out of its listed site (the unlisted albums' photos) is left out in place.
        let photos = Handover(plan.takeSnapshot())
        var pages = try await steps.step(PagesStep(), (site, plan, photos, passwords))
        let rendered = try await steps.step(RenderStep(), (site, pages))
        let pageCount = pages.routes.count
        pages.builders = []
        pages.routes = SiteRoutes()
        report.unlisted = pages.unlisted.map { ($0.path, $0.link) }
        report.failedPhotos = Set(try site.database.failingPhotos().map(\.source)).union(imported.failed.keys).sorted()
        _ = try await steps.step(WriteStep(), WriteStep.Input(site: site, pages: pages, pageCount: pageCount, rendered: rendered,
                                                              content: content, standing: StandingReport(report, issues: steps.issues),
                                                              trees: trees, media: await staging.value, moved: plan.moved))

        report.photos = pages.photos
        report.pages = pageCount
        report.renditionsMade = images.made
        report.renditionsReused = plan.reused
        report.photosLookedAt = plan.lookedAt
        report.renditionsFromCache = images.fromCache
        report.pagesLookedAt = rendered.lookedAt
        report.pagesRendered = rendered.rendered
        report.pagesWritten = rendered.written
        return Published(report: try finish(report, steps, run, site: site, imported: imported), held: (plan, pages, rendered))
    }

    /// Loads content/ and brings the model in line with it, a part at a time (`ContentParts`):
    /// the load finds what content/ holds, the import reads its catalogs and photos a part at a
    /// time and lets each go once in the model. What is left is what the report and the
    /// protected albums need.
    private func importContent(_ site: ConfiguredSite, _ walk: consuming ContentWalk, _ steps: inout StepRunner,
                               _ report: inout BuildReport) async throws -> (ImportResult, passwords: [String: String]) {
        // The model's marks of its photos are read on another core while content/ is loaded, which does not
        // touch the model.
        let database = site.database
        let known = Task { try database.contentMarks() }
        // The walk's listing goes with the parts, which read it. Consumed, not copied: a copy
        // leaves the parameter holding it to the end of this function.
        let content = try await steps.step(LoadContentStep(), (site, consume walk))
        var imported = try await steps.step(ImportStep(known: known), (site, content))
        let inventory = imported.content
        imported.content = ContentInventory()
        report.imported = imported.imported
        report.removed = imported.removed
        report.skipped = inventory.skipped
        report.leftOut = inventory.leftOut
        report.takeoutGaps = inventory.takeoutGaps
        report.unsetVariables = inventory.unsetVariables
        return (imported, inventory.passwords)
    }

    /// The report of a build that found nothing to do; `sayingAgain` what the build that left
    /// the mark said, when this one read nothing to say it for itself.
    private func upToDate(_ report: BuildReport, mark: BuildMark, _ steps: StepRunner, _ run: BuildRun,
                          site: ConfiguredSite, imported: ImportResult, sayingAgain: Bool) throws -> BuildReport {
        steps.log("up to date")
        var report = report
        report.upToDate = true
        report.photos = mark.photos
        report.pages = mark.pages
        // The problems in the model are those the build that left the mark kept.
        guard sayingAgain, let standing = mark.standing else { return try finish(report, steps, run, site: site, imported: imported) }
        return standing.repeated(in: try finish(report, steps, run, site: site, imported: imported, keepingProblems: true))
    }

    /// Completes the report, and keeps the build's own problems in the model (its photos' are
    /// kept by the import) for the next builds and `folio problems`.
    private func finish(_ report: BuildReport, _ steps: StepRunner, _ run: BuildRun, site: ConfiguredSite,
                        imported: ImportResult, keepingProblems: Bool = false) throws -> BuildReport {
        if !keepingProblems { try site.database.replaceBuildProblems(steps.issues.filter { !imported.photoIssues.contains($0) }) }
        var report = report
        report.issues = steps.issues
        report.stepTimes = steps.times
        report.duration = Date().timeIntervalSince(run.startedAt)
        let imaging = run.clock.seconds
        report.imagingTimes = ImagingClock.Phase.allCases.map { ($0.rawValue, imaging[$0] ?? 0) }
        return report
    }
}

import Foundation

/// The site as values: every page, the search index, and the media they refer to.
struct SitePages: StepOutput {
    var pages: [Page]
    var search: SearchIndex
    /// The feed, and whatever else is written beside the pages whole.
    var files: [SiteFile]
    var photos: Int
    /// Every media file and tile folder the pages refer to: the rest of `public/media/` goes.
    var media: Set<String>
}

/// Turns the model, less the photos this build could not publish, into page values, and checks
/// that no two pages land on one path before anything is drawn.
struct PagesStep: BuildStep {
    static let name = "pages"

    func run(_ input: (site: ConfiguredSite, plan: BuildPlan, images: MadeImages), in run: BuildRun) async throws -> SitePages {
        let (site, plan, images) = input
        let snapshot = plan.snapshot.excluding(images.failed)
        let media = plan.media.filter { !images.failed.contains($0.key) }
        let builder = SiteBuilder(snapshot: snapshot, media: media, settings: site.settings, now: run.now)
        let pages = builder.pages()
        try Page.checkPaths(pages)
        return SitePages(pages: pages, search: builder.searchIndex(), files: builder.feed().map { [$0] } ?? [],
                         photos: snapshot.photos.count,
                         media: Set(media.values.flatMap(\.paths)))
    }
}

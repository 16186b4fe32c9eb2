import Foundation

/// Turns the model into page values and draws them through the theme.
struct RenderStep: BuildStep {
    let name = "render pages"

    func run(_ context: BuildContext) async throws {
        guard !context.upToDate else { return }
        let builder = SiteBuilder(snapshot: context.snapshot, images: context.images, settings: context.settings, now: context.now)
        context.siteBuilder = builder
        context.pages = builder.pages()
        context.report.pages = context.pages.count
        context.report.photos = context.snapshot.photos.count
    }
}

import Foundation

/// Writes the pages and the theme's assets, then puts the new site in place of the old one.
struct WriteStep: BuildStep {
    let name = "write public/"

    func run(_ context: BuildContext) async throws {
        let output = context.output!
        let renderer = PageRenderer(theme: context.theme, settings: context.settings)
        let pages = context.pages
        let progress = ProgressLine("pages", total: pages.count, enabled: context.options.progress)
        let chunks = pages.chunked(64)
        let failures = await boundedMap(chunks.map(Array.init), width: context.concurrency, onEach: { done in
            progress.update(min(done * 64, pages.count))
        }) { chunk -> FolioError? in
            do {
                for page in chunk {
                    try output.write(Data(try renderer.render(page).utf8), to: page.path)
                }
                return nil
            } catch let error as FolioError {
                return error
            } catch {
                return FolioError(reason: "\(error)")
            }
        }
        if let failure = failures.compactMap({ $0 }).first { throw failure }
        try output.copyAssets(from: context.theme.assetFolders)
        try output.commit()
        context.report.pagesWritten = pages.count
    }
}

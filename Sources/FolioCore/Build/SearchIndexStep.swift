import Foundation

/// Writes the search index (`search/data/`): what the theme's script searches, and what it
/// lists the visitor's own favorites and recents from.
struct SearchIndexStep: BuildStep {
    let name = "search index"

    func run(_ context: BuildContext) async throws {
        guard !context.upToDate, let builder = context.siteBuilder else { return }
        for file in builder.searchIndex().files {
            try context.output.write(file.data, to: file.path)
        }
    }
}

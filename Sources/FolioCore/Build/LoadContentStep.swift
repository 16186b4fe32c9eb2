/// Finds every catalog and image under `content/`, in the walk of it.
struct LoadContentStep: BuildStep {
    static let name = "load content"

    func run(_ input: (site: ConfiguredSite, walk: ContentWalk), in run: BuildRun) async throws -> ContentInventory {
        let site = input.site
        return try ContentLoader(contentRoot: site.paths.content, files: run.files,
                                 exclusions: ContentExclusions(patterns: site.settings.excludePatterns),
                                 catalogCache: CatalogCache(folder: site.paths.catalogCache, reader: site.folio))
            .load(walk: input.walk.listing)
    }
}

extension ContentInventory: StepOutput {}

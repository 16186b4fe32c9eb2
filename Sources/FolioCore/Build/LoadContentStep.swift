/// Finds every catalog and image under `content/`.
struct LoadContentStep: BuildStep {
    static let name = "load content"

    func run(_ site: ConfiguredSite, in run: BuildRun) async throws -> ContentInventory {
        try ContentLoader(contentRoot: site.paths.content, files: run.files,
                          exclusions: ContentExclusions(patterns: site.settings.excludePatterns),
                          catalogCache: CatalogCache(folder: site.paths.catalogCache, reader: site.folio)).load()
    }
}

extension ContentInventory: StepOutput {}

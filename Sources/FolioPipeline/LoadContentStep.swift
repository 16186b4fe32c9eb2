import FolioContent
/// Finds every catalog and image under `content/`, in the walk of it.
struct LoadContentStep: BuildStep {
    static let name = "load content"
    static let activity = "reading content/"

    func run(_ input: (site: ConfiguredSite, walk: ContentWalk), in run: BuildRun) async throws -> ContentInventory {
        let site = input.site
        var loader = ContentLoader(contentRoot: site.paths.content, files: run.files,
                                   exclusions: ContentExclusions(patterns: site.settings.excludePatterns),
                                   catalogCache: site.catalogCache)
        loader.keepsRecords = false
        loader.environment = run.options.environment
        return try loader.load(walk: input.walk.listing)
    }
}

extension ContentInventory: StepOutput {}

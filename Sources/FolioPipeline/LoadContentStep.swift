import FolioContent
/// Finds every catalog and image under `content/`, in the walk of it: what is there, and which
/// files are photos. The catalogs are read, and the photos' entries made, a part at a time as
/// the import takes them (`ContentParts`).
struct LoadContentStep: BuildStep {
    static let name = "load content"
    static let activity = "reading content/"

    func run(_ input: (site: ConfiguredSite, walk: ContentWalk), in run: BuildRun) async throws -> ContentParts {
        let site = input.site
        var loader = ContentLoader(contentRoot: site.paths.content, files: run.files,
                                   exclusions: ContentExclusions(patterns: site.settings.excludePatterns),
                                   catalogCache: site.catalogCache)
        loader.keepsRecords = false
        loader.environment = run.options.environment
        loader.partSize = run.options.contentParts
        return loader.parts(walk: input.walk.listing)
    }
}

/// Its issues are said with the import's, which reads the parts (`ImportResult.issues`).
extension ContentParts: StepOutput {}

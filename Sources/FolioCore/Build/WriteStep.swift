import Foundation

/// Completes the new site (the theme's assets, the page manifest and, after a clean build, the
/// stamp that lets the next build see nothing changed), puts it in place of the old one, and
/// deletes the media no page uses any more.
struct WriteStep: BuildStep {
    static let name = "write public/"

    struct Input: Sendable {
        var site: ConfiguredSite
        var pages: SitePages
        var rendered: RenderedSite
        /// A build with errors leaves no stamp, so the next one tries the failed photos again.
        var clean: Bool
    }

    func run(_ input: Input, in run: BuildRun) async throws -> Written {
        let site = input.site
        let output = site.output
        try output.copyAssets(from: site.theme.assetFolders, files: run.files)
        try output.write(input.rendered.manifest.encoded(), to: PageManifest.fileName)
        if input.clean {
            // Made now, not at planning: storing new thumbnails changed the model's generation.
            let fingerprint = BuildStamp.fingerprint(generation: try site.database.generation(), theme: site.theme,
                                                     settings: site.settings)
            let stamp = BuildStamp(fingerprint: fingerprint, builtAt: run.now, photos: input.pages.photos,
                                   pages: input.pages.routes.count)
            try output.write(stamp.encoded(), to: BuildStamp.fileName)
        }
        let swap = try output.commit(keepingMedia: input.pages.media)
        guard swap == .atomic else {
            return Written(issues: [.warning(site.paths.shown(output.destination),
                                             "this file system cannot swap two folders in one step: for a moment there was no site")])
        }
        return Written(issues: [])
    }
}

/// The new site is in place.
struct Written: StepOutput {
    var issues: [BuildIssue]
}

import FolioChanges
import FolioContent
import FolioCore
import FolioImaging
import FolioMedia
import FolioModel
import FolioSite
import Foundation

/// A site ready to build: its settings, theme, model and output, as the configure step opened
/// them. Every later step reads it; none changes it.
struct ConfiguredSite: StepOutput {
    let paths: SitePaths
    let settings: SiteSettings
    let theme: Theme
    /// The words and forms the pages speak: the settings' `language` in the theme's catalogues.
    let language: SiteLanguage
    let database: GalleryDatabase
    let renditions: RenditionSet
    let processor: ImageProcessor
    let output: PublicOutput
    /// Where the output, the build's state and its caches are written.
    let disk: any Disk
    /// Held until the build is done: one build of a site at a time. Shards take none: they
    /// run at once, and write neither the model nor `public/`.
    let lock: BuildLock?
    /// Unknown settings, each a warning.
    let issues: [BuildIssue]
    /// Which Folio draws the pages (see FolioIdentity): part of every page's drawing.
    let folio: String
    /// The site's secret as given from outside the model, which it then stands in for.
    let outsideSecret: SiteSecret?
    /// The catalog cache's writes, done beside the build and waited for at its end.
    let catalogWrites = CatalogCache.Writes()
}

extension ConfiguredSite {
    /// What the build keeps for the next about the output it publishes.
    var state: BuildState { BuildState(paths: paths, disk: disk) }

    /// Where the readings of the site's catalogs are kept between builds: the load reads
    /// through it, and the import reads again through it the records the load let go.
    var catalogCache: CatalogCache {
        CatalogCache(folder: paths.catalogCache, reader: folio, disk: disk, writes: catalogWrites)
    }

    /// The secret unlisted addresses and protected salts are derived from: the one given from
    /// outside, else the model's (made on first need).
    func siteSecret() throws -> SiteSecret {
        try outsideSecret ?? database.siteSecret()
    }
}

/// Reads the settings, loads the theme, opens the model and the output.
struct ConfigureStep: BuildStep {
    static let name = "configure"
    static let activity = "opening the site"
    /// A shard's own copy of the model, which it imports into instead of the site's.
    var scratchModel: URL?

    func run(_ input: Void, in run: BuildRun) async throws -> ConfiguredSite {
        let paths = run.paths
        guard run.files.isFolder(paths.content) else {
            throw FolioError(path: paths.root.path, reason: "not a Folio site: it has no content/ folder (try 'folio new')")
        }
        if let refusal = paths.outputRefusal() { throw FolioError(path: paths.output.path, reason: refusal) }
        let lock = try scratchModel == nil ? BuildLock(site: paths.root, disk: run.disk) : nil
        // A site moved or restored from a cache: its pages are known again by their bytes.
        if lock != nil { _ = try? BuildState(paths: paths, disk: run.disk).adoptMovedOutput() }
        let (settings, unknownKeys) = try SiteSettings.load(from: paths.settings, files: run.files)
        // Checked on every build, needed or not: a malformed secret is refused before it could
        // publish anything at addresses of its own.
        let outsideSecret = try SiteSecret.outside(environment: run.options.environment)
        let issues = unknownKeys.map { key, suggestion in
            BuildIssue.warning(paths.shown(paths.settings), "unknown setting '\(key)' is ignored\(suggestion.map { " (did you mean '\($0)'?)" } ?? "")")
        }
        if !ImageProcessor.canEncode(settings.format) {
            throw FolioError(path: paths.settings.path, reason: "format '\(settings.format.rawValue)': the libgd on this machine cannot write it")
        }
        guard let themeFolder = run.options.themeFolder ?? Theme.defaultFolder() else {
            throw FolioError(reason: "cannot find the default theme; set FOLIO_THEME to the templates/ folder of Folio")
        }
        let theme = try Theme.load(defaultFolder: themeFolder, siteFolder: paths.templates, files: run.files)
        let language = try SiteLanguage(tag: settings.language, words: theme.words)
        let shown = language.issues.map { BuildIssue(severity: $0.severity, path: paths.shown(URL(fileURLWithPath: $0.path)), reason: $0.reason) }
        return ConfiguredSite(
            paths: paths, settings: settings, theme: theme, language: language,
            database: try GalleryDatabase.open(at: scratchModel ?? paths.database),
            renditions: RenditionSet(settings),
            processor: ImageProcessor(pixelLimit: settings.pixelLimit, fullDecodePixelLimit: settings.fullDecodePixelLimit,
                                      clock: run.clock, colour: settings.colour),
            output: try scratchModel == nil ? PublicOutput(destination: paths.output, disk: run.disk) : PublicOutput(viewing: paths.output),
            disk: run.disk, lock: lock, issues: issues + shown,
            folio: run.options.identity ?? FolioIdentity.current(cache: paths.state, disk: run.disk), outsideSecret: outsideSecret)
    }
}

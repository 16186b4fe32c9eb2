import Foundation

/// Reads the settings, opens the model, loads the theme and opens the output.
struct ConfigureStep: BuildStep {
    let name = "configure"

    func run(_ context: BuildContext) async throws {
        let paths = context.paths
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: paths.content.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw FolioError(path: paths.root.path, reason: "not a Folio site: it has no content/ folder (try 'folio new')")
        }
        context.settings = try SiteSettings.load(from: paths.settings)
        for (key, suggestion) in SiteSettings.unknownKeys(in: paths.settings) {
            let hint = suggestion.map { " (did you mean '\($0)'?)" } ?? ""
            context.issues.append(.warning(paths.shown(paths.settings), "unknown setting '\(key)' is ignored\(hint)"))
        }
        if !ImageProcessor.canEncode(context.settings.format) {
            throw FolioError(path: paths.settings.path, reason: "format '\(context.settings.format.rawValue)': the libgd on this machine cannot write it")
        }
        context.renditions = RenditionSet(context.settings)
        context.processor = ImageProcessor(pixelLimit: context.settings.pixelLimit, clock: context.clock)
        guard let themeFolder = context.options.themeFolder ?? Theme.defaultFolder() else {
            throw FolioError(reason: "cannot find the default theme; set FOLIO_THEME to the templates/ folder of Folio")
        }
        context.theme = try Theme.load(defaultFolder: themeFolder, siteFolder: paths.templates)
        context.database = try GalleryDatabase.open(at: paths.database)
        context.output = try PublicOutput(destination: paths.output)
    }
}

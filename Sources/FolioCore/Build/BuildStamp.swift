import Foundation

/// What a finished build leaves in `public/.folio-build`: the fingerprint of everything its
/// pages were made from, so the next build can tell in a few reads that nothing changed.
struct BuildStamp: Codable, Equatable {
    static let fileName = ".folio-build"
    /// Bumped when a new Folio draws the same model differently.
    static let formatVersion = 1

    var fingerprint: String
    var builtAt: Date
    /// What that build published, for the summary of a build that finds nothing to do.
    var photos: Int
    var pages: Int

    static func fingerprint(generation: Int, theme: Theme, settings: SiteSettings) -> String {
        ContentHash.hex("\(generation)|\(drawing(theme: theme, settings: settings))")
    }

    /// How a page's values become HTML: this Folio, the theme and the settings.
    static func drawing(theme: Theme, settings: SiteSettings) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let settingsText = (try? encoder.encode(settings)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return ContentHash.hex("\(formatVersion)|\(theme.fingerprint)|\(settingsText)")
    }

    static func read(from output: URL) -> BuildStamp? {
        guard let data = try? Data(contentsOf: output.appendingPathComponent(fileName)) else { return nil }
        return try? JSONDecoder().decode(BuildStamp.self, from: data)
    }

    func encoded() throws -> Data {
        try JSONEncoder().encode(self)
    }
}

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

    /// The stamp of the published site when it was made from exactly this model, theme and
    /// settings, and no photo is recent enough for its "hours ago" to have moved on since: then
    /// there is nothing to do.
    static func upToDate(_ site: ConfiguredSite, now: Date) throws -> BuildStamp? {
        let fingerprint = fingerprint(generation: try site.database.generation(), theme: site.theme, settings: site.settings)
        guard let stamp = read(from: site.paths.output), stamp.fingerprint == fingerprint, stamp.builtAt <= now,
              try !site.database.hasPhotosTaken(in: stamp.builtAt.addingTimeInterval(-24 * 3600)...now)
        else { return nil }
        return stamp
    }

    static func read(from output: URL) -> BuildStamp? {
        guard let data = try? Data(contentsOf: output.appendingPathComponent(fileName)) else { return nil }
        return try? JSONDecoder().decode(BuildStamp.self, from: data)
    }

    func encoded() throws -> Data {
        try JSONEncoder().encode(self)
    }
}

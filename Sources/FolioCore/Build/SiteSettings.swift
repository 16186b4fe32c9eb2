import Foundation

/// A site's own settings, from `folio.json` beside `content/`; every key is optional.
public struct SiteSettings: Codable, Sendable, Equatable {
    public var title = "Folio"
    public var description = "A photo gallery"
    /// Where the site will be published, e.g. "https://example.com/photos/"; makes the feed's
    /// and the sitemap's links absolute. Pages always link relatively.
    public var baseURL: String?
    public var language = "en"
    /// The side of the square thumbnails in grids and lists, in pixels.
    public var thumbnailSize = 400
    /// The longest side of the rendition shown on a photo's page.
    public var screenSize = 1600
    /// JPEG quality of published renditions, 1 to 100.
    public var quality = 82
    /// How many of the latest photos the home page shows.
    public var latestCount = 12
    /// Images over this many pixels are refused (decompression bombs).
    public var pixelLimit = 100_000_000

    public init() {}

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = SiteSettings()
        title = try c.decodeIfPresent(String.self, forKey: .title) ?? d.title
        description = try c.decodeIfPresent(String.self, forKey: .description) ?? d.description
        baseURL = try c.decodeIfPresent(String.self, forKey: .baseURL)
        language = try c.decodeIfPresent(String.self, forKey: .language) ?? d.language
        thumbnailSize = try c.decodeIfPresent(Int.self, forKey: .thumbnailSize) ?? d.thumbnailSize
        screenSize = try c.decodeIfPresent(Int.self, forKey: .screenSize) ?? d.screenSize
        quality = try c.decodeIfPresent(Int.self, forKey: .quality) ?? d.quality
        latestCount = try c.decodeIfPresent(Int.self, forKey: .latestCount) ?? d.latestCount
        pixelLimit = try c.decodeIfPresent(Int.self, forKey: .pixelLimit) ?? d.pixelLimit
    }

    /// Reads `url`, or the defaults when there is no such file.
    public static func load(from url: URL) throws -> SiteSettings {
        guard FileManager.default.fileExists(atPath: url.path) else { return SiteSettings() }
        let settings: SiteSettings
        do {
            settings = try JSONDecoder().decode(SiteSettings.self, from: Data(contentsOf: url))
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.dataCorrupted(context) {
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw FolioError(path: url.path, reason: key.isEmpty ? "not valid JSON" : "key '\(key)': \(context.debugDescription)")
        } catch {
            throw FolioError(path: url.path, reason: "cannot be read: \(error.localizedDescription)")
        }
        try settings.validate(url)
        return settings
    }

    func validate(_ url: URL) throws {
        func check(_ ok: Bool, _ reason: String) throws {
            if !ok { throw FolioError(path: url.path, reason: reason) }
        }
        try check((16...2048).contains(thumbnailSize), "thumbnailSize must be from 16 to 2048")
        try check((200...8192).contains(screenSize), "screenSize must be from 200 to 8192")
        try check((1...100).contains(quality), "quality must be from 1 to 100")
        try check(latestCount >= 0, "latestCount cannot be negative")
        try check(pixelLimit > 0, "pixelLimit must be positive")
    }
}

import Foundation

/// A site's own settings, from `folio.json` beside `content/`; every key is optional.
public struct SiteSettings: Codable, Sendable, Equatable {
    public var title = "Folio"
    /// What the gallery is, under its title; without one, the theme's words for a photo gallery
    /// in the site's language.
    public var description: String?
    /// Where the site will be published, e.g. "https://example.com/photos/"; makes the feed's
    /// and the sitemap's links absolute. Pages always link relatively.
    public var baseURL: String?
    public var language = "en"
    /// Sides of the square thumbnails in grids and lists, in pixels, for `srcset`; their bytes
    /// are kept in the model. 600 is a grid's half-width card on a 3× phone or a 2× desktop.
    public var thumbnailSizes = [600, 300]
    /// Longest sides of the renditions of a photo's page (and of rows of photos in their own
    /// shapes), for `srcset`; the first is the one shown without `srcset`. 2000 covers a 3× phone
    /// and a 2× laptop and is what libjpeg-turbo's half-scale decode of a 12-megapixel photo gives;
    /// 500 is a row's photo on a desktop.
    public var screenSizes = [2000, 1000, 500]
    /// Deep-zoom tiles for photos larger than the first screen size, so visitors can zoom to
    /// the original's resolution downloading only what is on screen.
    public var deepZoom = true
    /// "jpeg"; or "webp" or "avif": smaller files, many times slower to encode, each with a JPEG
    /// twin that pages offer to other browsers through `<picture>`.
    public var format = EncodedFormat.jpeg
    /// Quality of published renditions, 1 to 100, on JPEG's scale (see `quality(for:)`).
    public var quality = 82
    /// How many of the latest photos the home page shows.
    public var latestCount = 12
    /// How many photos (or rows: places, people, albums) a listing shows on one page: longer
    /// listings are cut into numbered pages, so a page of a person with 30,000 photos stays light.
    public var pageSize = 150
    /// How many of the latest photos the Atom feed (`feed.xml`) holds; 0 for no feed.
    public var feedCount = 20
    /// Images over this many pixels are refused (decompression bombs).
    public var pixelLimit = 100_000_000
    /// The same for images decoded whole (PNG, GIF, WebP, AVIF): a JPEG is decoded only as large
    /// as its renditions need, those at full size.
    public var fullDecodePixelLimit = 40_000_000
    /// Megabytes image work may hold at once: photos are worked on side by side only as far as
    /// their decoded pixels fit, and one that cannot fit alone is refused.
    public var memoryLimit = 1024
    /// The XMP rating (stars, 1 to 5) from which a photo is a favorite; 0 never makes one.
    public var favoriteRating = 5
    /// The colour label (XMP `xmp:Label`, as Lightroom, darktable and digiKam write it: "Red",
    /// "Green", …) that makes a photo a favorite too; none when nil.
    public var favoriteLabel: String?
    /// Photos in wider colour spaces than sRGB (Adobe RGB, Display P3) and CMYK: "convert" to
    /// sRGB, as every screen shows right; or "keep" their colours, the profile embedded in each
    /// rendition, for galleries aimed at wide-gamut screens.
    public var colour = ColourSetting.convert
    /// Paths under `content/` never to publish, as globs (`"**/Private/**"`, `"*.tmp.jpg"`): see
    /// `ExcludePattern`. `.nomedia` files say the same from inside the folders.
    public var exclude: [String] = []
    /// The shorter side, in pixels, of the web video published for each video and Live Photo
    /// (H.264/AAC MP4): larger videos are encoded down to it, one within it and already H.264
    /// is published as it is (its metadata stripped).
    public var videoMaxHeight = 1080
    /// Whether the site has a Map (and maps on its region, place and photo pages): on by default,
    /// for a gallery whose photos say where they were taken.
    public var map = true
    /// How precisely maps show where places are, in kilometres: each place at the centre of its
    /// photos' GPS positions, rounded to a grid this wide, so no photo's exact position is
    /// published. 0 shows the centre as it is (a place of one photo: that photo's own position).
    public var mapPrecision = 1.0

    public init() {}

    /// `exclude` as patterns; `validate` has refused any that is none.
    public var excludePatterns: [ExcludePattern] {
        exclude.compactMap { try? ExcludePattern.parse($0).get() }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = SiteSettings()
        title = try c.decodeIfPresent(String.self, forKey: .title) ?? d.title
        description = try c.decodeIfPresent(String.self, forKey: .description)
        baseURL = try c.decodeIfPresent(String.self, forKey: .baseURL)
        language = try c.decodeIfPresent(String.self, forKey: .language) ?? d.language
        thumbnailSizes = try c.decodeIfPresent([Int].self, forKey: .thumbnailSizes) ?? d.thumbnailSizes
        screenSizes = try c.decodeIfPresent([Int].self, forKey: .screenSizes) ?? d.screenSizes
        deepZoom = try c.decodeIfPresent(Bool.self, forKey: .deepZoom) ?? d.deepZoom
        format = try c.decodeIfPresent(EncodedFormat.self, forKey: .format) ?? d.format
        quality = try c.decodeIfPresent(Int.self, forKey: .quality) ?? d.quality
        latestCount = try c.decodeIfPresent(Int.self, forKey: .latestCount) ?? d.latestCount
        feedCount = try c.decodeIfPresent(Int.self, forKey: .feedCount) ?? d.feedCount
        pageSize = try c.decodeIfPresent(Int.self, forKey: .pageSize) ?? d.pageSize
        pixelLimit = try c.decodeIfPresent(Int.self, forKey: .pixelLimit) ?? d.pixelLimit
        fullDecodePixelLimit = try c.decodeIfPresent(Int.self, forKey: .fullDecodePixelLimit) ?? d.fullDecodePixelLimit
        memoryLimit = try c.decodeIfPresent(Int.self, forKey: .memoryLimit) ?? d.memoryLimit
        favoriteRating = try c.decodeIfPresent(Int.self, forKey: .favoriteRating) ?? d.favoriteRating
        favoriteLabel = try c.decodeIfPresent(String.self, forKey: .favoriteLabel) ?? d.favoriteLabel
        exclude = try c.decodeIfPresent([String].self, forKey: .exclude) ?? d.exclude
        videoMaxHeight = try c.decodeIfPresent(Int.self, forKey: .videoMaxHeight) ?? d.videoMaxHeight
        map = try c.decodeIfPresent(Bool.self, forKey: .map) ?? d.map
        mapPrecision = try c.decodeIfPresent(Double.self, forKey: .mapPrecision) ?? d.mapPrecision
        if let text = try c.decodeIfPresent(String.self, forKey: .colour) {
            guard let colour = ColourSetting(rawValue: text) else {
                let choices = ColourSetting.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
                throw DecodingError.dataCorrupted(.init(
                    codingPath: [CodingKeys.colour], debugDescription: "must be \(choices), not \"\(text)\""))
            }
            self.colour = colour
        }
    }

    /// The encoder's quality for `format`. libgd's AVIF quality runs lower than JPEG's for the
    /// same fidelity: AVIF at q - 20 looks like JPEG at q, and at q itself it could be larger.
    public func quality(for format: EncodedFormat) -> Int {
        format == .avif ? max(1, quality - 20) : quality
    }

    /// Reads `url`, or the defaults when there is no such file; with the keys it holds that are
    /// no setting, each with the one it likely meant: they are ignored, and a misspelt setting
    /// silently keeping its default is worth a word.
    public static func load(from url: URL, files: any FileAccess = LocalFileAccess()) throws
        -> (settings: SiteSettings, unknownKeys: [(key: String, suggestion: String?)])
    {
        guard let stamp = files.stamp(of: url) else { return (SiteSettings(), []) }
        try refuseBeyondLimits(size: stamp.size, url)
        let data: Data
        do {
            data = try files.read(url)
        } catch {
            throw FolioError(path: url.path, reason: "cannot be read: \(error.localizedDescription)")
        }
        try refuseBeyondLimits(size: data.count, url)
        // Foundation's parser, at its own limit, would call a deep one "not valid JSON" and name a bracket.
        if let position = NestingScan.json(data) {
            throw FolioError(path: url.path, reason: "its arrays and objects nest more than \(ReadingLimits.nesting) deep (\(position))")
        }
        let settings: SiteSettings
        do {
            settings = try JSONDecoder().decode(SiteSettings.self, from: data)
        } catch is DecodingError {
            throw FolioError(path: url.path, reason: wrongKind(in: data))
        } catch {
            throw FolioError(path: url.path, reason: "cannot be read: \(error.localizedDescription)")
        }
        try settings.validate(url)
        return (settings, unknownKeys(in: data))
    }

    private static func refuseBeyondLimits(size: Int, _ url: URL) throws {
        guard size > ReadingLimits.settingsBytes else { return }
        throw FolioError(path: url.path, reason: "\(size) bytes is larger than the \(ReadingLimits.megabytes(ReadingLimits.settingsBytes)) Folio reads as settings")
    }

    /// What each key holds, in words, for the message about a value of the wrong kind.
    static let expected: [String: String] = [
        "title": "text", "description": "text", "baseURL": "text (an http or https address)", "language": "text",
        "thumbnailSizes": "a list of whole numbers", "screenSizes": "a list of whole numbers",
        "deepZoom": "true or false", "format": "\"jpeg\", \"webp\" or \"avif\"", "quality": "a whole number",
        "latestCount": "a whole number", "feedCount": "a whole number", "pageSize": "a whole number", "pixelLimit": "a whole number",
        "fullDecodePixelLimit": "a whole number", "memoryLimit": "a whole number (megabytes)", "favoriteRating": "a whole number",
        "favoriteLabel": "text (a colour label, like \"Red\")",
        "colour": "\"convert\" or \"keep\"", "exclude": "a list of patterns, like [\"**/Private/**\", \"*.tmp.jpg\"]",
        "videoMaxHeight": "a whole number (pixels)",
        "map": "true or false", "mapPrecision": "a number (kilometres)",
    ]

    /// Which key holds a value of the wrong kind, in words. Decoding errors do not always say
    /// (a fraction where a whole number belongs comes back as "not valid JSON", path and all
    /// lost): each key is decoded alone until one fails.
    static func wrongKind(in data: Data) -> String {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            return "not valid JSON: \(syntaxError(error, in: data))"
        }
        guard let object = parsed as? [String: Any] else {
            return "not an object of settings: it must start with {"
        }
        for key in object.keys.sorted() {
            guard let alone = try? JSONSerialization.data(withJSONObject: [key: object[key]!]),
                  (try? JSONDecoder().decode(SiteSettings.self, from: alone)) == nil else { continue }
            return "'\(key)' must be \(expected[key] ?? "another kind of value")"
        }
        return "not an object of settings"
    }

    /// What the JSON parser found wrong, and where as an editor shows it: "line 3, column 17".
    /// Foundation's parser gives a byte offset ("around character 34"), or nothing at the end.
    static func syntaxError(_ error: Error, in data: Data) -> String {
        let described = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        let bytes = [UInt8](data)
        let offset: Int
        let what: String
        if let range = described.range(of: #"character \d+"#, options: .regularExpression),
           let at = Int(described[range].dropFirst("character ".count)), at <= bytes.count {
            offset = at
            what = at < bytes.count ? "unexpected \(Self.shown(bytes, at: at))" : "it ends too soon,"
        } else if described.localizedCaseInsensitiveContains("end of file") {
            offset = bytes.count
            what = "it ends before it is complete,"
        } else {
            return described
        }
        let before = bytes[..<offset]
        let line = before.filter { $0 == 0x0A }.count + 1
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        return "\(what) at line \(line), column \(column)"
    }

    /// The character at `offset`, quoted, as far as it is one.
    private static func shown(_ bytes: [UInt8], at offset: Int) -> String {
        let rest = String(decoding: bytes[offset..<min(bytes.count, offset + 4)], as: UTF8.self)
        guard let first = rest.first, first != "\u{FFFD}" else { return "byte" }
        return first.isWhitespace ? "space" : "'\(first)'"
    }

    static func unknownKeys(in data: Data) -> [(key: String, suggestion: String?)] {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return [] }
        let known = Mirror(reflecting: SiteSettings()).children.compactMap(\.label)
        return object.keys.filter { !known.contains($0) }.sorted().map { key in
            let nearest = known.map { ($0, editDistance(key.lowercased(), $0.lowercased())) }.min { $0.1 < $1.1 }
            return (key, nearest.flatMap { $0.1 <= 3 ? $0.0 : nil })
        }
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in a.indices {
            var current = [i + 1]
            for j in b.indices {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    func validate(_ url: URL) throws {
        func check(_ ok: Bool, _ key: String, _ rule: String, _ value: Any) throws {
            if !ok { throw FolioError(path: url.path, reason: "'\(key)' \(rule) (it is \(value))") }
        }
        try check(!thumbnailSizes.isEmpty && thumbnailSizes.allSatisfy { (16...2048).contains($0) },
                  "thumbnailSizes", "must hold sizes from 16 to 2048", thumbnailSizes)
        try check(!screenSizes.isEmpty && screenSizes.allSatisfy { (200...8192).contains($0) },
                  "screenSizes", "must hold sizes from 200 to 8192", screenSizes)
        try check((1...100).contains(quality), "quality", "must be from 1 to 100", quality)
        try check(latestCount >= 0, "latestCount", "cannot be negative", latestCount)
        try check((10...5000).contains(pageSize), "pageSize", "must be from 10 to 5000", pageSize)
        try check(feedCount >= 0, "feedCount", "cannot be negative", feedCount)
        try check(pixelLimit > 0, "pixelLimit", "must be positive", pixelLimit)
        try check(fullDecodePixelLimit > 0, "fullDecodePixelLimit", "must be positive", fullDecodePixelLimit)
        try check((64...1_048_576).contains(memoryLimit), "memoryLimit", "must be from 64 to 1048576 (megabytes)", memoryLimit)
        try check((144...4320).contains(videoMaxHeight), "videoMaxHeight", "must be from 144 to 4320 (pixels)", videoMaxHeight)
        try check((0...5).contains(favoriteRating), "favoriteRating", "must be from 0 (never) to 5 stars", favoriteRating)
        if let favoriteLabel {
            try check(!favoriteLabel.trimmingCharacters(in: .whitespaces).isEmpty, "favoriteLabel", "cannot be empty", "\"\"")
        }
        try check(mapPrecision.isFinite && (0...1000).contains(mapPrecision), "mapPrecision",
                  "must be from 0 (exact) to 1000 kilometres", mapPrecision)
        try check(!language.trimmingCharacters(in: .whitespaces).isEmpty, "language", "cannot be empty", "\"\"")
        if let baseURL {
            let parts = URLComponents(string: baseURL)
            try check(["http", "https"].contains(parts?.scheme?.lowercased() ?? "") && !(parts?.host ?? "").isEmpty
                        && parts?.query == nil && parts?.fragment == nil,
                      "baseURL", "must be an absolute http or https address, like \"https://example.com/photos/\"", "\"\(baseURL)\"")
        }
        for pattern in exclude {
            if case .failure(let error) = ExcludePattern.parse(pattern) {
                throw FolioError(path: url.path, reason: "'exclude' \(error)")
            }
        }
        // PNG only stands in for JPEG in transparent photos' renditions: a whole site of PNG
        // photos would weigh several times as much.
        try check(format != .png, "format", "must be \"jpeg\", \"webp\" or \"avif\"", "\"png\"")
        try check(!(colour == .keep && format == .avif), "colour",
                  "\"keep\" needs format \"jpeg\" or \"webp\": libgd cannot put a colour profile in AVIF", "\"keep\"")
    }
}

import FolioCore
import FolioImaging
import FolioModel
/// The renditions a site makes of every photo, from its settings.
public struct RenditionSet: Sendable {
    /// Square crops for grids and list rows, largest first; their bytes are kept in the model.
    public private(set) var thumbnails: [RenditionRequest]
    /// Fit-inside renditions for a photo's page, largest (the one shown without srcset) first;
    /// only ever files in `public/`.
    public private(set) var screens: [RenditionRequest]
    /// Uncropped renditions of a fixed height, largest first, for rows of photos in their own
    /// shapes (albums, places, people): a row cell's thumbnail, never a screen rendition.
    public private(set) var rows: [RenditionRequest]
    /// Deep-zoom tiles beyond the largest screen rendition, when the site wants them. JPEG (PNG
    /// for transparent photos): the viewer fetches them itself, with no `<picture>` to fall
    /// back through.
    public private(set) var tiles: TileRequest?
    /// When renditions are WebP or AVIF, each also gets a JPEG twin of the same name and size,
    /// which pages give as `<img>` inside a `<picture>` whose `<source>` is the other format.
    public private(set) var fallbackFormat: EncodedFormat?
    /// The JPEG quality, for twins.
    private let jpegQuality: Int
    /// What photos that are not sRGB get; part of the spec of their renditions only.
    public let colour: ColourSetting
    /// The shorter side of published videos (`SiteSettings.videoMaxHeight`).
    public let videoMaxHeight: Int
    /// The spec part of each rendition's file name, for every request of the set and every
    /// colour a photo may be: asked for every file of every photo a page shows, where hashing the
    /// spec anew cost more than the rest of the name.
    private var specNames: [SpecKey: String] = [:]

    private struct SpecKey: Hashable {
        var request: RenditionRequest
        var colour: SourceColour
    }

    public init(_ settings: SiteSettings) {
        let quality = settings.quality(for: settings.format)
        thumbnails = Array(Set(settings.thumbnailSizes)).sorted(by: >).enumerated().map { index, size in
            RenditionRequest(name: index == 0 ? "thumb" : "thumb\(size)", width: size, height: size,
                             fit: .squareCrop, format: settings.format, quality: quality)
        }
        screens = Array(Set(settings.screenSizes)).sorted(by: >).enumerated().map { index, size in
            RenditionRequest(name: index == 0 ? "screen" : "w\(size)", width: size, height: size,
                             fit: .inside, format: settings.format, quality: quality)
        }
        // Rows are about 220 CSS pixels high on a phone and 260 elsewhere (style.css's
        // `.keeps-shapes`): 260 for one device pixel per pixel, 520 for two. A panorama is cut at
        // three times as wide as high.
        rows = Self.rowHeights.enumerated().map { index, height in
            RenditionRequest(name: index == 0 ? "row" : "row\(height)", width: height * 3, height: height,
                             fit: .inside, format: settings.format, quality: quality)
        }
        tiles = settings.deepZoom
            ? TileRequest(format: .jpeg, quality: min(settings.quality, 80), coveredUpTo: screens[0].width)
            : nil
        fallbackFormat = settings.format == .jpeg ? nil : .jpeg
        jpegQuality = settings.quality(for: .jpeg)
        colour = settings.colour
        videoMaxHeight = settings.videoMaxHeight
        specNames = makeSpecNames()
    }

    private func makeSpecNames() -> [SpecKey: String] {
        var names: [SpecKey: String] = [:]
        for request in withFallbacks(thumbnails + screens + rows) {
            for colour in SourceColour.allCases {
                names[SpecKey(request: request, colour: colour)] = Self.specName(spec(request, colour: colour))
            }
        }
        return names
    }

    private static func specName(_ spec: String) -> String {
        String(ContentHash.hex(spec).prefix(6))
    }

    /// The heights of `rows`, largest first.
    public static let rowHeights = [520, 260]

    /// The set for transparent photos (PNG and WebP with alpha): every format that would flatten
    /// them (JPEG, AVIF) replaced by one that keeps their alpha (PNG, WebP), twins and tiles too.
    /// A JPEG site gives them PNG; a WebP or AVIF site WebP with PNG twins.
    public func keepingTransparency() -> RenditionSet {
        var set = self
        func keeping(_ request: RenditionRequest) -> RenditionRequest {
            var kept = request
            kept.format = request.format.keepingTransparency
            // AVIF's quality scale runs lower; WebP takes the site's own.
            if request.format == .avif { kept.quality = jpegQuality }
            return kept
        }
        set.thumbnails = thumbnails.map(keeping)
        set.screens = screens.map(keeping)
        set.rows = rows.map(keeping)
        set.tiles = tiles.map { tiles in
            var kept = tiles
            kept.format = tiles.format.keepingTransparency
            return kept
        }
        set.fallbackFormat = fallbackFormat?.keepingTransparency
        set.specNames = set.makeSpecNames()
        return set
    }

    /// The JPEG twin of a WebP or AVIF rendition, when the site makes them.
    public func fallback(of request: RenditionRequest) -> RenditionRequest? {
        guard let fallbackFormat, request.format != fallbackFormat else { return nil }
        var twin = request
        twin.format = fallbackFormat
        twin.quality = jpegQuality
        return twin
    }

    /// `requests`, each followed by its fallback twin if it has one: every file to make.
    public func withFallbacks(_ requests: [RenditionRequest]) -> [RenditionRequest] {
        requests.flatMap { request in [request] + (fallback(of: request).map { [$0] } ?? []) }
    }

    /// The specs of every thumbnail this set makes, for photos of any colour, transparent or not.
    public var thumbnailSpecs: [String] {
        let tags = Set(SourceColour.allCases.map { $0.renditionTag(colour) })
        let requests = withFallbacks(thumbnails) + keepingTransparency().withFallbacks(keepingTransparency().thumbnails)
        var seen = Set<String>()
        return requests.flatMap { request in tags.sorted().map { Self.spec(request) + $0 } }.filter { seen.insert($0).inserted }
    }

    /// Everything that changes the bytes, so a changed setting is a different rendition: the
    /// request, and for a photo whose colours are managed, how (`SourceColour.renditionTag`).
    public func spec(_ request: RenditionRequest, colour source: SourceColour) -> String {
        Self.spec(request) + source.renditionTag(colour)
    }

    /// The request's part of the spec: all of it for an sRGB photo.
    public static func spec(_ request: RenditionRequest) -> String {
        "\(request.name) \(request.width)x\(request.height) \(request.fit.rawValue) \(request.format.rawValue) q\(request.quality)"
    }

    public static func spec(_ tiles: TileRequest) -> String {
        "tiles \(tiles.tileSize)+\(tiles.overlap) \(tiles.format.rawValue) q\(tiles.quality) over \(tiles.coveredUpTo)"
    }

    /// Named by the source's checksum and the spec: unchanged photos keep their names, so
    /// rebuilds cost nothing and caches can keep them forever.
    public func fileName(_ request: RenditionRequest, checksum: String, colour source: SourceColour) -> String {
        let spec = specNames[SpecKey(request: request, colour: source)] ?? Self.specName(spec(request, colour: source))
        // Put together by appending: drawing a page of 150 photos names each of their renditions.
        let (name, fileExtension) = (request.name, request.format.fileExtension)
        var file = "media/"
        file.reserveCapacity(6 + 16 + name.utf8.count + spec.utf8.count + fileExtension.utf8.count + 3)
        file += Self.prefix(of: checksum)
        file += "-"
        file += name
        file += "-"
        file += spec
        file += "."
        file += fileExtension
        return file
    }

    /// What names a source's files: its checksum's first 16 characters, all of it when it is
    /// XXH64's 16 hex digits (taken without going through it a Character at a time).
    package static func prefix(of checksum: String) -> Substring {
        checksum.utf8.count <= 16 ? checksum[...] : checksum.prefix(16)
    }

    /// An animated photo's animation: the GIF or WebP itself, so named by the source's checksum
    /// alone (and how it is cleaned, which a change to would rename it).
    public func animationFile(checksum: String, format: ImageFormat) -> String {
        let fileExtension = format == .webp ? "webp" : "gif"
        return "media/\(checksum.prefix(16))-animation-\(ContentHash.hex("\(fileExtension): frames, timing, loop").prefix(6)).\(fileExtension)"
    }

    /// A video's (or a Live Photo's clip's) web video, named by the checksum of the video's
    /// bytes and how it is made: rebuilds find it and never encode it again.
    public func videoFile(checksum: String) -> String {
        let spec = "mp4 h264 crf23 veryfast aac160 short side <= \(videoMaxHeight); remux when playable"
        return "media/\(checksum.prefix(16))-video-\(ContentHash.hex(spec).prefix(6)).mp4"
    }

    /// The folder of a photo's tile pyramid, ending in "/".
    public func tilesFolder(_ tiles: TileRequest, checksum: String, colour source: SourceColour) -> String {
        "media/tiles/\(checksum.prefix(16))-\(ContentHash.hex(Self.spec(tiles) + source.renditionTag(colour)).prefix(6))/"
    }

    /// The pixel size `request` makes of a `width`×`height` (upright) photo: the same rule the
    /// imaging code resamples by, so pages announce exactly the sizes the files have.
    public static func outputSize(_ request: RenditionRequest, width: Int, height: Int) -> (width: Int, height: Int) {
        let geometry = RenditionGeometry(request: request, uprightWidth: width, uprightHeight: height)
        return (geometry.width, geometry.height)
    }

    /// Of `requests` (largest first), those that give a `width`×`height` photo a size of its own:
    /// a photo smaller than two requests gets one file, not two copies of itself.
    public static func distinct(_ requests: [RenditionRequest], width: Int, height: Int) -> [RenditionRequest] {
        var kept: [RenditionRequest] = []
        var lastSize: (width: Int, height: Int)?
        for request in requests {
            let size = outputSize(request, width: width, height: height)
            if let lastSize, lastSize == size { continue }
            kept.append(request)
            lastSize = size
        }
        return kept
    }

    /// What is published of `photo`, its renditions made from a `width`×`height` image: every kind
    /// has thumbnails, screen renditions and row renditions; a still or a RAW a tile pyramid when it is large
    /// enough, an animated photo its animation, a video its web video, a Live Photo both a pyramid
    /// and its clip's web video. A remote photo's page shows the sizes its own site publishes
    /// unless it has screen renditions of its own (`screensOfItsOwn`: a Flickr favorite's).
    public func media(of photo: Photo, width: Int, height: Int, screensOfItsOwn: Bool = true) -> PhotoMedia {
        let (checksum, colour) = (photo.checksum, photo.colour)
        var media = PhotoMedia(
            thumbnails: files(Self.distinct(thumbnails, width: width, height: height), checksum: checksum,
                              width: width, height: height, colour: colour),
            screens: files(Self.distinct(screens, width: width, height: height), checksum: checksum,
                           width: width, height: height, colour: colour))
        media.rows = files(rowRenditions(width: width, height: height), checksum: checksum, width: width, height: height, colour: colour)
        let pyramid = { self.pyramid(checksum: checksum, width: width, height: height, colour: colour) }
        switch photo.kind {
        case .still, .raw:
            media.tiles = pyramid()
        case .animated:
            media.animation = animationFile(checksum: checksum, format: photo.format)
        case .video:
            media.video = videoFile(checksum: checksum)
        case .livePhoto:
            media.tiles = pyramid()
            media.video = videoFile(checksum: photo.motion?.videoChecksum(photoChecksum: checksum) ?? checksum)
        case .remote:
            if screensOfItsOwn {
                media.tiles = pyramid()
            } else if let remote = photo.remote {
                media.screens = RenditionFiles(remote: remote.sizes)
                media.rows = RenditionFiles(files: [], format: .jpeg)
            }
        }
        return media
    }

    /// The row renditions of a `width`×`height` photo, largest first: a screen rendition where one
    /// has the row's size already (a small photo's), so no file is made twice.
    public func rowRenditions(width: Int, height: Int) -> [RenditionRequest] {
        let screens = Self.distinct(self.screens, width: width, height: height)
        return Self.distinct(rows, width: width, height: height).map { row in
            let size = Self.outputSize(row, width: width, height: height)
            return screens.first { Self.outputSize($0, width: width, height: height) == size } ?? row
        }
    }

    /// `requests` (distinct, largest first) of a photo as files, with their JPEG twins when the
    /// site makes them.
    func files(_ requests: [RenditionRequest], checksum: String, width: Int, height: Int, colour source: SourceColour) -> RenditionFiles {
        func file(_ request: RenditionRequest) -> RenditionFiles.File {
            let size = Self.outputSize(request, width: width, height: height)
            return RenditionFiles.File(path: fileName(request, checksum: checksum, colour: source), width: size.width, height: size.height)
        }
        let twins = requests.compactMap(fallback(of:))
        return RenditionFiles(files: requests.map(file), format: requests.first?.format ?? .jpeg,
                              twins: twins.isEmpty ? nil : twins.map(file))
    }

    /// The deep-zoom pyramid of a photo, when the site makes tiles and the photo needs them.
    public func pyramid(checksum: String, width: Int, height: Int, colour source: SourceColour) -> TilePyramid? {
        guard let tiles, let minLevel = tiles.minLevel(width: width, height: height) else { return nil }
        return TilePyramid(width: width, height: height, tileSize: tiles.tileSize, overlap: tiles.overlap,
                           format: tiles.format.fileExtension, minLevel: minLevel,
                           maxLevel: TileRequest.maxLevel(width: width, height: height),
                           tilesBase: tilesFolder(tiles, checksum: checksum, colour: source))
    }
}

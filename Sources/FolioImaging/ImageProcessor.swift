import FolioCore
import Foundation

/// Reads photos and makes their renditions. A value with no shared state: every call creates
/// and frees its own decoder and images, so builds call it from many tasks at once.
public struct ImageProcessor: Sendable {
    /// Width x height above which a photo is refused before any pixel is decoded.
    public var pixelLimit: Int
    /// The same for formats decoded whole (PNG, GIF, WebP, AVIF, HEIC, TIFF): a JPEG is decoded only as
    /// large as its largest rendition needs, those always at full size, so fewer pixels cost as
    /// much memory.
    public var fullDecodePixelLimit: Int
    /// Where the time goes, when someone wants to know.
    public var clock: ImagingClock?
    /// What renditions of photos that are not sRGB get: converted to sRGB, or kept with a profile.
    public var colour: ColourSetting

    public init(
        pixelLimit: Int = 100_000_000, fullDecodePixelLimit: Int = 40_000_000, clock: ImagingClock? = nil,
        colour: ColourSetting = .convert
    ) {
        self.pixelLimit = pixelLimit
        self.fullDecodePixelLimit = fullDecodePixelLimit
        self.clock = clock
        self.colour = colour
    }

    /// The pixel limit of a format. A RAW is held to `pixelLimit` as a JPEG is: most of its
    /// renditions come from its camera's preview, and cameras' sensors reach 61 megapixels; what
    /// developing one costs, the images step schedules for (`memoryCost`).
    func limit(for format: ImageFormat) -> Int {
        format == .jpeg || format == .raw ? pixelLimit : min(pixelLimit, fullDecodePixelLimit)
    }

    /// What a photo file is, from its header and EXIF: no pixel is decoded.
    public func metadata(of data: Data) throws -> ImageMetadata {
        let header = try ImageHeader.read(data)
        try header.checkPixelLimit(limit(for: header.format))
        var exif = header.exif.flatMap { ExifReader(block: $0)?.fields } ?? ExifFields()
        if let rawExif = header.rawExif { exif = exif.filled(from: rawExif) }
        let orientation = ImageOrientation(exif: header.orientation ?? exif.orientation ?? 1)
        let upright = orientation.uprightSize(width: header.width, height: header.height)
        let colour = Self.sourceColour(of: data, header: header, exif: exif)
        var metadata = ImageMetadata(
            format: header.format, width: upright.width, height: upright.height, orientation: orientation.rawValue,
            taken: exif.taken, camera: exif.camera, artist: exif.artist, exposure: exif.exposure,
            latitude: exif.latitude, longitude: exif.longitude, colour: colour.colour, colourProblem: colour.problem,
            transparent: header.hasAlpha && (header.format == .webp || Self.usesAlpha(data, format: header.format)),
            animated: header.animated)
        metadata.lens = exif.lensModel
        return metadata
    }

    /// Every requested rendition from a single decode, in the order of `requests`. `metadata` is
    /// what `metadata(of:)` read of the same file (a build keeps it in the model): its format,
    /// size and orientation, so neither the header nor the EXIF is parsed again. A file that is
    /// no longer what it says (changed since) is refused by the decoder.
    public func renditions(of data: Data, metadata: ImageMetadata, requests: [RenditionRequest]) throws -> [Rendition] {
        try makeRenditions(of: data, metadata: metadata, requests: requests).renditions
    }

    /// The renditions, and from the same decode the deep-zoom tiles `tiles` asks for (none when
    /// the photo is no larger than `tiles.coveredUpTo`), each handed to `tileSink` once encoded.
    public func renditions(
        of data: Data, metadata: ImageMetadata, requests: [RenditionRequest],
        tiles: TileRequest?, tileSink: (Tile) throws -> Void
    ) throws -> [Rendition] {
        try makeRenditions(of: data, metadata: metadata, requests: requests, tiles: tiles, tileSink: tileSink).renditions
    }
}

extension ImageProcessor {
    /// Whether a PNG that has an alpha channel, or a GIF that names a transparent colour, uses
    /// it: exports and screenshots often carry one that is opaque everywhere, and those are
    /// published as photos (JPEG), not as PNG, which would weigh several times as much. Only
    /// such files are decoded here, at import. One that cannot be decoded is not transparent:
    /// rendering it reports the damage.
    static func usesAlpha(_ data: Data, format: ImageFormat) -> Bool {
        let image: GDImage?
        switch format {
        case .png:
            image = (try? ImageHeader.pngPixelChunks(data)).flatMap { try? GDImage.decode($0, format: .png, keepingAlpha: true) }
        case .gif:
            image = ImageHeader.gifFirstFrameIsComplete(ByteReader(data)) ? try? GDImage.decode(data, format: .gif, keepingAlpha: true) : nil
        default:
            image = nil
        }
        return image?.isTransparent ?? false
    }

    /// Whether this machine's libraries can write `format` (libgd is built with or without
    /// libwebp and libavif): a site asking for a format they cannot write stops at once.
    public static func canEncode(_ format: EncodedFormat) -> Bool {
        let pixels = PixelBuffer(width: 8, height: 8) { $0.initialize(repeating: 0x336699, count: 64) }
        return (try? ImageProcessor().encode(pixels, as: format, quality: 50, layout: .baseline)) != nil
    }

    /// The pixels of an image file as stored (its EXIF orientation not applied); a JPEG at
    /// 1/`scaleDenominator` of its size (1, 2, 4 or 8), decoded that small by libjpeg-turbo.
    public func pixels(of data: Data, scaleDenominator: Int = 1) throws -> PixelBuffer {
        let header = try ImageHeader.read(data)
        try header.checkPixelLimit(limit(for: header.format))
        guard header.format == .jpeg else { return try decodeWhole(data, format: header.format) }
        let factor = TurboJPEGDecoder.scalingFactors.first { $0.num == 1 && $0.denom == scaleDenominator } ?? .one
        return try TurboJPEGDecoder().decode(data, scale: factor)
    }

    /// The animation itself as published: the GIF or WebP with nothing but its frames, their
    /// timing and its loop count (no comments, EXIF, XMP or other application data); nil for a
    /// photo that does not move.
    public func animation(of data: Data, metadata: ImageMetadata) throws -> Data? {
        guard metadata.animated else { return nil }
        switch metadata.format {
        case .gif: return try AnimatedGIF.publishable(data)
        case .webp: return try WebPAnimation.publishable(data)
        default: return nil
        }
    }

    /// Pixels as an image file: JPEG (baseline), PNG, GIF, WebP, AVIF or TIFF. With no metadata at all.
    public func encode(_ pixels: PixelBuffer, as format: ImageFormat, quality: Int) throws -> Data {
        switch format {
        case .jpeg: return try JPEGEncoder.encode(pixels.flattenedOntoWhite(), quality: quality, layout: .baseline)
        default: return try GDImage(pixels: pixels).encoded(as: format, quality: quality)
        }
    }
}

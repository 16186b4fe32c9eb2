import FolioCore
import Foundation

extension ImageProcessor {
    /// What a rendition run did, for tests and benchmarks: the JPEG decode scale, the decoded
    /// (upright) size, and for each request the index of the rendition it was resampled from
    /// (nil: from the decoded image).
    struct RenditionRun {
        var renditions: [Rendition]
        var decodeScale: ScalingFactor
        var decodedWidth: Int
        var decodedHeight: Int
        var sources: [Int?]
    }

    func makeRenditions(
        of data: Data, metadata: ImageMetadata, requests: [RenditionRequest], reuseRenditions: Bool = true,
        tiles: TileRequest? = nil, tileSink: (Tile) throws -> Void = { _ in }
    ) throws -> RenditionRun {
        try requests.forEach(ImageProcessor.validate)
        let orientation = ImageOrientation(exif: metadata.orientation)
        // The same axes swap undoes the turn: the size as stored.
        let stored = orientation.uprightSize(width: metadata.width, height: metadata.height)
        let header = ImageHeader(format: metadata.format, width: stored.width, height: stored.height)
        try header.checkPixelLimit(limit(for: header.format))
        let wantsTiles = tiles?.minLevel(width: metadata.width, height: metadata.height) != nil
        if requests.isEmpty && !wantsTiles {
            return RenditionRun(renditions: [], decodeScale: .one, decodedWidth: 0, decodedHeight: 0, sources: [])
        }

        // sRGB photos, most of them, take no colour work at all: not even a look at the profile.
        let colour: (transform: ColourTransform?, profile: Data?) =
            metadata.colour == .sRGB ? (nil, nil) : colourWork(for: data, metadata: metadata)

        // Sizes come from the full upright size, so they do not depend on the decode scale.
        let decoded: PixelBuffer
        let scale: ScalingFactor
        let plan: RenditionPlan
        if header.format == .jpeg {
            plan = RenditionPlan(requests: requests, uprightWidth: metadata.width, uprightHeight: metadata.height)
            // Tiles go up to the original's resolution, so they need the full decode.
            scale = wantsTiles ? .one : plan.decodeScale(
                storedWidth: header.width, storedHeight: header.height, orientation: orientation,
                factors: TurboJPEGDecoder.scalingFactors)
            decoded = try clock.time(.decode) {
                try TurboJPEGDecoder().decode(data, scale: scale, expecting: (header.width, header.height), colour: colour.transform)
                    .oriented(orientation)
            }
        } else if header.format == .raw,
                  let preview = try clock.time(.decode, { try rawPreview(data, metadata: metadata, requests: requests, fullSize: wantsTiles) }) {
            // The camera's own development, when it is as large as every rendition (and as the
            // picture, for tiles): resampled from there to the sizes the developed picture gives.
            decoded = preview
            scale = .one
            plan = RenditionPlan(requests: requests, uprightWidth: metadata.width, uprightHeight: metadata.height)
        } else {
            decoded = try clock.time(.decode) {
                let pixels = try decodeWhole(data, format: header.format, keepingAlpha: metadata.transparent)
                return (colour.transform.map(pixels.converted(by:)) ?? pixels).oriented(orientation)
            }
            guard decoded.width == metadata.width, decoded.height == metadata.height else {
                throw ImagingError.changed(expected: (metadata.width, metadata.height), found: (decoded.width, decoded.height))
            }
            scale = .one
            plan = RenditionPlan(requests: requests, uprightWidth: decoded.width, uprightHeight: decoded.height)
        }

        // With tiles, the pyramid's lowest level is the source: already within 2x of the renditions.
        let base = wantsTiles ? try makeTiles(from: decoded, request: tiles!, profile: colour.profile, sink: tileSink) : decoded

        var renditions = [Rendition?](repeating: nil, count: requests.count)
        var sources = [Int?](repeating: nil, count: requests.count)
        var fullFrames: [(index: Int, image: PixelBuffer)] = []
        // The same geometry in another format (a WebP rendition's JPEG twin) takes the same pixels.
        var pixelsByGeometry: [RenditionGeometry: (index: Int?, image: PixelBuffer)] = [:]
        for index in plan.order {
            let geometry = plan.geometries[index]
            let candidates = reuseRenditions ? fullFrames.map { ($0.index, $0.image.width, $0.image.height) } : []
            let sourceIndex: Int?
            let image: PixelBuffer
            if let same = pixelsByGeometry[geometry] {
                (sourceIndex, image) = same
            } else {
                sourceIndex = RenditionPlan.source(for: geometry, among: candidates)
                let source = sourceIndex.flatMap { wanted in fullFrames.first { $0.index == wanted }?.image } ?? base
                image = clock.time(.resample) { resample(source, to: geometry) }
                pixelsByGeometry[geometry] = (sourceIndex, image)
            }
            let request = requests[index]
            let bytes = try clock.time(.encode) {
                try encode(image, as: request.format, quality: request.quality,
                           layout: JPEGEncoder.layout(width: image.width, height: image.height), profile: colour.profile)
            }
            renditions[index] = Rendition(request: request, width: image.width, height: image.height, bytes: bytes)
            sources[index] = sourceIndex
            if !geometry.cropsToSquare { fullFrames.append((index, image)) }
        }
        return RenditionRun(
            renditions: renditions.compactMap { $0 }, decodeScale: scale,
            decodedWidth: decoded.width, decodedHeight: decoded.height, sources: sources)
    }

    /// A RAW's embedded preview, upright, when it covers every one of `requests` (and, with
    /// `fullSize`, the developed picture's whole size, which tiles go up to) and has the picture's
    /// proportions (within 1%); nil otherwise, and the RAW is developed. Like any JPEG, decoded
    /// only as large as the largest rendition needs; at full size, resampled to the picture's size
    /// where it differs by a few pixels.
    private func rawPreview(_ data: Data, metadata: ImageMetadata, requests: [RenditionRequest], fullSize: Bool) throws -> PixelBuffer? {
        let plan = RenditionPlan(requests: requests, uprightWidth: metadata.width, uprightHeight: metadata.height)
        guard let jpeg = try RAWDecoder(data).embeddedPreview(), let header = try? ImageHeader.read(jpeg), header.format == .jpeg
        else { return nil }
        let orientation = ImageOrientation(exif: metadata.orientation)
        let upright = orientation.uprightSize(width: header.width, height: header.height)
        let proportions = Double(upright.width) * Double(metadata.height) / (Double(upright.height) * Double(metadata.width))
        guard abs(proportions - 1) <= 0.01, plan.geometries.allSatisfy({ $0.canBeMade(fromWidth: upright.width, height: upright.height) }),
              !fullSize || (upright.width >= metadata.width && upright.height >= metadata.height)
        else { return nil }
        try header.checkPixelLimit(limit(for: .jpeg))
        let scale = fullSize ? .one : plan.decodeScale(storedWidth: header.width, storedHeight: header.height, orientation: orientation,
                                                       factors: TurboJPEGDecoder.scalingFactors)
        let preview = try TurboJPEGDecoder().decode(jpeg, scale: scale).oriented(orientation)
        guard fullSize, preview.width != metadata.width || preview.height != metadata.height else { return preview }
        return preview.resampled(toWidth: metadata.width, height: metadata.height)
    }

    /// About how many bytes making `requests` (and `tiles`) of a photo takes at its peak: the
    /// decoded pixels, at the scale a JPEG is decoded at, and the copies made of them (libgd's
    /// own image beside Folio's pixels, a turned copy, the first halving of a pyramid), and the
    /// renditions themselves, full frames being kept as the sources of smaller ones. What the
    /// images step schedules against its memory limit.
    public func memoryCost(metadata: ImageMetadata, requests: [RenditionRequest], tiles: TileRequest?) -> Int {
        let orientation = ImageOrientation(exif: metadata.orientation)
        let stored = orientation.uprightSize(width: metadata.width, height: metadata.height)
        let wantsTiles = tiles?.minLevel(width: metadata.width, height: metadata.height) != nil
        var pixels = stored.width * stored.height
        let renditionBytes = RenditionPlan(requests: requests, uprightWidth: stored.width, uprightHeight: stored.height)
            .geometries.reduce(0) { $0 + $1.width * $1.height * 4 }
        if metadata.format == .jpeg, !wantsTiles {
            let plan = RenditionPlan(requests: requests, uprightWidth: metadata.width, uprightHeight: metadata.height)
            let scale = plan.decodeScale(storedWidth: stored.width, storedHeight: stored.height, orientation: orientation,
                                         factors: TurboJPEGDecoder.scalingFactors)
            pixels = scale.scaled(stored.width) * scale.scaled(stored.height)
        }
        // LibRaw keeps the sensor's data (2 bytes a pixel), four channels of 16 bits while it
        // develops, and its 8-bit result, beside Folio's pixels.
        var bytesPerPixel = switch metadata.format {
        case .jpeg: 4
        case .raw: 17
        case .png, .gif, .webp, .avif, .heic, .tiff: 8
        }
        // libwebp's animation decoder keeps two canvases of its own; an opaque one's still is
        // composed onto white in a copy.
        if metadata.format == .webp, metadata.animated { bytesPerPixel += 8 }
        if orientation != .up { bytesPerPixel += 4 }
        if wantsTiles { bytesPerPixel += 1 }
        return pixels * bytesPerPixel + renditionBytes + 8 << 20
    }

    /// PNG, GIF, WebP, AVIF, HEIC, TIFF and RAW, as stored (not turned), at full size: a RAW
    /// developed by LibRaw, HEIC through libheif, an animated WebP's first frame through libwebp,
    /// the rest through libgd. PNG, WebP and GIF keep their alpha if `keepingAlpha`.
    func decodeWhole(_ data: Data, format: ImageFormat, keepingAlpha: Bool = false) throws -> PixelBuffer {
        if format == .webp, ImageHeader.isAnimatedWebP(ByteReader(data)) {
            return try WebPAnimation(data).firstFrame(alpha: keepingAlpha, limit: limit(for: .webp))
        }
        if format == .raw { return try RAWDecoder(data).developed(limit: limit(for: .raw)) }
        guard format == .heic else {
            let alpha = keepingAlpha && [.png, .webp, .gif].contains(format)
            return try decodeWithLibgd(data, format: format, keepingAlpha: alpha).pixels(alpha: alpha)
        }
        // As stored, then cut to its clean aperture if it has one (before it is turned).
        let pixels = try HEIFDecoder(data).pixels(limit: limit(for: .heic))
        guard let crop = ImageHeader.readHEIC(ByteReader(data))?.crop,
              crop.x + crop.width <= pixels.width, crop.y + crop.height <= pixels.height else { return pixels }
        return pixels.cropped(x: crop.x, y: crop.y, width: crop.width, height: crop.height)
    }

    /// PNG, GIF, WebP, AVIF and TIFF, after the checks libgd does not make for itself.
    private func decodeWithLibgd(_ data: Data, format: ImageFormat, keepingAlpha: Bool) throws -> GDImage {
        switch format {
        case .gif:
            guard ImageHeader.gifFirstFrameIsComplete(ByteReader(data)) else {
                throw ImagingError.corrupt(.gif, detail: "the first frame's data is cut short, or too little for its size")
            }
            return try GDImage.decode(data, format: .gif, keepingAlpha: keepingAlpha)
        case .png:
            return try GDImage.decode(try ImageHeader.pngPixelChunks(data), format: .png, keepingAlpha: keepingAlpha)
        case .webp:
            return try GDImage.decode(data, format: .webp, keepingAlpha: keepingAlpha)
        case .tiff:
            return try GDImage.decode(ImageHeader.tiffAsStored(data), format: .tiff)
        case .jpeg, .avif, .heic, .raw:
            return try GDImage.decode(data, format: format)
        }
    }

    private func resample(_ source: PixelBuffer, to geometry: RenditionGeometry) -> PixelBuffer {
        let framed = geometry.cropsToSquare ? source.croppedToCentredSquare() : source
        return framed.resampled(toWidth: geometry.width, height: geometry.height)
    }

    /// JPEG through libjpeg, straight from the pixels; WebP, AVIF and PNG through libgd. `profile`
    /// (a `keep` rendition's ICC profile) goes into JPEG's APP2 and WebP's ICCP; libgd cannot put
    /// one in AVIF, so the settings refuse `keep` with AVIF and this refuses it too. WebP and PNG
    /// keep the pixels' alpha; JPEG and AVIF get them composed onto white.
    func encode(
        _ image: PixelBuffer, as format: EncodedFormat, quality: Int, layout: JPEGEncoder.Layout, profile: Data? = nil
    ) throws -> Data {
        switch format {
        case .jpeg:
            return try JPEGEncoder.encode(image.flattenedOntoWhite(), quality: quality, layout: layout, profile: profile)
        case .png:
            // Transparent photos only, whose colours `colourWork` always converts to sRGB.
            guard profile == nil else { throw ImagingError(reason: "PNG renditions cannot carry a colour profile") }
            return try GDImage(pixels: image).encoded(as: .png, quality: quality)
        case .webp:
            let bytes = try GDImage(pixels: image).encoded(as: .webp, quality: quality)
            guard let profile else { return bytes }
            return try WebPContainer.embedding(profile, in: bytes, width: image.width, height: image.height)
        case .avif:
            guard profile == nil else { throw ImagingError(reason: "AVIF renditions cannot carry a colour profile (colour \"keep\")") }
            return try GDImage(pixels: image.flattenedOntoWhite()).encoded(as: .avif, quality: quality)
        }
    }

    private static func validate(_ request: RenditionRequest) throws {
        guard request.width > 0 else { throw ImagingError.invalidRequest(request, "width must be positive") }
        guard request.fit == .squareCrop || request.height > 0 else {
            throw ImagingError.invalidRequest(request, "height must be positive")
        }
        guard (1...100).contains(request.quality) else {
            throw ImagingError.invalidRequest(request, "quality must be 1...100")
        }
    }
}

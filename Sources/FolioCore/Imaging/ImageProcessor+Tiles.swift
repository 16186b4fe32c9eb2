import Foundation

extension ImageProcessor {
    /// Cuts the levels of a Deep Zoom pyramid from a full-resolution upright image, top level
    /// first, each level halved from the one above, handing every tile to `sink` as it is
    /// encoded so a pyramid is never held in memory whole. Returns the lowest level made: at most
    /// twice the size of what the screen rendition needs, the cheap source for the renditions.
    /// `profile` is the ICC profile every tile embeds (`colour: "keep"`), as the renditions do.
    func makeTiles(
        from full: PixelBuffer, request: TileRequest, profile: Data? = nil, sink: (Tile) throws -> Void
    ) throws -> PixelBuffer {
        guard let lowest = request.minLevel(width: full.width, height: full.height) else { return full }
        var level = TileRequest.maxLevel(width: full.width, height: full.height)
        var image = full
        while level >= lowest {
            try cutTiles(of: image, level: level, request: request, profile: profile, sink: sink)
            guard level > lowest else { break }
            let above = image
            image = clock.time(.resample) { above.halved() }
            level -= 1
        }
        return image
    }

    private func cutTiles(
        of image: PixelBuffer, level: Int, request: TileRequest, profile: Data?, sink: (Tile) throws -> Void
    ) throws {
        let size = request.tileSize, overlap = request.overlap
        let columns = (image.width + size - 1) / size
        let rows = (image.height + size - 1) / size
        for row in 0..<rows {
            for column in 0..<columns {
                let x = max(0, column * size - overlap)
                let y = max(0, row * size - overlap)
                let right = min(image.width, (column + 1) * size + overlap)
                let bottom = min(image.height, (row + 1) * size + overlap)
                let bytes = try clock.time(.encode) {
                    try encode(image.cropped(x: x, y: y, width: right - x, height: bottom - y),
                               as: request.format, quality: request.quality, layout: .baseline, profile: profile)
                }
                try sink(Tile(level: level, column: column, row: row, bytes: bytes))
            }
        }
    }
}

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
        let grid = request.grid(width: full.width, height: full.height)
        var level = grid.maxLevel
        var image = full
        while level >= lowest {
            try cutTiles(of: image, level: grid.level(level), grid: grid, request: request, profile: profile, sink: sink)
            guard level > lowest else { break }
            let above = image
            image = clock.time(.resample) { above.halved() }
            level -= 1
        }
        return image
    }

    private func cutTiles(
        of image: PixelBuffer, level: TileGrid.Level, grid: TileGrid, request: TileRequest, profile: Data?, sink: (Tile) throws -> Void
    ) throws {
        assert(image.width == level.width && image.height == level.height, "a level is halved as TileGrid says")
        for row in 0..<level.rows {
            for column in 0..<level.columns {
                let rect = grid.tile(column: column, row: row, of: level)
                let bytes = try clock.time(.encode) {
                    try encode(image.cropped(x: rect.x, y: rect.y, width: rect.width, height: rect.height),
                               as: request.format, quality: request.quality, layout: .baseline, profile: profile)
                }
                try sink(Tile(level: level.level, column: column, row: row, bytes: bytes))
            }
        }
    }
}

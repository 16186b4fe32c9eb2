import Foundation

extension ImageProcessor {
    /// Cuts the levels of a Deep Zoom pyramid from a full-resolution upright image, top level
    /// first, each level halved from the one above, handing every tile to `sink` as it is
    /// encoded so a pyramid is never held in memory whole.
    func makeTiles(from full: GDImage, request: TileRequest, sink: (Tile) throws -> Void) throws -> Int {
        guard let lowest = request.minLevel(width: full.width, height: full.height) else { return 0 }
        var level = TileRequest.maxLevel(width: full.width, height: full.height)
        var image = full
        var count = 0
        while level >= lowest {
            count += try cutTiles(of: image, level: level, request: request, sink: sink)
            guard level > lowest else { break }
            image = try image.scaled(toWidth: (image.width + 1) / 2, height: (image.height + 1) / 2)
            level -= 1
        }
        return count
    }

    private func cutTiles(of image: GDImage, level: Int, request: TileRequest, sink: (Tile) throws -> Void) throws -> Int {
        let size = request.tileSize, overlap = request.overlap
        let columns = (image.width + size - 1) / size
        let rows = (image.height + size - 1) / size
        for row in 0..<rows {
            for column in 0..<columns {
                let x = max(0, column * size - overlap)
                let y = max(0, row * size - overlap)
                let right = min(image.width, (column + 1) * size + overlap)
                let bottom = min(image.height, (row + 1) * size + overlap)
                let tile = try image.cropped(x: x, y: y, width: right - x, height: bottom - y)
                var bytes = try tile.encoded(as: request.format.imageFormat, quality: request.quality)
                if request.format == .jpeg { bytes = JPEGSegments.removingComments(from: bytes) }
                try sink(Tile(level: level, column: column, row: row, bytes: bytes))
            }
        }
        return columns * rows
    }
}

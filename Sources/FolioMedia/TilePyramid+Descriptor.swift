import FolioImaging
import Foundation

extension TilePyramid {
    /// The grid its tiles were cut by.
    public var grid: TileGrid { TileGrid(width: width, height: height, tileSize: tileSize, overlap: overlap) }

    /// Everything the viewer needs to place the tiles, as one JSON value (the photo page's
    /// `data-pyramid`): tile size, overlap, format, and each level with tiles, its size, columns and
    /// rows. The viewer and the browser tests read the grid from it rather than work it out; where
    /// the tiles are (`tilesBase`) depends on the page, and stays in `data-tiles`.
    public var descriptor: String {
        struct Descriptor: Encodable {
            var width: Int
            var height: Int
            var tileSize: Int
            var overlap: Int
            var format: String
            var minLevel: Int
            var maxLevel: Int
            var levels: [TileGrid.Level]
        }
        let grid = grid
        let value = Descriptor(width: width, height: height, tileSize: tileSize, overlap: overlap, format: format,
                               minLevel: minLevel, maxLevel: maxLevel, levels: (minLevel...maxLevel).map(grid.level))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a value of integers and strings cannot fail.
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

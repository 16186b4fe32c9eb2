import FolioCore
/// A deep-zoom tile pyramid wanted of a photo, laid out as Deep Zoom (DZI) does (`TileGrid`).
public struct TileRequest: Sendable, Hashable {
    public var tileSize: Int
    public var overlap: Int
    public var format: EncodedFormat
    public var quality: Int
    /// Levels whose longest side is at most this are not made: the screen rendition covers them.
    public var coveredUpTo: Int

    public init(tileSize: Int = 256, overlap: Int = 1, format: EncodedFormat = .jpeg, quality: Int = 80, coveredUpTo: Int) {
        self.tileSize = tileSize
        self.overlap = overlap
        self.format = format
        self.quality = quality
        self.coveredUpTo = coveredUpTo
    }

    /// The level at which a photo of this size has its full resolution.
    public static func maxLevel(width: Int, height: Int) -> Int {
        TileGrid.maxLevel(width: width, height: height)
    }

    /// The grid a photo of this size is cut by.
    public func grid(width: Int, height: Int) -> TileGrid {
        TileGrid(width: width, height: height, tileSize: tileSize, overlap: overlap)
    }

    /// The lowest level made for a photo of this size, or nil when the photo needs no tiles: the
    /// last level, going down, whose longest side the screen rendition does not cover.
    public func minLevel(width: Int, height: Int) -> Int? {
        guard max(width, height) > coveredUpTo else { return nil }
        let grid = grid(width: width, height: height)
        var level = grid.maxLevel
        while level > 0 {
            let below = grid.level(level - 1)
            if max(below.width, below.height) <= coveredUpTo { break }
            level -= 1
        }
        return level
    }
}

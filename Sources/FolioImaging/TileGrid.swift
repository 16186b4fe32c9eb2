/// How a Deep Zoom pyramid of a photo is laid out, written once: the tiles are cut by it
/// (`ImageProcessor.makeTiles`), the photo's page hands it to the viewer as one JSON value
/// (`TilePyramid.descriptor`), and the tests read that value rather than working it out again.
///
/// Level L is the photo scaled to ceil(size / 2^(maxLevel - L)), maxLevel = ceil(log2(longest
/// side)); each level is cut into `tileSize` squares, column by column and row by row, each
/// reaching `overlap` pixels into its neighbours where it has them.
public struct TileGrid: Sendable, Equatable {
    public struct Level: Sendable, Equatable, Encodable {
        public var level: Int
        public var width: Int
        public var height: Int
        public var columns: Int
        public var rows: Int
    }

    public struct Rect: Sendable, Equatable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
    }

    /// The photo's upright size: the top level's.
    public var width: Int
    public var height: Int
    public var tileSize: Int
    public var overlap: Int

    public init(width: Int, height: Int, tileSize: Int, overlap: Int) {
        self.width = width
        self.height = height
        self.tileSize = tileSize
        self.overlap = overlap
    }

    /// The level at which the photo has its full resolution.
    public var maxLevel: Int { Self.maxLevel(width: width, height: height) }

    /// The level at which a photo of this size has its full resolution: ceil(log2(longest side)).
    public static func maxLevel(width: Int, height: Int) -> Int {
        var level = 0
        while (1 << level) < max(width, height) { level += 1 }
        return level
    }

    /// A level's size, as halving the level above it rounds (`PixelBuffer.halved`), and its tiles.
    public func level(_ level: Int) -> Level {
        var (w, h) = (width, height)
        for _ in level..<maxLevel {
            (w, h) = ((w + 1) / 2, (h + 1) / 2)
        }
        return Level(level: level, width: w, height: h,
                     columns: (w + tileSize - 1) / tileSize, rows: (h + tileSize - 1) / tileSize)
    }

    /// The pixels of a level one tile holds, its overlap included.
    public func tile(column: Int, row: Int, of level: Level) -> Rect {
        let x = max(0, column * tileSize - overlap), y = max(0, row * tileSize - overlap)
        let right = min(level.width, (column + 1) * tileSize + overlap)
        let bottom = min(level.height, (row + 1) * tileSize + overlap)
        return Rect(x: x, y: y, width: right - x, height: bottom - y)
    }
}

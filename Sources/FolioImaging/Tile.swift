import Foundation

/// One tile of a pyramid.
public struct Tile: Sendable {
    public var level: Int
    public var column: Int
    public var row: Int
    public var bytes: Data

    /// Where Deep Zoom viewers look for it, below the pyramid's folder.
    public var path: String { "\(level)/\(column)_\(row)" }
}

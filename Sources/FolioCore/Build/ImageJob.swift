import Foundation

/// What one photo still needs made, and where its source is.
public struct ImageJob: Sendable {
    public var photoId: Int64
    public var source: URL
    public var checksum: String
    public var requests: [RenditionRequest]
    /// The pyramid to cut, and the folder it goes to.
    public var tiles: TileRequest?
    public var tilesFolder: String?
    /// The photo's pixel count: what its decode costs, roughly.
    public var pixels: Int
}

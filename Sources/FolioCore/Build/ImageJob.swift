import Foundation

/// The renditions one photo still needs, and where its source is.
public struct ImageJob: Sendable {
    public var photoId: Int64
    public var source: URL
    public var checksum: String
    public var requests: [RenditionRequest]
}

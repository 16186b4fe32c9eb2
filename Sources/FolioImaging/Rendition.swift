import Foundation

/// An encoded image made for a `RenditionRequest`, upright and without any EXIF or GPS data.
public struct Rendition: Sendable {
    public var request: RenditionRequest
    public var width: Int
    public var height: Int
    public var bytes: Data

    public init(request: RenditionRequest, width: Int, height: Int, bytes: Data) {
        self.request = request
        self.width = width
        self.height = height
        self.bytes = bytes
    }
}

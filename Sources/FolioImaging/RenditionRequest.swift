import FolioCore
/// One image Folio wants from a photo: a thumbnail, a screen-sized copy, a responsive width.
public struct RenditionRequest: Sendable, Hashable {
    public enum Fit: String, Sendable, Hashable {
        /// Fit within width x height keeping the aspect ratio, never upscaling.
        case inside
        /// The centred square of side `width` (smaller when the photo is smaller); `height` is ignored.
        case squareCrop
    }

    /// What the site calls it, e.g. "thumb", "screen".
    public var name: String
    public var width: Int
    public var height: Int
    public var fit: Fit
    public var format: EncodedFormat
    /// Encoder quality, 1...100.
    public var quality: Int

    public init(name: String, width: Int, height: Int, fit: Fit, format: EncodedFormat, quality: Int) {
        self.name = name
        self.width = width
        self.height = height
        self.fit = fit
        self.format = format
        self.quality = quality
    }
}

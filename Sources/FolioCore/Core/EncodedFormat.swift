/// A format Folio publishes renditions in: JPEG everywhere; WebP or AVIF, smaller, for browsers
/// that take them, with JPEG twins for the rest.
public enum EncodedFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case jpeg, webp, avif

    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .webp: return "webp"
        case .avif: return "avif"
        }
    }

    /// The `type` of a `<picture>` `<source>`.
    public var mimeType: String {
        switch self {
        case .jpeg: return "image/jpeg"
        case .webp: return "image/webp"
        case .avif: return "image/avif"
        }
    }
}

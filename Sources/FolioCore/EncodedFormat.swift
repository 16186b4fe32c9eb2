/// A format Folio publishes renditions in: JPEG everywhere; WebP or AVIF, smaller, for browsers
/// that take them, with JPEG twins for the rest. PNG only stands in for JPEG (and WebP for
/// AVIF) in the renditions of transparent photos, which JPEG and AVIF would flatten.
public enum EncodedFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case jpeg, webp, avif, png

    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .webp: return "webp"
        case .avif: return "avif"
        case .png: return "png"
        }
    }

    /// The `type` of a `<picture>` `<source>`.
    public var mimeType: String {
        switch self {
        case .jpeg: return "image/jpeg"
        case .webp: return "image/webp"
        case .avif: return "image/avif"
        case .png: return "image/png"
        }
    }

    /// What a transparent photo's rendition is made in instead: a format that keeps alpha.
    public var keepingTransparency: EncodedFormat {
        switch self {
        case .jpeg, .png: return .png
        case .webp, .avif: return .webp
        }
    }
}

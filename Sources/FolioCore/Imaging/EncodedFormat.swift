/// A format Folio publishes renditions in: JPEG everywhere, WebP where it is smaller.
public enum EncodedFormat: String, Sendable, Hashable, Codable {
    case jpeg, webp

    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .webp: return "webp"
        }
    }

    var imageFormat: ImageFormat {
        switch self {
        case .jpeg: return .jpeg
        case .webp: return .webp
        }
    }
}

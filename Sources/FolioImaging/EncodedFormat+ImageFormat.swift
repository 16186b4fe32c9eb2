import FolioCore
extension EncodedFormat {
    /// The file format the encoders write it as.
    var imageFormat: ImageFormat {
        switch self {
        case .jpeg: return .jpeg
        case .webp: return .webp
        case .avif: return .avif
        case .png: return .png
        }
    }
}

import Foundation

/// The renditions a site makes of every photo, from its settings.
public struct RenditionSet: Sendable {
    /// Square crop for grids and list rows; its bytes are kept in the model.
    public let thumbnail: RenditionRequest
    /// Fits the screen, on the photo's page; only ever a file in `public/`.
    public let screen: RenditionRequest

    public init(_ settings: SiteSettings) {
        thumbnail = RenditionRequest(name: "thumb", width: settings.thumbnailSize, height: settings.thumbnailSize,
                                     fit: .squareCrop, format: .jpeg, quality: settings.quality)
        screen = RenditionRequest(name: "screen", width: settings.screenSize, height: settings.screenSize,
                                  fit: .inside, format: .jpeg, quality: settings.quality)
    }

    public var all: [RenditionRequest] { [thumbnail, screen] }

    /// Everything that changes the bytes, so a changed setting is a different rendition.
    public static func spec(_ request: RenditionRequest) -> String {
        "\(request.name) \(request.width)x\(request.height) \(request.fit.rawValue) \(request.format.rawValue) q\(request.quality)"
    }

    /// Named by the source's checksum and the spec: unchanged photos keep their names, so
    /// rebuilds cost nothing and caches can keep them forever.
    public static func fileName(_ request: RenditionRequest, checksum: String) -> String {
        let spec = ContentHash.hex(spec(request)).prefix(6)
        return "media/\(checksum.prefix(16))-\(request.name)-\(spec).\(request.format.fileExtension)"
    }

    /// The pixel size `request` makes of a `width`×`height` (upright) photo.
    public static func outputSize(_ request: RenditionRequest, width: Int, height: Int) -> (width: Int, height: Int) {
        switch request.fit {
        case .squareCrop:
            let side = max(1, min(request.width, width, height))
            return (side, side)
        case .inside:
            guard width > request.width || height > request.height else { return (width, height) }
            let scale = min(Double(request.width) / Double(width), Double(request.height) / Double(height))
            return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
        }
    }
}

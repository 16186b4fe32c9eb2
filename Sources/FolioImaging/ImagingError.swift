/// Why a photo could not be read or rendered. The build names the file; this says what is
/// wrong with it, in words a gallery owner can act on.
public struct ImagingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }

    static let notAnImage = ImagingError(reason: "not an image (unknown format)")
    static let emptyFile = ImagingError(reason: "not an image (empty file)")

    static func corrupt(_ format: ImageFormat, detail: String? = nil) -> ImagingError {
        let name = format.rawValue.uppercased()
        guard let detail, !detail.isEmpty else { return ImagingError(reason: "corrupt or truncated \(name) data") }
        return ImagingError(reason: "corrupt or truncated \(name) data (\(detail))")
    }

    static func overLimit(width: Int, height: Int, limit: Int, wholeDecode: Bool = false) -> ImagingError {
        ImagingError(reason: "\(width)x\(height) pixels is over the limit of \(limit)"
            + (wholeDecode ? " for images decoded whole (fullDecodePixelLimit)" : ""))
    }

    /// The file is not the one the build read a moment ago (it was replaced while building).
    static func changed(expected: (Int, Int), found: (Int, Int)) -> ImagingError {
        ImagingError(reason: "changed while it was being built (\(expected.0)x\(expected.1) pixels before, \(found.0)x\(found.1) now); build again")
    }

    static func invalidRequest(_ request: RenditionRequest, _ problem: String) -> ImagingError {
        ImagingError(reason: "invalid rendition request '\(request.name)' (\(problem))")
    }
}

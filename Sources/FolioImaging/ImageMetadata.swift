import Foundation

/// What a photo file is, read from its header and EXIF without decoding pixels.
public struct ImageMetadata: Sendable, Equatable {
    public var format: ImageFormat
    /// As displayed, i.e. after applying the EXIF orientation (5...8 swap the axes).
    public var width: Int
    public var height: Int
    /// EXIF orientation 1...8; 1 when absent or out of range.
    public var orientation: Int
    /// DateTimeOriginal, else DateTime. EXIF stores local time without a zone; Folio reads it as UTC
    /// so a photo's date shows the same wherever the site is built.
    public var taken: Date?
    /// "Make Model", or the model alone when it already starts with the make.
    public var camera: String?
    public var artist: String?
    /// "1/250 s · f/2.8 · ISO 100 · 35 mm", with only the parts the file has.
    public var exposure: String?
    /// EXIF's LensModel.
    public var lens: String?
    /// Signed decimal degrees: south and west are negative.
    public var latitude: Double?
    public var longitude: Double?
    /// What the pixel values mean: sRGB unless the file says otherwise.
    public var colour: SourceColour
    /// Why the file's own statement of its colour was not taken (a broken profile), when so: a
    /// warning for the report; the photo is published with `colour`.
    public var colourProblem: String?
    /// Whether the picture has transparency (PNG and WebP alpha, a GIF's transparent colour):
    /// its renditions are then PNG or WebP, which keep it, instead of JPEG or AVIF.
    public var transparent: Bool
    /// Whether it moves (a GIF of several frames): its page shows the animation, its thumbnails
    /// and visitors who prefer reduced motion a still of the first frame.
    public var animated: Bool

    public init(
        format: ImageFormat, width: Int, height: Int, orientation: Int = 1,
        taken: Date? = nil, camera: String? = nil, artist: String? = nil, exposure: String? = nil,
        latitude: Double? = nil, longitude: Double? = nil, colour: SourceColour = .sRGB, colourProblem: String? = nil,
        transparent: Bool = false, animated: Bool = false
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
        self.taken = taken
        self.camera = camera
        self.artist = artist
        self.exposure = exposure
        self.latitude = latitude
        self.longitude = longitude
        self.colour = colour
        self.colourProblem = colourProblem
        self.transparent = transparent
        self.animated = animated
    }
}

extension ImageMetadata {
    /// The same file shown turned by `orientation` (an EXIF orientation) in place of its own, as a
    /// sidecar's turn asks: the upright size is the stored size turned that way.
    public func turned(_ orientation: Int) -> ImageMetadata {
        let stored = ImageOrientation(exif: self.orientation).uprightSize(width: width, height: height)
        var turned = self
        (turned.width, turned.height) = ImageOrientation(exif: orientation).uprightSize(width: stored.width, height: stored.height)
        turned.orientation = ImageOrientation(exif: orientation).rawValue
        return turned
    }
}

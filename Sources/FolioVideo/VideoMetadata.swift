import Foundation

/// What a video file is, from its container: no frame decoded. Sizes are upright, as a player
/// shows them (the display matrix applied).
public struct VideoMetadata: Sendable, Equatable {
    /// As displayed: a phone's portrait clip, stored 1920x1080 and turned by its matrix, is 1080x1920.
    public var width: Int
    public var height: Int
    /// Seconds.
    public var duration: Double
    /// How far clockwise the stored picture turns to stand upright: 0, 90, 180 or 270.
    public var rotation: Int
    /// Apple's creation date (local time), else the container's `creation_time`, read as a
    /// camera's EXIF date is: the clock's digits as UTC.
    public var taken: Date?
    /// Signed decimal degrees, from an ISO 6709 location (`©xyz`, Apple's keys).
    public var latitude: Double?
    public var longitude: Double?
    public var title: String?
    public var description: String?
    /// "Apple iPhone 12", from Apple's make and model keys.
    public var camera: String?
    /// FFmpeg's names of the codecs ("h264", "hevc", "aac"); the audio one nil when silent.
    public var videoCodec: String
    public var audioCodec: String?

    public init(width: Int, height: Int, duration: Double, rotation: Int = 0, taken: Date? = nil,
                latitude: Double? = nil, longitude: Double? = nil, title: String? = nil, description: String? = nil,
                camera: String? = nil, videoCodec: String, audioCodec: String? = nil) {
        self.width = width
        self.height = height
        self.duration = duration
        self.rotation = rotation
        self.taken = taken
        self.latitude = latitude
        self.longitude = longitude
        self.title = title
        self.description = description
        self.camera = camera
        self.videoCodec = videoCodec
        self.audioCodec = audioCodec
    }

    /// The EXIF orientation that turns a stored frame upright.
    public var orientation: Int {
        switch rotation {
        case 90: return 6
        case 180: return 3
        case 270: return 8
        default: return 1
        }
    }

    /// The rotation in quarter turns clockwise, from FFmpeg's counter-clockwise degrees; 0 for
    /// anything that is not near a quarter turn (a skewed matrix is played as stored).
    static func clockwiseQuarterTurns(fromCounterClockwise degrees: Double) -> Int {
        guard degrees.isFinite else { return 0 }
        var clockwise = (-degrees).truncatingRemainder(dividingBy: 360)
        if clockwise < 0 { clockwise += 360 }
        for turn in [0, 90, 180, 270, 360] where abs(clockwise - Double(turn)) < 1 { return turn % 360 }
        return 0
    }
}

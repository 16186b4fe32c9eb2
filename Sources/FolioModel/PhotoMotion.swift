import Foundation

/// What moves in a photo: a video (the photo is its poster frame), or a Live Photo's clip (the
/// photo is the still, and the clip a file of its own beside it). Stored as JSON in one
/// column, as `remote` is: read whole with the photo, never queried alone.
public struct PhotoMotion: Codable, Sendable, Equatable, Hashable {
    public enum Kind: String, Codable, Sendable {
        /// The photo is a video file; its stills are its poster frame.
        case video
        /// A still with a short clip of the same name beside it (`IMG_1.HEIC` and `IMG_1.MOV`).
        case live
    }

    public var kind: Kind
    /// Seconds.
    public var duration: Double
    /// A Live Photo's clip, relative to content/, and the checksum of its bytes (what its
    /// published video is named by). Nil for a video: the photo's own source and checksum are.
    public var clip: String?
    public var clipChecksum: String?

    public init(kind: Kind, duration: Double, clip: String? = nil, clipChecksum: String? = nil) {
        self.kind = kind
        self.duration = duration
        self.clip = clip
        self.clipChecksum = clipChecksum
    }

    /// The checksum the published video is named by.
    public func videoChecksum(photoChecksum: String) -> String { clipChecksum ?? photoChecksum }

    /// "0:07", "12:03", "1:02:03": as a card shows it, rounded to the nearest second (a
    /// one-frame clip is "0:00").
    public var durationText: String {
        let seconds = Int(duration.isFinite ? duration.rounded() : 0)
        let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }
}

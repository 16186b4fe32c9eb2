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

    public var kind: Kind {
        get { fields.value.kind }
        set { fields.value.kind = newValue }
    }
    /// Seconds.
    public var duration: Double {
        get { fields.value.duration }
        set { fields.value.duration = newValue }
    }
    /// A Live Photo's clip, relative to content/, and the checksum of its bytes (what its
    /// published video is named by). Nil for a video: the photo's own source and checksum are.
    public var clip: String? {
        get { fields.value.clip }
        set { fields.value.clip = newValue }
    }
    public var clipChecksum: String? {
        get { fields.value.clipChecksum }
        set { fields.value.clipChecksum = newValue }
    }

    /// Held by reference: every photo holds a `PhotoMotion?`, most of them nil, and inline it
    /// was 48 of a photo's 448 bytes; a reference is 8.
    private var fields: Boxed<Fields>

    /// What it holds, as stored (its JSON's keys are these names).
    private struct Fields: Codable, Sendable, Hashable {
        var kind: Kind
        var duration: Double
        var clip: String?
        var clipChecksum: String?
    }

    public init(kind: Kind, duration: Double, clip: String? = nil, clipChecksum: String? = nil) {
        fields = Boxed(Fields(kind: kind, duration: duration, clip: clip, clipChecksum: clipChecksum))
    }

    public init(from decoder: any Decoder) throws {
        fields = Boxed(try Fields(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try fields.value.encode(to: encoder)
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

import Foundation

/// An age as people write it on a command line: "7d", "36h", "2w", "90m".
public struct Age: Sendable, Equatable, CustomStringConvertible {
    public var seconds: TimeInterval
    public var description: String

    static let units: [Character: (seconds: TimeInterval, word: String)] = [
        "m": (60, "minute"), "h": (3600, "hour"), "d": (86_400, "day"), "w": (604_800, "week"),
    ]

    /// Nil for anything else than a whole number and one of m, h, d, w.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard let unit = trimmed.last, let (seconds, word) = Self.units[unit],
              let count = Int(trimmed.dropLast()), count >= 0, count < 100_000 else { return nil }
        self.seconds = TimeInterval(count) * seconds
        description = Wording.count(count, word)
    }
}

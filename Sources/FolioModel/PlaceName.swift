/// A full place name split the way lists show it: "Palo Alto" over "California, United States".
public struct PlaceName: Sendable, Equatable {
    public var full: String
    public var title: String
    public var subtitle: String
    /// The region a place belongs to when nobody said: the part before the country
    /// ("California" for "Palo Alto, California, United States"), or the country itself.
    public var defaultRegion: String

    public init(_ full: String) {
        let parts = full.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        self.full = parts.joined(separator: ", ")
        self.title = parts.first ?? full
        self.subtitle = parts.dropFirst().joined(separator: ", ")
        switch parts.count {
        case 0: defaultRegion = full
        case 1, 2: defaultRegion = parts[parts.count - 1]
        default: defaultRegion = parts[parts.count - 2]
        }
    }
}

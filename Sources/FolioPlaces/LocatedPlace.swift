/// Where a photo's coordinates fall: a full place name ("Palo Alto, California, United States")
/// and the region it counts towards ("California").
public struct LocatedPlace: Sendable, Equatable {
    public var place: String
    public var region: String

    public init(place: String, region: String) {
        self.place = place
        self.region = region
    }
}

/// One town of the offline gazetteer: where it is, how many live there, and the names of its
/// state (or province) and country.
public struct GazetteerCity: Sendable, Equatable {
    public var name: String
    public var state: String
    public var country: String
    public var latitude: Double
    public var longitude: Double
    public var population: Int

    public init(name: String, state: String, country: String, latitude: Double, longitude: Double, population: Int) {
        self.name = name
        self.state = state
        self.country = country
        self.latitude = latitude
        self.longitude = longitude
        self.population = population
    }
}

import FolioCore
import Foundation

/// Names the place of a photo from its GPS coordinates alone, offline: the town it was taken in,
/// else the state or province around it, else nothing (the open sea, the wilderness).
///
/// The town is not simply the nearest centre: a big city spreads far beyond its centre, and the
/// Eiffel Tower is nearer the centre of Neuilly-sur-Seine than that of Paris. Each town gets a
/// reach that grows with the square root of its population (1.5 km for a small town, 9 km for
/// Paris, 18 km for New York), and the town whose reach the point is deepest in wins, among those
/// within 25 km. Beyond that, the photo gets the state around it when every town within 150 km
/// is in that one state: a gazetteer of points knows no borders, and in Death Valley the nearest
/// town is in Nevada; no place is better than a wrong one.
public struct PlaceFinder: Sendable {
    static let localityKilometres = 25.0
    static let regionKilometres = 150.0

    let index: GazetteerIndex

    init(index: GazetteerIndex) {
        self.index = index
    }

    /// The index kept at `cache`, made from libgeonames (and kept there) when missing or made from
    /// another version of it. A cache that cannot be written costs the next build the same work,
    /// nothing else.
    public static func load(cache: URL, disk: any Disk = LocalDisk()) -> PlaceFinder {
        let count = Gazetteer.count
        if let data = try? Data(contentsOf: cache), let index = GazetteerIndex(encoded: data), index.sourceCount == count {
            return PlaceFinder(index: index)
        }
        let index = GazetteerIndex(cities: Gazetteer.cities(), sourceCount: count)
        let folder = cache.deletingLastPathComponent()
        try? disk.makeFolders(folder.path)
        try? disk.writeFile(index.encoded(), to: cache.path, atomically: true)
        return PlaceFinder(index: index)
    }

    public func place(latitude: Double, longitude: Double) -> LocatedPlace? {
        let near = index.near(latitude: latitude, longitude: longitude, within: Self.regionKilometres)
        let towns = near.filter { $0.distance <= Self.localityKilometres }
        if let town = towns.min(by: { Self.depth($0) < Self.depth($1) || (Self.depth($0) == Self.depth($1) && $0.city.name < $1.city.name) })?.city {
            let country = Self.shortCountry(town.country)
            let state = town.state == town.name ? "" : town.state
            let parts = [town.name, state, country].filter { !$0.isEmpty }
            return LocatedPlace(place: parts.joined(separator: ", "), region: town.state.isEmpty ? country : town.state)
        }
        let states = Set(near.map { [$0.city.state, $0.city.country] })
        guard states.count == 1, let around = near.first?.city else { return nil }
        let country = Self.shortCountry(around.country)
        guard !around.state.isEmpty else { return LocatedPlace(place: country, region: country) }
        return LocatedPlace(place: "\(around.state), \(country)", region: around.state)
    }

    /// How far into a town's reach a point is: 0 at its centre, 1 at the edge of its reach.
    private static func depth(_ candidate: (city: GazetteerCity, distance: Double)) -> Double {
        candidate.distance / max(1.5, 0.006 * Double(candidate.city.population).squareRoot())
    }

    /// GeoNames gives a few countries their formal names; galleries use the everyday ones.
    static func shortCountry(_ name: String) -> String {
        switch name {
        case "United States of America": return "United States"
        case "Hashemite Kingdom of Jordan": return "Jordan"
        case "Principality of Monaco": return "Monaco"
        case "Republic of Lithuania": return "Lithuania"
        default: return name
        }
    }
}

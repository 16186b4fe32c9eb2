import FolioCore
import Foundation
import GRDB

/// A broad area that places belong to ("California"); ranked by how many people photograph it.
public struct Region: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    public var id: Int64
    public var name: String
    public var slug: String
    public var photographerCount: Int

    public static let databaseTableName = "region"
    public static let places = hasMany(Place.self)
}

extension Region {
    /// Top Regions: most distinct photographers first, then by name (`morePopular`).
    static func mostPopular(_ db: Database, limit: Int) throws -> [Region] {
        Array(try Region.filter(Columns.photographerCount > 0).fetchAll(db).sorted(by: morePopular).prefix(limit))
    }

    /// How many distinct people took a photo in each region, from who took a photo where: the
    /// one definition of a region's photographer count, which the import applies to the model's
    /// photos (`refreshPhotographerCounts`) and a build to the photos it publishes
    /// (`GallerySnapshot.excluding`). A region nobody took a photo in is not in the result.
    static func photographerCounts(_ taken: some Sequence<(region: Int64, person: Int64)>) -> [Int64: Int] {
        var people: [Int64: Set<Int64>] = [:]
        for (region, person) in taken { people[region, default: []].insert(person) }
        return people.mapValues(\.count)
    }

    /// The order of `mostPopular`, for regions already in memory.
    public static func morePopular(_ a: Region, _ b: Region) -> Bool {
        if a.photographerCount != b.photographerCount { return a.photographerCount > b.photographerCount }
        return Collation.precedes(a.name, b.name)
    }
}

extension Region {
    /// The columns queries name, made from the coding keys: a renamed property is a compile error
    /// in its queries, not a query of a column that is not there.
    public enum Columns {
        public static let name = Column(CodingKeys.name)
        public static let photographerCount = Column(CodingKeys.photographerCount)
    }
}

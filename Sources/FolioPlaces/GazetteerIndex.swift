import FolioImaging
import Foundation

/// The gazetteer's towns filed by one-degree cells of latitude and longitude, so the towns near a
/// point are those of a few cells, never the whole list. Kept as a file beside the model
/// (`PlaceFinder`): reading it back costs a fraction of asking libgeonames for every town again.
struct GazetteerIndex: Sendable {
    /// Towns ordered by cell; `cells` gives each non-empty cell's range in it.
    private(set) var cities: [GazetteerCity]
    private var cells: [Int: Range<Int>]
    /// The number of towns of the library it was made from.
    let sourceCount: Int

    init(cities unordered: [GazetteerCity], sourceCount: Int) {
        self.sourceCount = sourceCount
        let ordered = unordered.enumerated().sorted { a, b in
            let (ka, kb) = (Self.cell(a.element.latitude, a.element.longitude), Self.cell(b.element.latitude, b.element.longitude))
            return ka != kb ? ka < kb : a.offset < b.offset
        }.map(\.element)
        cities = ordered
        cells = [:]
        var start = 0
        while start < ordered.count {
            let key = Self.cell(ordered[start].latitude, ordered[start].longitude)
            var end = start + 1
            while end < ordered.count, Self.cell(ordered[end].latitude, ordered[end].longitude) == key { end += 1 }
            cells[key] = start..<end
            start = end
        }
    }

    private static func cell(_ latitude: Double, _ longitude: Double) -> Int {
        let row = min(179, max(0, Int((latitude + 90).rounded(.down))))
        let column = (Int((longitude + 180).rounded(.down)) % 360 + 360) % 360
        return row * 360 + column
    }

    /// Towns within `kilometres` of the point, with their distance.
    func near(latitude: Double, longitude: Double, within kilometres: Double) -> [(city: GazetteerCity, distance: Double)] {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return [] }
        let degrees = kilometres / 111.0
        let rows = Int((latitude + 90 - degrees).rounded(.down))...Int((latitude + 90 + degrees).rounded(.down))
        // A degree of longitude shrinks towards the poles; near them, every column.
        let shrink = cos(min(89, abs(latitude) + degrees) * .pi / 180)
        let spread = Int((degrees / max(shrink, 1e-6)).rounded(.up))
        let column = Int((longitude + 180).rounded(.down))
        let columns = spread >= 180 ? 0...359 : (column - spread)...(column + spread)
        var found: [(GazetteerCity, Double)] = []
        for row in rows where (0...179).contains(row) {
            var seen = Set<Int>()
            for raw in columns {
                let key = row * 360 + (raw % 360 + 360) % 360
                guard seen.insert(key).inserted, let range = cells[key] else { continue }
                for city in cities[range] {
                    let distance = Self.kilometres(latitude, longitude, city.latitude, city.longitude)
                    if distance <= kilometres { found.append((city, distance)) }
                }
            }
        }
        return found
    }

    /// Great-circle distance (haversine, on a sphere of the Earth's mean radius).
    static func kilometres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let (p1, p2) = (lat1 * .pi / 180, lat2 * .pi / 180)
        let dp = p2 - p1, dl = (lon2 - lon1) * .pi / 180
        let a = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * 6371.0 * asin(min(1, sqrt(a)))
    }

    // MARK: - The file

    private static let magic = Array("FOLIOGAZ1".utf8)

    /// magic, the source's count, the number of towns, then per town latitude and longitude as
    /// IEEE doubles, the population, and three length-prefixed UTF-8 names; all big-endian.
    package func encoded() -> Data {
        var out = Data(Self.magic)
        func u32(_ value: Int) { withUnsafeBytes(of: UInt32(clamping: value).bigEndian) { out.append(contentsOf: $0) } }
        func f64(_ value: Double) { withUnsafeBytes(of: value.bitPattern.bigEndian) { out.append(contentsOf: $0) } }
        func name(_ text: String) {
            let bytes = Array(text.utf8.prefix(Int(UInt16.max)))
            withUnsafeBytes(of: UInt16(bytes.count).bigEndian) { out.append(contentsOf: $0) }
            out.append(contentsOf: bytes)
        }
        u32(sourceCount)
        u32(cities.count)
        for city in cities {
            f64(city.latitude)
            f64(city.longitude)
            u32(city.population)
            name(city.name)
            name(city.state)
            name(city.country)
        }
        return out
    }

    /// The index a file holds, or nil when the file is not one (or is cut short): it is then made again.
    init?(encoded data: Data) {
        let bytes = ByteReader(data)
        guard bytes.matches(Self.magic, at: 0), let source = bytes.uint32BE(at: 9), let count = bytes.uint32BE(at: 13),
              count <= data.count / 23 else { return nil }
        var offset = 17
        func f64() -> Double? {
            guard let bits = bytes.uint64BE(at: offset) else { return nil }
            offset += 8
            return Double(bitPattern: bits)
        }
        func name() -> String? {
            guard let length = bytes.uint16BE(at: offset), offset + 2 + length <= data.count else { return nil }
            let start = data.startIndex + offset + 2
            offset += 2 + length
            return String(decoding: data[start..<(start + length)], as: UTF8.self)
        }
        var cities: [GazetteerCity] = []
        cities.reserveCapacity(count)
        for _ in 0..<count {
            guard let latitude = f64(), let longitude = f64(), let population = bytes.uint32BE(at: offset) else { return nil }
            offset += 4
            guard let city = name(), let state = name(), let country = name() else { return nil }
            cities.append(GazetteerCity(name: city, state: state, country: country, latitude: latitude,
                                        longitude: longitude, population: population))
        }
        guard offset == data.count else { return nil }
        self.init(cities: cities, sourceCount: source)
    }
}

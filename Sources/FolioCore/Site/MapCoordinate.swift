import Foundation

/// Where a place is shown on the site's maps: never a photo's own GPS, but the centre of its
/// photos' positions, rounded to the precision the site allows (`SiteSettings.mapPrecision`),
/// and where that falls on the map.
public struct MapCoordinate: Sendable, Hashable, Encodable {
    public var latitude: Double
    public var longitude: Double
    /// On the map (`MapProjection`).
    public var x: Double
    public var y: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
        (x, y) = MapProjection.point(latitude: latitude, longitude: longitude)
    }

    /// (`latitude`, `longitude`) rounded to a grid about `kilometres` wide: whole steps of
    /// latitude, and of longitude steps as wide on the ground at that latitude. Zero keeps them.
    public static func rounded(latitude: Double, longitude: Double, kilometres: Double) -> MapCoordinate {
        guard kilometres > 0 else { return MapCoordinate(latitude: latitude, longitude: MapProjection.wrapped(longitude)) }
        let step = min(180, kilometres / 111.32)
        let roundedLatitude = min(90, max(-90, (latitude / step).rounded() * step))
        let across = cos(roundedLatitude * .pi / 180)
        let longitudeStep = across > 0.001 ? min(360, step / across) : 360
        let roundedLongitude = MapProjection.wrapped((longitude / longitudeStep).rounded() * longitudeStep)
        return MapCoordinate(latitude: Self.tidy(roundedLatitude), longitude: Self.tidy(roundedLongitude))
    }

    /// Rounding noise off a multiple of a step (0.1 × 3 is 0.30000000000000004).
    private static func tidy(_ degrees: Double) -> Double { (degrees * 1e6).rounded() / 1e6 }

    /// The centre of points on the sphere: their mean as unit vectors, so two photos either side
    /// of the antimeridian (179.9° and −179.9°) centre at 180°, not at 0° on the far side of the Earth.
    struct Centre {
        private var x = 0.0, y = 0.0, z = 0.0
        private(set) var count = 0

        mutating func add(latitude: Double, longitude: Double) {
            guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90 else { return }
            let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
            x += cos(phi) * cos(lambda)
            y += cos(phi) * sin(lambda)
            z += sin(phi)
            count += 1
        }

        /// In degrees; nil with no point, or points that cancel out (the two poles).
        var mean: (latitude: Double, longitude: Double)? {
            let length = (x * x + y * y + z * z).squareRoot()
            guard count > 0, length > 1e-9 * Double(count) else { return nil }
            let latitude = asin(max(-1, min(1, z / length))) * 180 / .pi
            let longitude = (x * x + y * y).squareRoot() < 1e-12 ? 0 : atan2(y, x) * 180 / .pi
            return (latitude, longitude)
        }
    }
}

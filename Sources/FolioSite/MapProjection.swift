import Foundation

/// Where a point of the Earth falls on the site's maps: the Natural Earth projection (Šavrič,
/// Jenny, Patterson and Jenny, 2011), a compromise that keeps the continents' familiar shapes
/// with rounded corners at the poles, from its published polynomials:
///
///     x = λ (0.870700 − 0.131979 φ² − 0.013791 φ⁴ + 0.003971 φ¹⁰ − 0.001529 φ¹²)
///     y = φ (1.007226 + 0.015085 φ² − 0.044475 φ⁶ + 0.028874 φ⁸ − 0.005916 φ¹⁰)
///
/// (λ the longitude, φ the latitude, in radians), scaled so the whole world is `width` units
/// wide with its top-left corner at (0, 0) and y growing southwards, as SVG draws. Longitudes
/// are taken round to −180…180 first, so a point just past the antimeridian lands at the map's
/// other edge rather than off it; latitudes are held to −90…90.
public enum MapProjection {
    /// The world's width in map units (the SVG's user units).
    public static let width = 1000.0
    /// Map units per unit of the projection's own plane.
    static let scale = width / (2 * rawX(longitude: .pi, latitude: 0))
    /// The world's height: pole to pole.
    public static let height = 2 * rawY(latitude: .pi / 2) * scale

    /// Where (`latitude`, `longitude`), in degrees, is on the map.
    public static func point(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        let phi = min(90, max(-90, latitude)) * .pi / 180
        let lambda = wrapped(longitude) * .pi / 180
        return (width / 2 + rawX(longitude: lambda, latitude: phi) * scale, height / 2 - rawY(latitude: phi) * scale)
    }

    /// A longitude taken round to −180…180.
    public static func wrapped(_ longitude: Double) -> Double {
        guard longitude.isFinite else { return 0 }
        if (-180...180).contains(longitude) { return longitude }
        var wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
        if wrapped < 0 { wrapped += 360 }
        return wrapped == 0 && longitude > 0 ? 180 : wrapped - 180
    }

    static func rawX(longitude lambda: Double, latitude phi: Double) -> Double {
        let p2 = phi * phi, p4 = p2 * p2
        return lambda * (0.870700 - p2 * (0.131979 + p2 * 0.013791) + p4 * p4 * p2 * (0.003971 - p2 * 0.001529))
    }

    static func rawY(latitude phi: Double) -> Double {
        let p2 = phi * phi, p4 = p2 * p2, p6 = p4 * p2
        return phi * (1.007226 + p2 * 0.015085 + p6 * (-0.044475 + p2 * 0.028874 - p4 * 0.005916))
    }
}

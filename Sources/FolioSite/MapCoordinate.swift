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

    /// The centre of points on the sphere: the median of their unit vectors, axis by axis, made a
    /// unit vector again. As unit vectors, two photos either side of the antimeridian (179.9° and
    /// −179.9°) centre at 180°, not at 0° on the far side of the Earth. As a median, a stray
    /// photo (its GPS a continent away, or the place it was filed under corrected) leaves the
    /// place where the rest of its photos are: a mean of a hundred photos moved some 50 km for
    /// one 5,000 km off, and with it the marker on the map and on every photo page of the place.
    /// Its points are held until `median` is asked, so one is used for place after place
    /// (`removeAll`), its room kept.
    struct Centre {
        private var x: [Double] = [], y: [Double] = [], z: [Double] = []
        var count: Int { x.count }

        mutating func add(latitude: Double, longitude: Double) {
            guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90 else { return }
            let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
            x.append(cos(phi) * cos(lambda))
            y.append(cos(phi) * sin(lambda))
            z.append(sin(phi))
        }

        mutating func removeAll() {
            x.removeAll(keepingCapacity: true)
            y.removeAll(keepingCapacity: true)
            z.removeAll(keepingCapacity: true)
        }

        /// In degrees; nil with no point, or points whose medians cancel out (the two poles).
        /// Reorders the points it holds.
        mutating func median() -> (latitude: Double, longitude: Double)? {
            guard count > 0 else { return nil }
            let (mx, my, mz) = (Self.median(&x), Self.median(&y), Self.median(&z))
            let length = (mx * mx + my * my + mz * mz).squareRoot()
            guard length > 1e-9 else { return nil }
            let latitude = asin(max(-1, min(1, mz / length))) * 180 / .pi
            let longitude = (mx * mx + my * my).squareRoot() < 1e-12 ? 0 : atan2(my, mx) * 180 / .pi
            return (latitude, longitude)
        }

        /// The median of `values` (of an even count, the mean of the middle two), found in place
        /// by selection, not a sort: a library's largest places hold tens of thousands of photos.
        static func median(_ values: inout [Double]) -> Double {
            let middle = values.count / 2
            values.withUnsafeMutableBufferPointer { select(middle, in: $0) }
            guard values.count % 2 == 0 else { return values[middle] }
            // The lower middle is the largest of those selection left below the upper one.
            let lower = values[..<middle].max()!
            return (lower + values[middle]) / 2
        }

        /// Puts the value of rank `k` at `k`, the smaller before it and the larger after
        /// (Hoare's selection, its pivot the median of three).
        private static func select(_ k: Int, in values: UnsafeMutableBufferPointer<Double>) {
            var (low, high) = (0, values.count - 1)
            while low < high {
                let middle = low + (high - low) / 2
                if values[middle] < values[low] { values.swapAt(middle, low) }
                if values[high] < values[low] { values.swapAt(high, low) }
                if values[high] < values[middle] { values.swapAt(high, middle) }
                let pivot = values[middle]
                var (i, j) = (low, high)
                while i <= j {
                    while values[i] < pivot { i += 1 }
                    while pivot < values[j] { j -= 1 }
                    if i <= j {
                        values.swapAt(i, j)
                        i += 1
                        j -= 1
                    }
                }
                if k <= j { high = j } else if k >= i { low = i } else { return }
            }
        }
    }
}

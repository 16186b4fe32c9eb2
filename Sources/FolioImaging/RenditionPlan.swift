/// Decides how to make a photo's renditions from one decode: at what scale to decode a JPEG,
/// in what order to make them, and which image each is resampled from.
struct RenditionPlan {
    let geometries: [RenditionGeometry]

    init(geometries: [RenditionGeometry]) {
        self.geometries = geometries
    }

    init(requests: [RenditionRequest], uprightWidth: Int, uprightHeight: Int) {
        geometries = requests.map { RenditionGeometry(request: $0, uprightWidth: uprightWidth, uprightHeight: uprightHeight) }
    }

    /// The smallest libjpeg-turbo scale whose output still covers every rendition. Factors above
    /// one would only upscale, so they are never chosen.
    func decodeScale(
        storedWidth: Int, storedHeight: Int, orientation: ImageOrientation, factors: [ScalingFactor]
    ) -> ScalingFactor {
        let candidates = factors.filter { $0.num <= $0.denom }.sorted { $0.value < $1.value }
        for factor in candidates {
            let upright = orientation.uprightSize(width: factor.scaled(storedWidth), height: factor.scaled(storedHeight))
            if geometries.allSatisfy({ $0.canBeMade(fromWidth: upright.width, height: upright.height) }) {
                return factor
            }
        }
        return .one
    }

    /// Indices into `geometries`, largest first; full-frame renditions before crops of the same
    /// size, since only full frames can serve as sources for later ones.
    var order: [Int] {
        geometries.indices.sorted { a, b in
            let ga = geometries[a], gb = geometries[b]
            if ga.area != gb.area { return ga.area > gb.area }
            if ga.cropsToSquare != gb.cropsToSquare { return !ga.cropsToSquare }
            return a < b
        }
    }

    /// Among already made full-frame renditions (index, size), the smallest one with at least
    /// twice the pixels `geometry` needs in each direction, or nil to resample from the decoded
    /// image. Resampling from an intermediate at 2x or more is indistinguishable from resampling
    /// the original (a test checks this) and far cheaper.
    static func source(
        for geometry: RenditionGeometry, among made: [(index: Int, width: Int, height: Int)]
    ) -> Int? {
        made.filter { geometry.canBeMade(fromWidth: $0.width, height: $0.height, margin: 2) }
            .min { $0.width * $0.height < $1.width * $1.height }?.index
    }
}

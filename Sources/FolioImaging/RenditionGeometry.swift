/// The exact pixel size of one rendition, worked out from the photo's full upright size so it
/// is the same whatever scale the JPEG was decoded at.
package struct RenditionGeometry: Hashable {
    package var width: Int
    package var height: Int
    /// A centred square is cut from the source before it is resampled.
    var cropsToSquare: Bool

    init(width: Int, height: Int, cropsToSquare: Bool) {
        self.width = width
        self.height = height
        self.cropsToSquare = cropsToSquare
    }

    package init(request: RenditionRequest, uprightWidth: Int, uprightHeight: Int) {
        switch request.fit {
        case .inside:
            // Never upscale: a photo smaller than the box is published at its own size.
            let scale = min(Double(request.width) / Double(uprightWidth), Double(request.height) / Double(uprightHeight), 1)
            self.init(
                width: max(1, min(uprightWidth, Int((Double(uprightWidth) * scale).rounded()))),
                height: max(1, min(uprightHeight, Int((Double(uprightHeight) * scale).rounded()))),
                cropsToSquare: false)
        case .squareCrop:
            let side = min(request.width, uprightWidth, uprightHeight)
            self.init(width: side, height: side, cropsToSquare: true)
        }
    }

    /// Whether an upright image of this size holds enough pixels to make the rendition without
    /// upscaling. `margin` 2 asks for twice as many, so a second resample adds no visible softness.
    func canBeMade(fromWidth sourceWidth: Int, height sourceHeight: Int, margin: Int = 1) -> Bool {
        if cropsToSquare {
            return min(sourceWidth, sourceHeight) >= width * margin
        }
        return sourceWidth >= width * margin && sourceHeight >= height * margin
    }

    /// Largest first, so smaller renditions can be made from ones already resampled.
    var area: Int { width * height }
}

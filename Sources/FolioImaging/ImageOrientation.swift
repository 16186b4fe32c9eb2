/// The EXIF orientation: how the stored pixels must be turned to show the photo upright.
package enum ImageOrientation: Int, CaseIterable {
    case up = 1, mirrored, upsideDown, upsideDownMirrored, transposed, rotatedClockwise, transversed, rotatedCounterClockwise

    /// Values outside 1...8 occur in the wild; showing the pixels as stored is the only safe reading.
    package init(exif value: Int) {
        self = ImageOrientation(rawValue: value) ?? .up
    }

    /// 5...8 turn the photo on its side, so the displayed width is the stored height.
    var swapsAxes: Bool { rawValue >= 5 }

    func uprightSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    /// Where the upright pixel (x, y) is in the stored image of size `width` x `height`:
    /// sourceX = x * ax + y * bx + cx, sourceY = x * ay + y * by + cy. As a linear map, one loop
    /// serves all eight orientations.
    struct SourceMap: Equatable {
        var ax: Int, bx: Int, cx: Int
        var ay: Int, by: Int, cy: Int
    }

    func sourceMap(storedWidth w: Int, storedHeight h: Int) -> SourceMap {
        switch self {
        case .up: return SourceMap(ax: 1, bx: 0, cx: 0, ay: 0, by: 1, cy: 0)
        case .mirrored: return SourceMap(ax: -1, bx: 0, cx: w - 1, ay: 0, by: 1, cy: 0)
        case .upsideDown: return SourceMap(ax: -1, bx: 0, cx: w - 1, ay: 0, by: -1, cy: h - 1)
        case .upsideDownMirrored: return SourceMap(ax: 1, bx: 0, cx: 0, ay: 0, by: -1, cy: h - 1)
        case .transposed: return SourceMap(ax: 0, bx: 1, cx: 0, ay: 1, by: 0, cy: 0)
        case .rotatedClockwise: return SourceMap(ax: 0, bx: 1, cx: 0, ay: -1, by: 0, cy: h - 1)
        case .transversed: return SourceMap(ax: 0, bx: -1, cx: w - 1, ay: -1, by: 0, cy: h - 1)
        case .rotatedCounterClockwise: return SourceMap(ax: 0, bx: -1, cx: w - 1, ay: 1, by: 0, cy: 0)
        }
    }
}

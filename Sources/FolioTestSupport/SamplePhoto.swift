import FolioImaging
import Foundation

/// A photo-like JPEG made from nothing, for benchmarks and tests: a sky, hills, a sun and a fine
/// grain, so it compresses about as a real photo does, with the EXIF a camera would write.
public struct SamplePhoto: Sendable {
    public var width: Int
    public var height: Int
    public var seed: UInt64
    public var quality = 90
    /// EXIF orientation; the pixels are stored turned so that applying it shows them upright.
    public var orientation = 1
    public var taken: Date?
    public var make: String?
    public var model: String?
    public var artist: String?
    public var latitude: Double?
    public var longitude: Double?

    public init(width: Int, height: Int, seed: UInt64) {
        self.width = width
        self.height = height
        self.seed = seed
    }

    public func jpeg() throws -> Data {
        let turned = orientation == 6 || orientation == 8
        let stored = turned ? (width: height, height: width) : (width: width, height: height)
        var words = [UInt32](repeating: 0, count: width * height)
        paint(&words)
        let pixels = PixelBuffer(width: stored.width, height: stored.height, words: words)
        let jpeg = try ImageProcessor(pixelLimit: .max).encode(pixels, as: .jpeg, quality: quality)
        let block = ExifWriter.cameraBlock(orientation: orientation, make: make, model: model, artist: artist,
                                           taken: taken, latitude: latitude, longitude: longitude)
        // The APP1 segment goes right after SOI, where cameras put it.
        let length = block.count + 2
        return Data([0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)]) + block + jpeg.dropFirst(2)
    }

    private func paint(_ words: inout [UInt32]) {
        var random = seed | 1
        func next() -> UInt64 {
            random ^= random << 13; random ^= random >> 7; random ^= random << 17
            return random
        }
        let hue = Double(seed % 360) / 360
        let sunX = Double(next() % UInt64(width)), sunY = Double(height) * 0.3
        let sunRadius = Double(min(width, height)) * 0.08
        let phase = Double(next() % 1000) / 100
        for y in 0..<height {
            let t = Double(y) / Double(height)
            let sky = (r: 90 + 120 * t + 40 * hue, g: 140 + 80 * t, b: 230 - 60 * t)
            for x in 0..<width {
                let fx = Double(x) / Double(width)
                let horizon = 0.62 + 0.08 * sin(fx * 7 + phase) + 0.03 * sin(fx * 31 + phase * 2)
                var (r, g, b): (Double, Double, Double)
                if t > horizon {
                    let depth = (t - horizon) * 3
                    (r, g, b) = (60 + 50 * depth + 30 * hue, 110 - 30 * depth, 50 + 20 * depth)
                } else {
                    (r, g, b) = sky
                    let dx = Double(x) - sunX, dy = Double(y) - sunY
                    let glow = max(0, 1 - (dx * dx + dy * dy).squareRoot() / sunRadius)
                    (r, g, b) = (r + 160 * glow, g + 140 * glow, b + 60 * glow)
                }
                let grain = Double(Int(next() & 15) - 8)
                let pixel = (UInt32(clamp(r + grain)) << 16) | (UInt32(clamp(g + grain)) << 8) | UInt32(clamp(b + grain))
                words[storedIndex(x: x, y: y)] = pixel
            }
        }
    }

    private func clamp(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value))) }

    /// Where upright pixel (x, y) is stored, for the orientations a camera writes when it is
    /// held upright (1), turned right (6), turned left (8) or upside down (3).
    private func storedIndex(x: Int, y: Int) -> Int {
        switch orientation {
        case 3: return (height - 1 - y) * width + (width - 1 - x)
        case 6, 8:
            // Stored height×width: a stored image of the upright's transposed size.
            let storedWidth = height
            let (sx, sy) = orientation == 6 ? (y, width - 1 - x) : (height - 1 - y, x)
            return sy * storedWidth + sx
        default: return y * width + x
        }
    }
}

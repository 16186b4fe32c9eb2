import FolioImaging
import Foundation

/// An opaque picture to draw test images on: a background and filled rectangles, as packed
/// 0x00RRGGBB words, ready for `ImageProcessor.encode`.
public struct Canvas: Sendable {
    public typealias Colour = (red: Int, green: Int, blue: Int)

    public static let red: Colour = (255, 0, 0)
    public static let green: Colour = (0, 255, 0)
    public static let blue: Colour = (0, 0, 255)
    public static let grey: Colour = (128, 128, 128)

    public let width: Int
    public let height: Int
    public private(set) var words: [UInt32]

    public init(width: Int, height: Int, background: Colour = Canvas.grey) {
        self.width = width
        self.height = height
        words = [UInt32](repeating: Canvas.word(background), count: width * height)
    }

    /// Fills a rectangle, clipped to the canvas.
    public mutating func fill(x: Int, y: Int, width: Int, height: Int, _ colour: Colour) {
        let word = Canvas.word(colour)
        for row in max(0, y)..<min(self.height, y + height) {
            for column in max(0, x)..<min(self.width, x + width) {
                words[row * self.width + column] = word
            }
        }
    }

    public var pixels: PixelBuffer { PixelBuffer(width: width, height: height, words: words) }

    /// The picture as an image file.
    public func encoded(as format: ImageFormat, quality: Int) throws -> Data {
        try ImageProcessor(pixelLimit: .max).encode(pixels, as: format, quality: quality)
    }

    static func word(_ colour: Colour) -> UInt32 {
        UInt32(colour.red & 0xFF) << 16 | UInt32(colour.green & 0xFF) << 8 | UInt32(colour.blue & 0xFF)
    }
}

extension PixelBuffer {
    /// The colour of the pixel at (x, y).
    public func colour(x: Int, y: Int) -> Canvas.Colour {
        let word = words[y * width + x]
        return (Int(word >> 16 & 0xFF), Int(word >> 8 & 0xFF), Int(word & 0xFF))
    }
}

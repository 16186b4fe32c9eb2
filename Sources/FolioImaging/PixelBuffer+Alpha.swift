extension PixelBuffer {
    /// The word for a pixel of straight (not premultiplied) colour and `alpha` (255 opaque), as
    /// a buffer with `alpha` holds it.
    @inline(__always)
    static func premultipliedWord(red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32) -> UInt32 {
        func times(_ channel: UInt32) -> UInt32 { (channel * alpha + 127) / 255 }
        return alpha << 24 | times(red) << 16 | times(green) << 8 | times(blue)
    }

    /// The word's straight colour and alpha: what encoders and colour transforms take.
    @inline(__always)
    static func straight(_ word: UInt32) -> (red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32) {
        let alpha = word >> 24
        guard alpha != 0 else { return (0, 0, 0, 0) }
        func over(_ channel: UInt32) -> UInt32 { min(255, (channel * 255 + alpha / 2) / alpha) }
        return (over(word >> 16 & 0xFF), over(word >> 8 & 0xFF), over(word & 0xFF), alpha)
    }

    /// The picture on white, with no alpha: for JPEG, AVIF and deep-zoom tiles, and for sources
    /// whose renditions are not asked to keep transparency. `self` when it has no alpha.
    /// Premultiplied, composing onto white is adding the white that shows through.
    func flattenedOntoWhite() -> PixelBuffer {
        guard alpha else { return self }
        return words.withUnsafeBufferPointer { source in
            PixelBuffer(width: width, height: height) { target in
                for index in 0..<(width * height) {
                    let word = source[index], clear = 255 - (word >> 24)
                    let red = (word >> 16 & 0xFF) + clear, green = (word >> 8 & 0xFF) + clear, blue = (word & 0xFF) + clear
                    target[index] = red << 16 | green << 8 | blue
                }
            }
        }
    }
}

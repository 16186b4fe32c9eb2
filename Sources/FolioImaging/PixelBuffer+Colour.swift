extension PixelBuffer {
    /// The pixels through `transform`, for images decoded by libgd (JPEG is converted inside
    /// its decode, in place).
    func converted(by transform: ColourTransform) -> PixelBuffer {
        guard alpha else {
            return words.withUnsafeBytes { source in
                PixelBuffer(width: width, height: height) { target in
                    transform.apply(from: source.baseAddress!, to: UnsafeMutableRawPointer(target), count: width * height)
                }
            }
        }
        // A profile describes straight colour, and lcms leaves the top byte alone: converted
        // unpremultiplied, then premultiplied again with the alpha kept aside.
        var straight = words.map { word -> UInt32 in
            let pixel = Self.straight(word)
            return pixel.red << 16 | pixel.green << 8 | pixel.blue
        }
        straight.withUnsafeMutableBytes { transform.apply($0.baseAddress!, count: width * height) }
        return PixelBuffer(width: width, height: height, alpha: true) { target in
            for index in 0..<(width * height) {
                let word = straight[index]
                target[index] = Self.premultipliedWord(
                    red: word >> 16 & 0xFF, green: word >> 8 & 0xFF, blue: word & 0xFF, alpha: words[index] >> 24)
            }
        }
    }
}

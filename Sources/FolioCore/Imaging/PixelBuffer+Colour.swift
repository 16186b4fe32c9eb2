extension PixelBuffer {
    /// The pixels through `transform`, for images decoded by libgd (JPEG is converted inside
    /// its decode, in place).
    func converted(by transform: ColourTransform) -> PixelBuffer {
        words.withUnsafeBytes { source in
            PixelBuffer(width: width, height: height) { target in
                transform.apply(from: source.baseAddress!, to: UnsafeMutableRawPointer(target), count: width * height)
            }
        }
    }
}

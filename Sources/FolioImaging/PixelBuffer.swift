/// Decoded pixels as 32-bit words 0x??RRGGBB in native byte order, rows packed with no padding.
/// Everything between decoding and encoding works on this form: libjpeg-turbo reads and writes it
/// directly (BGRX on little-endian machines), and a word per pixel moves in one load and store.
/// Without `alpha` the top byte means nothing (TurboJPEG fills it with 0xFF): every reader masks
/// it off. With `alpha` it is the pixel's opacity (255 opaque) and the colour bytes are
/// premultiplied by it, so averaging all four bytes alike (as resampling does) is right: a
/// transparent pixel's colour cannot bleed into its opaque neighbours.
public struct PixelBuffer: Sendable {
    public let width: Int
    public let height: Int
    public let words: [UInt32]
    public let alpha: Bool

    /// `words` holds `width * height` pixels, row by row.
    public init(width: Int, height: Int, words: [UInt32], alpha: Bool = false) {
        precondition(words.count == width * height, "a \(width)x\(height) buffer holds \(width * height) words")
        self.width = width
        self.height = height
        self.words = words
        self.alpha = alpha
    }

    /// A buffer whose every word `fill` writes. Not zeroed first: zeroing would be a pass over
    /// every decoded and resampled image for words written anyway.
    package init(width: Int, height: Int, alpha: Bool = false, fill: (UnsafeMutablePointer<UInt32>) throws -> Void) rethrows {
        self.width = width
        self.height = height
        self.alpha = alpha
        let count = width * height
        words = try [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let start = buffer.baseAddress else { return }  // no pixels, nothing to fill
            try fill(start)
            initialized = count
        }
    }

    // MARK: Turning and cutting

    /// The upright image for an EXIF orientation; `self` when there is nothing to turn. Copied
    /// in 32x32 blocks: a quarter turn walks the source down its columns, and a block keeps
    /// those cache lines in use until all their pixels are taken.
    package func oriented(_ orientation: ImageOrientation) -> PixelBuffer {
        if orientation == .up { return self }
        let upright = orientation.uprightSize(width: width, height: height)
        let map = orientation.sourceMap(storedWidth: width, storedHeight: height)
        // Where upright (x, y) comes from, as one offset into the stored words.
        let origin = map.cy * width + map.cx, stepX = map.ay * width + map.ax, stepY = map.by * width + map.bx
        let block = 32
        return words.withUnsafeBufferPointer { source in
            PixelBuffer(width: upright.width, height: upright.height, alpha: alpha) { target in
                let source = source.baseAddress!
                for blockY in stride(from: 0, to: upright.height, by: block) {
                    for blockX in stride(from: 0, to: upright.width, by: block) {
                        for y in blockY..<min(blockY + block, upright.height) {
                            var from = origin + y * stepY + blockX * stepX
                            let row = target + y * upright.width
                            for x in blockX..<min(blockX + block, upright.width) {
                                row[x] = source[from]
                                from += stepX
                            }
                        }
                    }
                }
            }
        }
    }

    /// A copy of one rectangle.
    func cropped(x: Int, y: Int, width newWidth: Int, height newHeight: Int) -> PixelBuffer {
        words.withUnsafeBufferPointer { source in
            PixelBuffer(width: newWidth, height: newHeight, alpha: alpha) { target in
                for row in 0..<newHeight {
                    (target + row * newWidth).initialize(from: source.baseAddress! + (y + row) * width + x, count: newWidth)
                }
            }
        }
    }

    /// The centred square whose side is the short side; `self` when already square.
    func croppedToCentredSquare() -> PixelBuffer {
        let side = min(width, height)
        if width == height { return self }
        return cropped(x: (width - side) / 2, y: (height - side) / 2, width: side, height: side)
    }

    // MARK: Resampling

    /// Half the size (rounded up), each pixel the average of a 2x2 block: the way down a
    /// pyramid, exact for a 2x reduction and far cheaper than a general resampler.
    func halved() -> PixelBuffer {
        let (w, h) = ((width + 1) / 2, (height + 1) / 2)
        return words.withUnsafeBufferPointer { source in
            PixelBuffer(width: w, height: h, alpha: alpha) { target in
                let source = source.baseAddress!
                for y in 0..<h {
                    let top = source + 2 * y * width, bottom = source + min(2 * y + 1, height - 1) * width
                    for x in 0..<w {
                        let x0 = 2 * x, x1 = min(2 * x + 1, width - 1)
                        let a = top[x0], b = top[x1], c = bottom[x0], d = bottom[x1]
                        // Red and blue in one word, alpha and green in another: 16-bit lanes, so no
                        // sum overflows into the next; the top byte (alpha, or nothing) comes along.
                        let redBlue = (a & 0xFF00FF) &+ (b & 0xFF00FF) &+ (c & 0xFF00FF) &+ (d & 0xFF00FF) &+ 0x020002
                        let alphaGreen = (a >> 8 & 0xFF00FF) &+ (b >> 8 & 0xFF00FF) &+ (c >> 8 & 0xFF00FF) &+ (d >> 8 & 0xFF00FF) &+ 0x020002
                        target[y * w + x] = ((redBlue >> 2) & 0xFF00FF) | ((alphaGreen >> 2) & 0xFF00FF) << 8
                    }
                }
            }
        }
    }

    /// Resampled to `newWidth`×`newHeight`: halved by 2x2 averages while that stays at least
    /// the target size, then bilinear for the rest (under 2x, where two taps see every source
    /// pixel). Every source pixel counts, so large reductions average instead of aliasing, at
    /// a fraction of the cost of a wide-kernel filter.
    func resampled(toWidth newWidth: Int, height newHeight: Int) -> PixelBuffer {
        var image = self
        while image.width / 2 >= newWidth && image.height / 2 >= newHeight {
            image = image.halved()
        }
        if image.width == newWidth && image.height == newHeight { return image }
        return image.bilinear(toWidth: newWidth, height: newHeight)
    }

    /// Two taps per axis, weights in 8-bit fixed point, sampling at pixel centres. Row by row:
    /// the two source rows an output row lies between are blended into one row buffer (a loop
    /// the compiler vectorises), and that row is resampled across (`across`, by hand in SIMD:
    /// its taps are gathers). Down first, so the costlier pass runs once per output pixel, and
    /// no intermediate image goes through memory.
    private func bilinear(toWidth newWidth: Int, height newHeight: Int) -> PixelBuffer {
        func taps(_ from: Int, _ to: Int) -> (index: [Int], weight: [UInt32]) {
            let scale = Double(from) / Double(to)
            var index = [Int](repeating: 0, count: to), weight = [UInt32](repeating: 0, count: to)
            for i in 0..<to {
                let centre = max(0, min(Double(from - 1), (Double(i) + 0.5) * scale - 0.5))
                let base = min(Int(centre), from - 2 < 0 ? 0 : from - 2)
                index[i] = base
                weight[i] = UInt32(((centre - Double(base)) * 256).rounded())
            }
            return (index, weight)
        }
        let columns = taps(width, newWidth), rows = taps(height, newHeight)
        let columnIndex = columns.index.map { Int32($0) }, columnWeight = columns.weight.map { UInt16($0) }
        let down = height > 1 ? width : 0
        let blended = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
        defer { blended.deallocate() }
        // Raw pointers throughout: bounds checks in these loops cost as much as the arithmetic.
        return words.withUnsafeBufferPointer { source in
            columnIndex.withUnsafeBufferPointer { index in
                columnWeight.withUnsafeBufferPointer { weight in
                    let source = source.baseAddress!, index = index.baseAddress!, weight = weight.baseAddress!
                    return PixelBuffer(width: newWidth, height: newHeight, alpha: alpha) { target in
                        for y in 0..<newHeight {
                            let top = source + rows.index[y] * width, rowWeight = rows.weight[y]
                            var row = UnsafePointer(top)
                            if rowWeight != 0 {
                                let bottom = top + down
                                for x in 0..<width {
                                    blended[x] = Self.blend(top[x], bottom[x], rowWeight)
                                }
                                row = UnsafePointer(blended)
                            }
                            Self.across(row, width: width, index: index, weight: weight, into: target + y * newWidth, count: newWidth)
                        }
                    }
                }
            }
        }
    }

    /// out[x] = blend(row[index[x]], row[index[x] + 1], weight[x]). Two outputs at a time in
    /// 16-bit lanes: each tap pair is one 8-byte load (the two pixels are neighbours), and all
    /// eight channels are weighted in one multiply; the scalar loop's results, faster.
    private static func across(
        _ row: UnsafePointer<UInt32>, width: Int, index: UnsafePointer<Int32>, weight: UnsafePointer<UInt16>,
        into out: UnsafeMutablePointer<UInt32>, count: Int
    ) {
        guard width > 1 else {  // a one-pixel row: both taps are that pixel
            out.update(repeating: row[0], count: count)
            return
        }
        let source = UnsafeRawPointer(row), target = UnsafeMutableRawPointer(out)
        let half = SIMD8<UInt16>(repeating: 128), full = SIMD8<UInt16>(repeating: 256)
        var x = 0
        while x + 2 <= count {
            // index ≤ width - 2, so both loads stay inside the row.
            let first = source.loadUnaligned(fromByteOffset: Int(index[x]) * 4, as: UInt64.self)
            let second = source.loadUnaligned(fromByteOffset: Int(index[x + 1]) * 4, as: UInt64.self)
            let left = SIMD8<UInt16>(truncatingIfNeeded: unsafeBitCast(first & 0xFFFF_FFFF | second << 32, to: SIMD8<UInt8>.self))
            let right = SIMD8<UInt16>(truncatingIfNeeded: unsafeBitCast(first >> 32 | second & 0xFFFF_FFFF_0000_0000, to: SIMD8<UInt8>.self))
            let w0 = weight[x], w1 = weight[x + 1]
            let w = SIMD8<UInt16>(w0, w0, w0, w0, w1, w1, w1, w1)
            let mixed = (left &* (full &- w) &+ right &* w &+ half) &>> 8
            target.storeBytes(of: unsafeBitCast(SIMD8<UInt8>(truncatingIfNeeded: mixed), to: UInt64.self),
                              toByteOffset: x * 4, as: UInt64.self)
            x += 2
        }
        if x < count {
            let i = Int(index[x])
            out[x] = blend(row[i], row[i + 1], UInt32(weight[x]))
        }
    }

    /// a·(1 − w/256) + b·w/256 for each byte, red and blue in one word, alpha and green in
    /// another, as `across` does all four in its SIMD lanes.
    @inline(__always)
    private static func blend(_ a: UInt32, _ b: UInt32, _ weight: UInt32) -> UInt32 {
        let inverse = 256 - weight
        let redBlue = ((a & 0xFF00FF) &* inverse &+ (b & 0xFF00FF) &* weight &+ 0x800080) >> 8
        let alphaGreen = ((a >> 8 & 0xFF00FF) &* inverse &+ (b >> 8 & 0xFF00FF) &* weight &+ 0x800080) >> 8
        return (redBlue & 0xFF00FF) | (alphaGreen & 0xFF00FF) << 8
    }
}

/// Decoded pixels as 32-bit words 0x00RRGGBB in native byte order, rows packed with no padding.
/// Everything between decoding and encoding works on this form: TurboJPEG reads and writes it
/// directly (BGRX on little-endian machines), and a word per pixel moves in one load and store.
struct PixelBuffer {
    let width: Int
    let height: Int
    var words: [UInt32]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        words = [UInt32](repeating: 0, count: width * height)
    }

    // MARK: Turning and cutting

    /// The upright image for an EXIF orientation; `self` when there is nothing to turn.
    func oriented(_ orientation: ImageOrientation) -> PixelBuffer {
        if orientation == .up { return self }
        let upright = orientation.uprightSize(width: width, height: height)
        let map = orientation.sourceMap(storedWidth: width, storedHeight: height)
        var result = PixelBuffer(width: upright.width, height: upright.height)
        words.withUnsafeBufferPointer { source in
            result.words.withUnsafeMutableBufferPointer { target in
                for y in 0..<upright.height {
                    var sourceX = map.bx * y + map.cx
                    var sourceY = map.by * y + map.cy
                    let row = y * upright.width
                    for x in 0..<upright.width {
                        target[row + x] = source[sourceY * width + sourceX]
                        sourceX += map.ax
                        sourceY += map.ay
                    }
                }
            }
        }
        return result
    }

    /// A copy of one rectangle.
    func cropped(x: Int, y: Int, width newWidth: Int, height newHeight: Int) -> PixelBuffer {
        var result = PixelBuffer(width: newWidth, height: newHeight)
        words.withUnsafeBufferPointer { source in
            result.words.withUnsafeMutableBufferPointer { target in
                for row in 0..<newHeight {
                    let from = (y + row) * width + x
                    target.baseAddress!.advanced(by: row * newWidth)
                        .update(from: source.baseAddress!.advanced(by: from), count: newWidth)
                }
            }
        }
        return result
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
        var result = PixelBuffer(width: w, height: h)
        words.withUnsafeBufferPointer { source in
            result.words.withUnsafeMutableBufferPointer { target in
                let source = source.baseAddress!, target = target.baseAddress!
                for y in 0..<h {
                    let top = source + 2 * y * width, bottom = source + min(2 * y + 1, height - 1) * width
                    for x in 0..<w {
                        let x0 = 2 * x, x1 = min(2 * x + 1, width - 1)
                        let a = top[x0], b = top[x1], c = bottom[x0], d = bottom[x1]
                        // Red and blue in one word, green in another: no lane overflows into the next.
                        let redBlue = (a & 0xFF00FF) &+ (b & 0xFF00FF) &+ (c & 0xFF00FF) &+ (d & 0xFF00FF) &+ 0x020002
                        let green = (a & 0x00FF00) &+ (b & 0x00FF00) &+ (c & 0x00FF00) &+ (d & 0x00FF00) &+ 0x000200
                        target[y * w + x] = ((redBlue >> 2) & 0xFF00FF) | ((green >> 2) & 0x00FF00)
                    }
                }
            }
        }
        return result
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

    /// Two taps per axis, weights in 8-bit fixed point, sampling at pixel centres.
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
        let step = width > 1 ? 1 : 0
        // Horizontal pass into a buffer of newWidth x height, then vertical.
        var across = PixelBuffer(width: newWidth, height: height)
        // Raw pointers throughout: bounds checks in these loops cost as much as the arithmetic.
        words.withUnsafeBufferPointer { source in
            across.words.withUnsafeMutableBufferPointer { target in
                columns.index.withUnsafeBufferPointer { index in
                    columns.weight.withUnsafeBufferPointer { weight in
                        let source = source.baseAddress!, target = target.baseAddress!
                        let index = index.baseAddress!, weight = weight.baseAddress!
                        for y in 0..<height {
                            let row = source + y * width, out = target + y * newWidth
                            for x in 0..<newWidth {
                                out[x] = Self.blend(row[index[x]], row[index[x] + step], weight[x])
                            }
                        }
                    }
                }
            }
        }
        var result = PixelBuffer(width: newWidth, height: newHeight)
        let down = height > 1 ? newWidth : 0
        across.words.withUnsafeBufferPointer { source in
            result.words.withUnsafeMutableBufferPointer { target in
                let source = source.baseAddress!, target = target.baseAddress!
                for y in 0..<newHeight {
                    let top = source + rows.index[y] * newWidth, bottom = top + down, weight = rows.weight[y]
                    let out = target + y * newWidth
                    for x in 0..<newWidth {
                        out[x] = Self.blend(top[x], bottom[x], weight)
                    }
                }
            }
        }
        return result
    }

    /// a·(1 − w/256) + b·w/256 for each channel, red and blue in one word, green in another.
    @inline(__always)
    private static func blend(_ a: UInt32, _ b: UInt32, _ weight: UInt32) -> UInt32 {
        let inverse = 256 - weight
        let redBlue = ((a & 0xFF00FF) &* inverse &+ (b & 0xFF00FF) &* weight &+ 0x800080) >> 8
        let green = ((a & 0x00FF00) &* inverse &+ (b & 0x00FF00) &* weight &+ 0x008000) >> 8
        return (redBlue & 0xFF00FF) | (green & 0x00FF00)
    }
}

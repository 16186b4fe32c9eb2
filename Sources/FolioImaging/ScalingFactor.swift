/// A libjpeg-turbo decode scale, num/denom: the DCT itself shrinks the image, which is both
/// far cheaper than decoding at full size and a good anti-aliasing filter.
struct ScalingFactor: Hashable, CustomStringConvertible {
    var num: Int
    var denom: Int

    static let one = ScalingFactor(num: 1, denom: 1)

    /// The size libjpeg-turbo produces: it rounds up (TJSCALED).
    func scaled(_ dimension: Int) -> Int {
        (dimension * num + denom - 1) / denom
    }

    var value: Double { Double(num) / Double(denom) }

    var description: String { "\(num)/\(denom)" }
}

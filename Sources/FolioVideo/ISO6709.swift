import Foundation

/// A point as ISO 6709 writes it in videos' metadata: "+48.8577+002.2950+035.000/" (QuickTime's
/// `©xyz`, Apple's `com.apple.quicktime.location.ISO6709`, Android's `location`). Decimal
/// degrees only, which is what cameras and phones write; the sexagesimal forms are refused.
public enum ISO6709 {
    /// Latitude and longitude, or nil when `text` is not such a point or lies off the globe.
    public static func coordinates(_ text: String) -> (latitude: Double, longitude: Double)? {
        let bytes = Array(text.utf8.prefix(64))
        var numbers: [Double] = []
        var index = 0
        while index < bytes.count, numbers.count < 2 {
            let sign = bytes[index]
            guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { break }
            var end = index + 1
            while end < bytes.count, bytes[end] == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) {
                end += 1
            }
            let digits = bytes[(index + 1)..<end]
            // DDD.DDDD: the integer part has two (latitude) or three (longitude) digits.
            guard let dot = digits.firstIndex(of: UInt8(ascii: ".")) ?? Optional(end),
                  dot - index - 1 == (numbers.isEmpty ? 2 : 3),
                  let value = Double(String(decoding: digits, as: UTF8.self)) else { return nil }
            numbers.append(sign == UInt8(ascii: "-") ? -value : value)
            index = end
        }
        guard numbers.count == 2, abs(numbers[0]) <= 90, abs(numbers[1]) <= 180 else { return nil }
        // Null Island is what a phone without a fix writes, not where it was.
        guard numbers[0] != 0 || numbers[1] != 0 else { return nil }
        return (numbers[0], numbers[1])
    }
}

import Foundation

extension Date {
    /// The dates the model keeps: the years 1 to 9999, which its text columns spell with four
    /// digits. A catalog may say the year 3,000,000, or infinity in a binary plist; stored, such a
    /// date could not be read back and the whole build failed on it.
    static let storableRange: ClosedRange<Date> = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let first = calendar.date(from: DateComponents(year: 1, month: 1, day: 1))!
        let last = calendar.date(from: DateComponents(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59))!
        return first...last
    }()

    /// The date when the model can keep it; nil for NaN, infinities and years past 9999.
    /// (NaN is asked first: Date's `<=` is `!(b < a)`, which NaN passes.)
    package var storable: Date? {
        timeIntervalSinceReferenceDate.isFinite && Self.storableRange.contains(self) ? self : nil
    }
}

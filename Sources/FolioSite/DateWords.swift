import Foundation
import Synchronization

/// How a locale writes the numbers and dates pages show, by ICU through Foundation's format
/// styles, every date in UTC (a photo's time is the one its camera kept, not the reader's). A
/// library's timelines ask for the day of each of their photos and its pages for the time: each
/// day's and each minute's text is made once and kept, so a build of thousands of pages asks ICU
/// a few thousand times, not once a photo.
final class DateWords: Sendable {
    private let locale: Locale
    private let dayStyle: Date.FormatStyle
    private let timeStyle: Date.FormatStyle
    private let rangeStyle: Date.IntervalFormatStyle
    private let agoStyle: Date.AnchoredRelativeFormatStyle
    private let numberStyle: IntegerFormatStyle<Int>
    private let digitStyle: IntegerFormatStyle<Int>
    /// Whether numbers under a thousand are their digits as Swift writes them (no grouping
    /// below a thousand, and Latin digits): they are, without asking ICU.
    private let plainDigits: Bool
    private let days = Mutex<[Int: String]>([:])
    /// The times of day said so far, by minute of the day (in UTC, a time's text is its minute's).
    private let times = Mutex<[Int: String]>([:])

    init(locale: Locale) {
        self.locale = locale
        let utc = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0)!
        // The locale's own calendar (an ar-SA site's is the Hijri), set explicitly: a format
        // style's default is the machine's.
        var calendar = Calendar(identifier: locale.calendar.identifier)
        calendar.timeZone = utc
        calendar.locale = locale
        let style = Date.FormatStyle(locale: locale, calendar: calendar, timeZone: utc)
        dayStyle = style.day().month(.wide).year()
        timeStyle = style.hour().minute()
        rangeStyle = Date.IntervalFormatStyle(locale: locale, calendar: calendar, timeZone: utc).day().month(.wide).year()
        var ago = Date.AnchoredRelativeFormatStyle(anchor: Date(timeIntervalSinceReferenceDate: 0), presentation: .numeric,
                                                   unitsStyle: .wide)
        ago.locale = locale
        ago.calendar = calendar
        ago.allowedFields = [.hour]
        agoStyle = ago
        let numbers = IntegerFormatStyle<Int>(locale: locale)
        numberStyle = numbers
        digitStyle = numbers.grouping(.never)
        plainDigits = [7, 42, 999].allSatisfy { numbers.format($0) == String($0) }
    }

    func number(_ n: Int) -> String {
        plainDigits && (0..<1000).contains(n) ? String(n) : numberStyle.format(n)
    }

    func digits(_ n: Int) -> String {
        plainDigits && n >= 0 ? String(n) : digitStyle.format(n)
    }

    func day(_ date: Date) -> String { kept(date, in: days, every: 86_400, style: dayStyle) }

    func time(_ date: Date) -> String { kept(date, in: times, every: 60, wrapping: 1440, style: timeStyle) }

    /// `style`'s text of `date`, made once for each span of `every` seconds (counted from 1970,
    /// round a day of `wrapping` spans when given) and kept in `cache`.
    private func kept(_ date: Date, in cache: borrowing Mutex<[Int: String]>, every seconds: Double, wrapping: Int? = nil,
                      style: Date.FormatStyle) -> String {
        let since = date.timeIntervalSince1970
        guard since.isFinite, abs(since) < 1e13 else { return style.format(date) }
        var key = Int((since / seconds).rounded(.down))
        if let wrapping { key = (key % wrapping + wrapping) % wrapping }
        if let known = cache.withLock({ $0[key] }) { return known }
        let made = style.format(date)
        cache.withLock { $0[key] = made }
        return made
    }

    func days(from first: Date, to last: Date) -> String {
        guard first < last else { return day(first) }
        return rangeStyle.format(first..<last)
    }

    func list(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.formatted(.list(type: .and, width: .narrow).locale(locale))
    }

    func hoursAgo(_ hours: Int) -> String {
        // The anchor described from a moment `hours` later: "3 hours ago".
        agoStyle.format(agoStyle.anchor.addingTimeInterval(TimeInterval(hours) * 3600))
    }
}

import Foundation

/// A date and time as cameras keep it: the local time where the photo was taken, with no zone.
/// Folio reads it as UTC, so a photo's date shows the same wherever the site is built.
public enum LocalDateTime {
    /// "YYYY:MM:DD HH:MM:SS" (EXIF) or "YYYY-MM-DD HH:MM:SS" (Flickr) read as UTC. Cameras
    /// without a set clock write zeros or blanks; anything that is not a real date and time is nil.
    public static func date(from text: String) -> Date? {
        let numbers = text.split { !$0.isNumber }.compactMap { Int($0) }
        guard numbers.count >= 6 else { return nil }
        let (year, month, day, hour, minute, second) = (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
        guard (1...9999).contains(year), (1...12).contains(month), (1...daysIn(month, of: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        let seconds = daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Howard Hinnant's days_from_civil: exact for the proleptic Gregorian calendar, and free of
    /// Calendar and DateFormatter, which are slow and locale-dependent for this one fixed format.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The UTC calendar day and time of `date` (seconds dropped), in the Gregorian calendar, for
    /// years 1583 to 9999; nil for any other (Foundation's calendar is Julian before October
    /// 1582). See `civilSeconds`.
    package static func civil(_ date: Date) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int)? {
        guard let at = civilSeconds(date), (1583...9999).contains(at.year) else { return nil }
        return (at.year, at.month, at.day, at.hour, at.minute)
    }

    /// The UTC calendar day and time of `date`, to the second, in the Gregorian calendar (before
    /// 1582 too, as ISO 8601 has it); nil for a date no formatter writes either. Howard Hinnant's
    /// civil_from_days, the inverse of `daysSinceEpoch`.
    ///
    /// The time is first taken to the nearest millisecond, as Foundation's formatters do before
    /// they drop the rest: 14:04:59.9998 is said "14:05" by them, and so here.
    package static func civilSeconds(_ date: Date) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)? {
        let milliseconds = (date.timeIntervalSince1970 * 1000 + 0.5).rounded(.down)
        guard milliseconds.isFinite, abs(milliseconds) < 4e14 else { return nil }
        let inMilliseconds = Int(milliseconds)
        let whole = inMilliseconds >= 0 ? inMilliseconds / 1000 : -((-inMilliseconds + 999) / 1000)
        let days = whole >= 0 ? whole / 86_400 : -((-whole + 86_399) / 86_400)
        let inDay = whole - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, inDay / 3600, inDay % 3600 / 60, inDay % 60)
    }
}

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
}

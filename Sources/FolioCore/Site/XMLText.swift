import Foundation

/// Text for XML documents (the feed, the sitemap): escaped, and dates as RFC 3339 in UTC.
enum XMLText {
    /// Escapes what XML would read as markup, in text and in attribute values alike.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }

    /// "2026-11-19T10:00:00Z": what Atom's dates (RFC 3339) and the sitemap's `lastmod` (W3C
    /// Datetime) both accept. Worked out by hand, in UTC, the seconds' fraction dropped: a
    /// formatter made for each date was some 80 µs a date, a minute and a half of every build
    /// of a million-page site with a sitemap.
    static func date(_ date: Date) -> String {
        func floorDivide(_ value: Int64, _ by: Int64) -> Int64 { value >= 0 ? value / by : -((-value + by - 1) / by) }
        func digits(_ value: Int64, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = floorDivide(seconds, 86_400)
        let time = seconds - days * 86_400
        // Days since 1970 to the civil date (Howard Hinnant's algorithm, in eras of 400 years).
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return "\(digits(year, 4))-\(digits(month, 2))-\(digits(day, 2))T\(digits(time / 3_600, 2)):\(digits(time % 3_600 / 60, 2)):\(digits(time % 60, 2))Z"
    }
}

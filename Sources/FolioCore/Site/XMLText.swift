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
    /// Datetime) both accept.
    static func date(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}

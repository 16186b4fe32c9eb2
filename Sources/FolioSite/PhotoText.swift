import FolioCore
import FolioModel
import Foundation

/// How a photo is named wherever it is listed: its title; with no title, its description;
/// with neither, "Unknown". The subtitle is the description when it is not already the title.
public enum PhotoText {
    public static func title(_ photo: Photo) -> String {
        photo.title ?? photo.description ?? "Unknown"
    }

    public static func subtitle(_ photo: Photo) -> String {
        guard let description = photo.description, description != title(photo) else { return "" }
        return description
    }

    /// Alternative text: what the photo is, for people who cannot see it.
    public static func alt(_ item: GalleryPhoto) -> String {
        alt(item, of: item.photo)
    }

    /// The same, where `item`'s photo is unpacked already (`GalleryPhoto.photo`).
    static func alt(_ item: GalleryPhoto, of photo: Photo) -> String {
        // A photo with no words of its own (untitled, or titled by a file name of only
        // punctuation) is still "Photo": an image's alternative text is never empty.
        let title = title(photo)
        var parts = [title == "Unknown" || title.allSatisfy(\.isWhitespace) ? "Photo" : title]
        // No one named is not said: "Photo by Unknown" tells a listener nothing.
        if !item.person.isUnknown { parts.append("by \(item.person.name)") }
        if let place = item.place { parts.append("in \(place.title)") }
        return parts.joined(separator: " ")
    }

    static let dayFormatter: DateFormatter = {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "d MMMM yyyy"
        return f
    }()

    static let timeFormatter: DateFormatter = {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "d MMMM yyyy, HH:mm"
        return f
    }()

    static let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                         "September", "October", "November", "December"]

    /// "4 July 2021", in UTC. Written out by hand: a timeline page asks for a day for each of its
    /// photos, and a DateFormatter call each is a cost a build that redraws many pages feels. The
    /// formatters above say it for a year outside 1583–9999, and are what the tests hold this to.
    public static func day(_ date: Date) -> String {
        guard let at = LocalDateTime.civil(date) else { return dayFormatter.string(from: date) }
        return "\(at.day) \(months[at.month - 1]) \(at.year)"
    }

    /// "4 July 2021, 09:05", in UTC.
    public static func dateTime(_ date: Date) -> String {
        guard let at = LocalDateTime.civil(date) else { return timeFormatter.string(from: date) }
        return "\(at.day) \(months[at.month - 1]) \(at.year), \(twoDigits(at.hour)):\(twoDigits(at.minute))"
    }

    private static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }

    /// The heading of the section a photo taken at `date` falls in, seen at `now`:
    /// hours ago within the last day, then the day.
    public static func whenSection(_ date: Date, now: Date) -> String {
        let age = now.timeIntervalSince(date)
        guard age >= 0, age < 24 * 3600 else { return day(date) }
        let hours = Int(age / 3600)
        switch hours {
        case 0: return "Within the last hour"
        case 1: return "1 hour ago"
        default: return "\(hours) hours ago"
        }
    }

    public static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        Wording.count(n, singular, plural)
    }
}

import FolioCore
import FolioModel
import Foundation

/// How a photo is named wherever it is listed: its title; with no title, its description;
/// with neither, the language's word for an untitled photo ("Unknown"). The subtitle is the
/// description when it is not already the title.
public enum PhotoText {
    /// Whether the photo has words of its own to be named by.
    public static func hasWords(_ photo: Photo) -> Bool { photo.title != nil || photo.description != nil }

    public static func title(_ photo: Photo, _ language: SiteLanguage) -> String {
        photo.title ?? photo.description ?? language.say(.photoUntitled)
    }

    public static func subtitle(_ photo: Photo) -> String {
        guard let title = photo.title, let description = photo.description, description != title else { return "" }
        return description
    }

    /// Alternative text: what the photo is, for people who cannot see it.
    public static func alt(_ item: GalleryPhoto, _ language: SiteLanguage) -> String {
        alt(item, of: item.photo, language)
    }

    /// The same, where `item`'s photo is unpacked already (`GalleryPhoto.photo`).
    static func alt(_ item: GalleryPhoto, of photo: Photo, _ language: SiteLanguage) -> String {
        // A photo with no words of its own (untitled, or titled by a file name of only
        // punctuation) is still "Photo": an image's alternative text is never empty.
        let own = photo.title ?? photo.description
        let title = own.map { $0.allSatisfy(\.isWhitespace) } ?? true ? language.say(.photoAlt) : own!
        // No one named is not said: "Photo by Unknown" tells a listener nothing.
        let person = item.person.isUnknown ? nil : item.person.name
        switch (person, item.place?.title) {
        case let (person?, place?): return language.say(.photoAltByIn, ["title": title, "person": person, "place": place])
        case let (person?, nil): return language.say(.photoAltBy, ["title": title, "person": person])
        case let (nil, place?): return language.say(.photoAltIn, ["title": title, "place": place])
        case (nil, nil): return title
        }
    }

    /// The heading of the section a photo taken at `date` falls in, seen at `now`:
    /// hours ago within the last day, then the day.
    public static func whenSection(_ date: Date, now: Date, _ language: SiteLanguage) -> String {
        let age = now.timeIntervalSince(date)
        guard age >= 0, age < 24 * 3600 else { return language.day(date) }
        let hours = Int(age / 3600)
        return hours == 0 ? language.say(.whenWithinHour) : language.hoursAgo(hours)
    }
}

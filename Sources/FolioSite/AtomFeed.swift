import FolioCore
import Foundation

/// The Atom feed (RFC 4287) of the newest photos, at `feed.xml`: newest added first, each entry
/// the photo's title, its photographer as author, the time it was added as `updated`, a link to
/// its page and, as content, the picture and its description.
///
/// With a `baseURL` every link is absolute and ids are the pages' addresses; without one, links
/// are relative to the feed (which RFC 4287 allows: feed readers resolve them against the feed's
/// own address) and ids are `urn:uuid:` names made from the site's title and the photo's
/// identifier, so they stay the same from build to build. `updated` is the newest entry's, not
/// the build's time, so an unchanged gallery has an unchanged feed.
public enum AtomFeed {
    public static let path = "feed.xml"

    /// A name-based UUID for `text` (RFC 9562 version 8, "custom"): stable, and unique enough
    /// for ids, from two differently seeded XXH64 hashes.
    static func uuid(_ text: String) -> String {
        let hex = Array(ContentHash.hex(text, seed: 1) + ContentHash.hex(text, seed: 2))
        var digits = hex
        digits[12] = "8"
        digits[16] = ["8", "9", "a", "b"][Int(String(hex[16]), radix: 16)! & 3]
        let s = String(digits)
        func part(_ from: Int, _ to: Int) -> Substring { s.dropFirst(from).prefix(to - from) }
        return "urn:uuid:\(part(0, 8))-\(part(8, 12))-\(part(12, 16))-\(part(16, 20))-\(part(20, 32))"
    }
}

extension SiteBuilder {
    /// The feed of the `settings.feedCount` photos added last (none when it is 0).
    public func feed() -> SiteFile? {
        guard settings.feedCount > 0 else { return nil }
        let latest = latestAdded(settings.feedCount)
        func link(_ relative: String) -> String { XMLText.escape(address?.absolute(relative) ?? relative) }
        let e = XMLText.escape
        let updated = latest.first?.uploaded ?? now

        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xml:lang="\(e(settings.language))">
              <id>\(e(address?.absolute(AtomFeed.path) ?? AtomFeed.uuid("\(settings.title)\n")))</id>
              <title>\(e(settings.title))</title>
              <subtitle>\(e(siteDescription))</subtitle>
              <updated>\(XMLText.date(updated))</updated>
              <author><name>\(e(settings.title))</name></author>
              <link rel="self" type="application/atom+xml" href="\(link(AtomFeed.path))"/>
              <link rel="alternate" type="text/html" href="\(link(Route.home.path))"/>
              <icon>\(link("assets/apple-touch-icon.png"))</icon>
              <generator>Folio</generator>

            """
        for item in latest {
            let photo = item.photo
            let page = photoPath(item)
            let id = address?.absolute(page) ?? AtomFeed.uuid("\(settings.title)\n\(photo.identifier)")
            var content = ""
            if let image = images[photo]?.screen {
                let src = SiteAddress.image(image, in: address) ?? image.src
                content += "<p><a href=\"\(e(address?.absolute(page) ?? page))\"><img src=\"\(e(src))\" width=\"\(image.width)\" "
                    + "height=\"\(image.height)\" alt=\"\(e(PhotoText.alt(item, language)))\"></a></p>"
            }
            let subtitle = PhotoText.subtitle(photo)
            if !subtitle.isEmpty { content += "<p>\(e(subtitle))</p>" }
            // Someone must be named, in an entry's author and in its byline: no one is the
            // language's word for an unknown photographer.
            let person = item.person.isUnknown ? language.say(.personUnknown) : item.person.name
            let byline = item.place.map { language.say(.feedByIn, ["person": person, "place": $0.name]) }
                ?? language.say(.feedBy, ["person": person])
            content += "<p>\(e(byline))</p>"
            xml += """
                  <entry>
                    <id>\(e(id))</id>
                    <title>\(e(PhotoText.title(photo, language)))</title>
                    <updated>\(XMLText.date(photo.uploaded))</updated>
                    <author><name>\(e(person))</name></author>
                    <link rel="alternate" type="text/html" href="\(link(page))"/>
                    <content type="html">\(e(content))</content>
                  </entry>

                """
        }
        xml += "</feed>\n"
        return SiteFile(path: AtomFeed.path, text: xml)
    }
}

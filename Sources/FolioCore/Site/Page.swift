/// One page of the site, as a value: where it goes, which template draws it, what it shows.
/// Only the fields a kind of page uses are set; templates test for the others' absence.
public struct Page: Sendable, Encodable {
    public enum Section: String, Sendable, CaseIterable, Encodable {
        case home, albums, places, regions, people, favorites, recents, search, photo
    }

    /// Relative to the public root, e.g. "places/index.html".
    public var path: String
    public var template: String
    public var section: Section
    public var title: String
    public var heading: String
    public var subheading: String?
    /// A description written in Markdown (an album's sigal `index.md`), as HTML from cmark with
    /// raw HTML left out: shown unescaped under the heading.
    public var descriptionHTML: String?
    public var crumbs: [Crumb] = []

    public var rows: [ListRow]?
    /// The heading over `rows` when the page shows photos below them (an album's sub-albums).
    public var rowsTitle: String?
    public var rowSections: [RowSection]?
    public var letters: [IndexLetter]?
    public var photoSections: [PhotoSection]?
    public var photo: PhotoDetail?
    public var favoritesSwitch: FavoritesSwitch?
    public var stats: [StatLink]?
    public var emptyMessage: String?
    /// The place a page is about, for the theme's script (a place's favorites add the visitor's own).
    public var placeSlug: String?
    /// How the page looks when shared (Open Graph, Twitter): pages about photos have one.
    public var social: SocialCard?
    /// What the page is made from, for messages: "person 'Index'", "photo content/a.jpg".
    public var origin: String?
    /// Search engines are asked to leave the page out (an unlisted album's).
    public var noindex = false
    /// A protected album's page: the digest of its password, so a new password draws it again.
    public var lock: String?
    /// A protected page as published (template "locked"): the real page, encrypted.
    public var sealed: SealedPage?

    public init(path: String, template: String, section: Section, title: String, heading: String? = nil, subheading: String? = nil) {
        self.path = path
        self.template = template
        self.section = section
        self.title = title
        self.heading = heading ?? title
        self.subheading = subheading
    }

    /// The way back up to the public root from this page: "" or "../".
    public var root: String {
        String(repeating: "../", count: path.filter { $0 == "/" }.count)
    }

    /// Fails when two pages would be written to one path, naming what both are made from:
    /// one would silently replace the other.
    public static func checkPaths(_ pages: [Page]) throws {
        var seen: [String: Page] = [:]
        for page in pages {
            if let first = seen.updateValue(page, forKey: page.path) {
                throw FolioError(path: page.path, reason: "two pages would be written here: \(first.described) and \(page.described)")
            }
        }
    }

    var described: String { origin ?? "the page '\(title)'" }
}

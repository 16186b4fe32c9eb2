import Foundation
import Mustache

/// Draws pages through the theme's templates. HTML is escaped by default (`{{value}}`).
public struct PageRenderer: Sendable {
    public let theme: Theme
    public let settings: SiteSettings

    /// What a template sees: the page, the site, the way back to the root, the navigation.
    struct View {
        var page: Page
        var site: SiteSettings
        var root: String
        var nav: [NavItem]
        var generator: String
        var documentTitle: String
        // Mustache cannot ask whether a list is empty; these say it for the wrappers around lists.
        var hasCrumbs: Bool
        var hasLetters: Bool
        var hasTags: Bool
        /// A `feedCount` of 0 writes no feed, and pages must not point at one.
        var hasFeed: Bool
    }

    static let navigation: [(String, String, Page.Section)] = [
        ("Albums", "albums/index.html", .albums),
        ("Places", "places/index.html", .places),
        ("Top Regions", "regions/index.html", .regions),
        ("People", "people/index.html", .people),
        ("Favorites", "favorites/index.html", .favorites),
        ("Recents", "recents/index.html", .recents),
        ("Search", "search/index.html", .search),
    ]

    public init(theme: Theme, settings: SiteSettings) {
        self.theme = theme
        self.settings = settings
    }

    public func render(_ page: Page) throws -> String {
        let nav = Self.navigation.map { NavItem(title: $0.0, href: $0.1, current: $0.2 == page.section) }
        let view = View(
            page: page, site: settings, root: page.root, nav: nav, generator: "Folio",
            documentTitle: page.section == .home ? settings.title : "\(page.title) · \(settings.title)",
            hasCrumbs: !page.crumbs.isEmpty, hasLetters: !(page.letters ?? []).isEmpty,
            hasTags: !(page.photo?.tags ?? []).isEmpty, hasFeed: settings.feedCount > 0)
        guard let html = theme.library.render(view, withTemplate: page.template) else {
            throw FolioError(path: "templates/\(page.template).mustache", reason: "no such template (for \(page.path))")
        }
        return html
    }
}

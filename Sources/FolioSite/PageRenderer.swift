import FolioCore
import Foundation

/// Draws pages through the theme's templates. HTML is escaped by default (`{{value}}`).
public struct PageRenderer: Sendable {
    public let theme: Theme
    public let settings: SiteSettings
    public let language: SiteLanguage
    /// Every plain phrase, made once for all the pages (`SiteLanguage.templateWords`).
    private let words: TemplateValue

    /// What a template sees beside `page`: the site, the way back to the root, the navigation.
    struct View: Encodable {
        var site: SiteWords
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

    /// The site's words: rendition settings are the pipeline's business, not the templates'.
    struct SiteWords: Encodable {
        var title: String
        var description: String
        var baseURL: String?
        var language: String
        /// The page is laid out right to left (`dir="rtl"`).
        var rightToLeft: Bool
        /// The feed's title: "Folio demo: latest photos".
        var feedTitle: String
    }

    /// `language` resolved from the theme's catalogues and the settings unless given.
    public init(theme: Theme, settings: SiteSettings, language: SiteLanguage? = nil) {
        self.theme = theme
        self.settings = settings
        let language = language ?? (try? SiteLanguage(tag: settings.language, words: theme.words)) ?? .defaultTheme
        self.language = language
        words = language.templateWords
    }

    /// What the template sees, as Mustache reads it: the view's fields, and `page`, whose own
    /// fields and its frame's are side by side.
    func values(_ page: any SitePage, encoder: TemplateEncoder = TemplateEncoder()) throws -> TemplateObject {
        let frame = page.frame
        let view = View(
            site: SiteWords(title: settings.title, description: settings.description ?? language.say(.siteDescription),
                            baseURL: settings.baseURL, language: settings.language, rightToLeft: language.rightToLeft,
                            feedTitle: language.say(.layoutFeed, ["site": settings.title])),
            root: frame.root,
            nav: Route.navigation.filter { $0.route != .map || frame.hasMap }.map {
                NavItem(title: language.say($0.title), href: $0.route.path, current: $0.route.section == frame.section)
            },
            generator: "Folio",
            documentTitle: frame.section == .home ? settings.title : "\(frame.title) · \(settings.title)",
            hasCrumbs: !frame.crumbs.isEmpty, hasLetters: !((page as? PlacesPage)?.letters ?? []).isEmpty,
            hasTags: !((page as? PhotoPage)?.photo.tags ?? []).isEmpty, hasFeed: settings.feedCount > 0)
        var values = try encoder.encode(view).object ?? TemplateObject(names: [], values: [])
        var fields = try encoder.encode(page).object ?? TemplateObject(names: [], values: [])
        if let frameFields = fields.remove("frame")?.object {
            fields.add(frameFields)
        }
        values.set("page", .object(fields))
        values.set("words", words)
        return values
    }

    public func render(_ page: any SitePage) throws -> String {
        let template = type(of: page).template
        let drawn: String?
        do {
            drawn = try theme.library.render(.object(try values(page)), template: template)
        } catch let error as TemplateLibrary.TooDeep {
            throw FolioError(path: "templates/\(error.template).mustache", reason: "sections and partials nest more than "
                             + "\(ReadingLimits.nesting) deep when drawn (a partial that includes itself?), drawing \(page.path)")
        }
        guard let html = drawn else {
            throw FolioError(path: "templates/\(template).mustache", reason: "no such template (for \(page.path))")
        }
        return html
    }
}

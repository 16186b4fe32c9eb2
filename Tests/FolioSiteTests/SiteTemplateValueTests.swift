@testable import FolioCore
@testable import FolioMedia
@testable import FolioSite
import FolioTestSupport
import Foundation
import XCTest

/// Templates read page values by the names of their stored properties (`TemplateEncoder`). A
/// name a template asks for that no page value has renders as nothing, silently: every name in
/// the default theme is checked here against what pages of every kind hold.
final class SiteTemplateValueTests: XCTestCase {
    /// One page of every kind, every optional field set, so every name is met.
    func everyKindOfPage() -> [any SitePage] {
        var image = ImageRef(src: "media/a.jpg", width: 4, height: 3,
                             picture: PictureSource(type: "image/webp", candidates: [ImageCandidate(src: "media/a.webp", width: 4, last: true)]))
        image.animation = "media/a.gif"
        let crumb = Crumb(title: "t", href: "h")
        let zoom = TilePyramid(width: 4000, height: 3000, tileSize: 256, overlap: 1, format: "jpg", minLevel: 11, maxLevel: 12, tilesBase: "media/tiles/x/")
        var card = PhotoCard(href: "h", title: "t", subtitle: "s", alt: "a", thumb: image, favorite: true, identifier: "p1",
                             shape: image, shapeSizes: "300px", eager: true, leading: true)
        card.duration = "0:07"
        card.live = true
        let row = ListRow(href: "h", title: "t", subtitle: "s", thumb: image, alt: "a")
        var detail = PhotoDetail(identifier: "p1", title: "t", description: "d", descriptionHTML: "<p>d</p>", alt: "a", image: image, thumb: image,
                                 originalWidth: 4000, originalHeight: 3000, fillSizes: "100vw", zoom: zoom, zoomDescriptor: zoom.descriptor,
                                 facts: [Fact(kind: .place, label: "l", value: "v", href: "h")], tags: ["x"], favorite: true,
                                 previous: crumb, next: crumb, nextImage: image, nextSizes: "100vw",
                                 sequence: SequencePlace(key: "album/a", file: "f", number: 1, count: 2, title: "t", href: "h", html: "1 of 2 in <a href=\"h\">t</a>"))
        detail.video = "media/v.mp4"
        detail.liveVideo = "media/l.mp4"
        var frame = PageFrame(.place(slug: "p", page: "2019-05-12"), title: "t", subheading: "s")
        frame.descriptionHTML = "<p>d</p>"
        frame.crumbs = [crumb]
        frame.paging = Paging(.people(), number: 2, count: 9)
        frame.paging?.first = "people/index.html"
        frame.placeSlug = "p"
        frame.social = SocialCard(type: "article", title: "t", description: "d", url: "https://example.com/p.html", image: image,
                                  imageAlt: "a", address: SiteAddress("https://example.com/"))
        frame.origin = "o"
        frame.noindex = true
        frame.lock = "l"
        frame.sequence = PhotoSequence(kind: .album, slug: "a", title: "t")
        let sections = [PhotoSection(title: "t", photos: [card], keepsShapes: true, continued: true, href: "h", subtitle: "s", more: crumb)]
        let pin = MapFigure.Pin(coordinate: MapCoordinate(latitude: 1, longitude: 2), photos: 3, title: "t", subtitle: "s", name: "n", slug: "s", href: "h")
        let map = MapFigure(kind: "world", label: "l", pins: [pin], frame: .world, displayWidth: 1000, basemap: "b", root: "")
        return [
            HomePage(frame: frame, stats: [StatLink(label: "l", count: 1, countText: "1", href: "h", name: "n", note: "o")], photoSections: sections,
                     emptyMessage: "e"),
            PhotosPage(frame: frame, photoSections: sections, emptyMessage: "e", map: map),
            MapPage(frame: frame, map: map, places: [MapListItem(href: "h", title: "t", subtitle: "s", photos: "p")], moreNoteHTML: "m",
                    mapData: "d"),
            AlbumPage(frame: frame, rowsTitle: "r", rows: [row], photoSections: sections, emptyMessage: "e"),
            ListPage(frame: frame, rows: [row], favoritesSwitch: FavoritesSwitch(onlyFavorites: true, onlyHref: "o", allHref: "a"),
                     emptyMessage: "e"),
            PlacesPage(frame: frame, letters: [IndexLetter(letter: "A", id: "i", href: "#i", present: true, current: true)],
                       rowSections: [RowSection(id: "i", title: "t", rows: [row])], emptyMessage: "e"),
            SearchPage(frame: frame, noscriptHTML: "n"),
            PhotoPage(frame: frame, photo: detail, map: map),
            LockedPage(frame: frame, sealed: SealedPage(payload: "p", salt: "s", iterations: 1)),
        ]
    }

    /// The names page values hold, at any depth.
    func knownNames() throws -> Set<String> {
        let encoder = TemplateEncoder(recordingKeys: true)
        var settings = SiteSettings()
        settings.baseURL = "https://example.com/"
        let renderer = PageRenderer(theme: try Theme.load(defaultFolder: TestSite.theme, siteFolder: nil), settings: settings)
        for page in everyKindOfPage() { _ = try renderer.values(page, encoder: encoder) }
        return try XCTUnwrap(encoder.keys).union(["page"])
    }

    /// The names a template asks for that no page value holds: a phrase (`words.<key>`) must be
    /// a plain phrase of the theme's English catalogue.
    static func unknownNames(in template: String, known: Set<String>, phrases: Set<String> = englishPhrases) -> [String] {
        // {{name}}, {{{name}}}, {{&name}}, {{#name}}, {{^name}}: not closing tags, partials,
        // parents, blocks or comments, whose names are templates' own.
        let tag = try! NSRegularExpression(pattern: #"\{\{\{?\s*([#^&]?)\s*([A-Za-z0-9_.]+)\s*\}?\}\}"#)
        let text = template as NSString
        var unknown: [String] = []
        for match in tag.matches(in: template, range: NSRange(location: 0, length: text.length)) {
            let name = text.substring(with: match.range(at: 2))
            guard name != "." else { continue }
            if name.hasPrefix("words.") {
                if !phrases.contains(String(name.dropFirst("words.".count))) { unknown.append(name) }
                continue
            }
            for part in name.split(separator: ".") where !known.contains(String(part)) {
                unknown.append(name)
            }
        }
        return unknown
    }

    func testEveryNameInTheDefaultTemplatesIsOnePagesHold() throws {
        let known = try knownNames()
        let files = try FileManager.default.contentsOfDirectory(atPath: TestSite.theme.path).filter { $0.hasSuffix(".mustache") }
        XCTAssertGreaterThan(files.count, 10)
        for file in files {
            let text = try String(contentsOf: TestSite.theme.appendingPathComponent(file), encoding: .utf8)
            XCTAssertEqual(Self.unknownNames(in: text, known: known), [], "\(file) asks for names no page holds")
        }
    }

    /// The plain phrases of the default theme's English catalogue, by key.
    static let englishPhrases: Set<String> = {
        let catalogues = (try? Theme.catalogues(in: TestSite.theme)) ?? [:]
        return Set(catalogues["en"]?.entries.compactMap { key, entry in
            if case .text = entry { return key }
            return nil
        } ?? [])
    }()

    func testAMisspeltNameIsFound() throws {
        let known = try knownNames()
        XCTAssertEqual(Self.unknownNames(in: "{{words.layout.skip}} {{words.layout.skp}} {{words.count.photos}}", known: known),
                       ["words.layout.skp", "words.count.photos"], "a phrase the catalogue lacks, or one that counts")
        XCTAssertEqual(Self.unknownNames(in: "<h1>{{page.titel}}</h1>{{#page.photo}}{{originalWidht}}{{/page.photo}}", known: known),
                       ["page.titel", "originalWidht"])
        XCTAssertEqual(Self.unknownNames(in: "<h1>{{page.title}}</h1>{{>srcset}}{{! a comment }}{{$main}}{{/main}}", known: known), [])
    }

    /// The values that write their own template value (`TemplateConvertible`) write what their
    /// encoding would, on pages of every kind; their sample sets every optional field, so a field
    /// added to one of them and not to what it writes is found.
    func testValuesThatWriteThemselvesWriteWhatTheirEncodingWould() throws {
        let renderer = PageRenderer(theme: try Theme.load(defaultFolder: TestSite.theme, siteFolder: nil), settings: SiteSettings())
        for page in everyKindOfPage() {
            let written = try renderer.values(page)
            let encoded = try renderer.values(page, encoder: TemplateEncoder(recordingKeys: true))
            XCTAssertEqual(written, encoded, "\(type(of: page))")
        }
        let page = try XCTUnwrap(everyKindOfPage().compactMap { $0 as? PhotosPage }.first)
        let card = try XCTUnwrap(page.photoSections.first?.photos.first)
        let image = try XCTUnwrap(card.thumb)
        let picture = try XCTUnwrap(image.picture)
        let photoPage = try XCTUnwrap(everyKindOfPage().compactMap { $0 as? PhotoPage }.first)
        let detail = photoPage.photo, frame = photoPage.frame
        let paging = try XCTUnwrap(frame.paging)
        let words = PageRenderer.SiteWords(title: "t", description: "d", baseURL: "https://example.com/", language: "en", rightToLeft: true,
                                           feedTitle: "f")
        let nav = NavItem(title: "t", href: "h", current: true)
        let view = PageRenderer.View(site: words, root: "", nav: [nav], generator: "g", documentTitle: "d",
                                     hasCrumbs: true, hasLetters: true, hasTags: true, hasFeed: true)
        let samples: [any TemplateConvertible] = [
            card, image, picture, try XCTUnwrap(picture.candidates.first),
            photoPage, detail, frame, try XCTUnwrap(detail.zoom), try XCTUnwrap(detail.facts.first), try XCTUnwrap(detail.previous),
            try XCTUnwrap(detail.sequence), try XCTUnwrap(frame.sequence), try XCTUnwrap(frame.social), paging,
            try XCTUnwrap(paging.pages.first), try XCTUnwrap(photoPage.map), view, words, nav, page, try XCTUnwrap(page.photoSections.first),
        ]
        for sample in samples {
            let absent = Mirror(reflecting: sample).children.filter { child in
                if case Optional<Any>.none = child.value { return true }
                return false
            }
            XCTAssertEqual(absent.compactMap(\.label), [], "\(type(of: sample)): the sample sets every field")
            XCTAssertEqual(sample.templateValue.object?.names.count, Mirror(reflecting: sample).children.count, "\(type(of: sample))")
        }
    }

    func testAPageSeesItsOwnFieldsAndItsFramesSideBySide() throws {
        let renderer = PageRenderer(theme: try Theme.load(defaultFolder: TestSite.theme, siteFolder: nil), settings: SiteSettings())
        var frame = PageFrame(.place(slug: "paris", page: "2019-05-12"), title: "Paris")
        frame.paging = Paging(.people(), number: 2, count: 3)
        let values = try renderer.values(PhotosPage(frame: frame, photoSections: [], emptyMessage: nil))
        let page = try XCTUnwrap(values["page"]?.object)
        XCTAssertEqual(page["path"]?.text, "places/paris/2019-05-12.html")
        XCTAssertEqual(page["title"]?.text, "Paris")
        XCTAssertEqual(page["section"]?.text, "places")
        XCTAssertNotNil(page["photoSections"]?.list)
        XCTAssertNil(page["frame"], "the frame's fields are the page's own")
        XCTAssertNil(page["emptyMessage"], "an absent value is absent, so Mustache's {{^…}} sees it so")
        XCTAssertEqual(values["root"]?.text, "../../")
        let paging = try XCTUnwrap(page["paging"]?.object)
        XCTAssertEqual(paging["previous"]?.text, "people/index.html")
        XCTAssertEqual(paging["next"]?.text, "people/index/3.html")
    }
}

import Foundation
import XCTest
@testable import FolioCore

/// Page values answer templates' names themselves (Mirror was too slow); a stored property they
/// do not answer would render as nothing, so every one of them is checked here.
final class SiteTemplateValueTests: XCTestCase {
    func check<T: TemplateValue>(_ value: T, computed: Set<String> = [], file: StaticString = #filePath, line: UInt = #line) {
        let labels = Set(Mirror(reflecting: value).children.compactMap(\.label)).union(computed)
        XCTAssertEqual(labels.subtracting(T.templateKeys), [], "\(T.self) has fields templates cannot see", file: file, line: line)
        XCTAssertEqual(T.templateKeys.subtracting(labels), [], "\(T.self) answers names it does not have", file: file, line: line)
        for key in T.templateKeys {
            XCTAssertNotNil(value.child(named: key), "\(T.self).\(key) is not answered", file: file, line: line)
        }
        XCTAssertNil(value.child(named: "noSuchName"), file: file, line: line)
    }

    func testEveryStoredPropertyIsAnswered() {
        var image = ImageRef(src: "media/a.jpg", width: 4, height: 3,
                             picture: PictureSource(type: "image/webp", candidates: [ImageCandidate(src: "media/a.webp", width: 4, last: true)]))
        image.animation = "media/a.gif"
        let crumb = Crumb(title: "t", href: "h")
        let zoom = TilePyramid(width: 4000, height: 3000, tileSize: 256, overlap: 1, format: "jpg", minLevel: 11, maxLevel: 12, tilesBase: "media/tiles/x/")
        let card = PhotoCard(href: "h", title: "t", subtitle: "s", alt: "a", thumb: image, favorite: true, identifier: "p1",
                             shape: image, shapeSizes: "300px", eager: true, leading: true)
        let row = ListRow(href: "h", title: "t", subtitle: "s", thumb: image, alt: "a")
        let detail = PhotoDetail(identifier: "p1", title: "t", description: "d", descriptionHTML: "<p>d</p>", alt: "a", image: image, thumb: image,
                                 originalWidth: 4000, originalHeight: 3000, fillSizes: "100vw", zoom: zoom,
                                 facts: [Fact(label: "l", value: "v", href: "h")], tags: ["x"], favorite: true,
                                 previous: crumb, next: crumb, nextImage: image, nextSizes: "100vw")
        var page = Page(path: "places/index.html", template: "places", section: .places, title: "Places", subheading: "s")
        page.crumbs = [crumb]
        page.descriptionHTML = "<p>d</p>"
        page.rows = [row]
        page.rowsTitle = "r"
        page.rowSections = [RowSection(id: "i", title: "t", rows: [row])]
        page.letters = [IndexLetter(letter: "A", id: "i", present: true)]
        page.photoSections = [PhotoSection(title: "t", photos: [card])]
        page.photo = detail
        page.favoritesSwitch = FavoritesSwitch(onlyFavorites: true, onlyHref: "o", allHref: "a")
        page.stats = [StatLink(label: "l", count: 1, href: "h", name: "n", note: "o")]
        page.emptyMessage = "e"
        page.placeSlug = "p"
        page.origin = "o"
        page.lock = "l"
        page.sealed = SealedPage(payload: "p", salt: "s", iterations: 1)
        page.social = SocialCard(type: "article", title: "t", description: "d", url: "https://example.com/p.html", image: image,
                                 imageAlt: "a", address: SiteAddress("https://example.com/"))
        var settings = SiteSettings()
        settings.baseURL = "https://example.com/"

        check(page)
        check(page.sealed!)
        check(image)
        check(image.candidates[0])
        check(image.picture!)
        check(zoom, computed: ["descriptor"])
        check(card)
        check(row)
        check(page.rowSections![0])
        check(page.photoSections![0])
        check(page.letters![0])
        check(NavItem(title: "t", href: "h", current: true))
        check(crumb)
        check(page.stats![0])
        check(detail.facts[0])
        check(detail)
        check(page.favoritesSwitch!)
        check(page.social!)
        check(PageRenderer.View(page: page, site: settings, root: "", nav: [], generator: "Folio", documentTitle: "d",
                                hasCrumbs: true, hasLetters: true, hasTags: true, hasFeed: true))

        let siteKeys = Set(Mirror(reflecting: settings).children.compactMap(\.label))
        XCTAssertTrue(SiteSettings.templateKeys.isSubset(of: siteKeys))
        for key in SiteSettings.templateKeys { XCTAssertNotNil(settings.child(named: key), key) }
    }
}

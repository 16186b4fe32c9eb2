@testable import FolioCore
@testable import FolioImaging
@testable import FolioPublish
@testable import FolioSite
import FolioTestSupport
import Foundation
import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif

/// What makes a published gallery findable: the Atom feed, the sitemap, robots.txt, Open Graph
/// and Twitter cards, the icons; and the settings they read, checked as folio.json is loaded.
final class DiscoveryTests: XCTestCase {
    static let atom = "http://www.w3.org/2005/Atom"
    static let base = "https://example.com/photos/"
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let dayAfter = now.addingTimeInterval(86_400)

    static func rfc3339(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    func site(baseURL: String?) throws -> TestSite {
        let site = try TestSite.threePhotos()
        // The loose photo is dated by its file, which is now: the tests want dates they chose.
        try FileManager.default.removeItem(at: site.content.appendingPathComponent("loose"))
        let uploaded: [[String: Any]] = [
            ["path": "one.jpg", "name": "Urban <disaster> & co", "user": "Josh", "description": "Rubble",
             "place": "Palo Alto, California, United States", "favorite": true, "uploaded": Date(timeIntervalSince1970: 1_794_000_000)],
            ["path": "two.jpg", "user": "Al", "place": "Nairobi, Kenya", "taken": Date(timeIntervalSince1970: 1_700_000_000),
             "uploaded": Date(timeIntervalSince1970: 1_793_000_000)],
        ]
        try site.catalog("FakeData.plist", uploaded)
        let settings = baseURL.map { #"{"title": "Disc & co", "baseURL": "\#($0)"}"# } ?? #"{"title": "Disc & co"}"#
        try site.write(Data(settings.utf8), to: "folio.json")
        return site
    }

    /// FoundationXML's `attribute(forName:)` finds nothing on an element in a default namespace.
    func attribute(_ element: XMLElement?, _ name: String) -> String? {
        element?.attributes?.first { $0.name == name }?.stringValue
    }

    func element(_ parent: XMLElement, _ name: String) -> XMLElement? {
        parent.elements(forLocalName: name, uri: Self.atom).first
    }

    func feed(_ site: TestSite) throws -> XMLElement {
        let document = try XMLDocument(data: Data(contentsOf: site.publicFolder.appendingPathComponent("feed.xml")))
        let root = try XCTUnwrap(document.rootElement())
        XCTAssertEqual(root.localName, "feed")
        XCTAssertEqual(root.uri, Self.atom, "the Atom namespace")
        return root
    }

    /// RFC 4287's musts: a feed has one id, title and updated, and an author unless every entry
    /// has its own; an entry has one id, title and updated; dates are RFC 3339.
    func checkRequiredElements(_ feed: XMLElement) throws {
        let date = ISO8601DateFormatter()
        for name in ["id", "title", "updated"] {
            XCTAssertEqual(feed.elements(forLocalName: name, uri: Self.atom).count, 1, "feed/\(name)")
        }
        XCTAssertNotNil(date.date(from: element(feed, "updated")?.stringValue ?? ""), "feed/updated is RFC 3339")
        XCTAssertFalse(element(element(feed, "author")!, "name")?.stringValue?.isEmpty ?? true, "feed/author/name")
        for entry in feed.elements(forLocalName: "entry", uri: Self.atom) {
            for name in ["id", "title", "updated"] {
                XCTAssertEqual(entry.elements(forLocalName: name, uri: Self.atom).count, 1, "entry/\(name)")
            }
            XCTAssertNotNil(date.date(from: element(entry, "updated")?.stringValue ?? ""), "entry/updated is RFC 3339")
            let id = try XCTUnwrap(element(entry, "id")?.stringValue)
            XCTAssertNotNil(URL(string: id)?.scheme, "an id is an absolute IRI: \(id)")
            XCTAssertEqual(attribute(entry.elements(forLocalName: "link", uri: Self.atom).first, "rel"), "alternate")
            XCTAssertEqual(attribute(element(entry, "content"), "type"), "html")
        }
    }

    func testTheFeedIsAtomWithTheNewestPhotosAndAbsoluteLinksWithABase() async throws {
        let site = try site(baseURL: Self.base)
        try await site.build(now: Self.now)
        let feed = try feed(site)
        try checkRequiredElements(feed)
        XCTAssertEqual(element(feed, "title")?.stringValue, "Disc & co", "text is escaped and reads back as it was")
        XCTAssertEqual(element(feed, "id")?.stringValue, Self.base + "feed.xml")
        let links = feed.elements(forLocalName: "link", uri: Self.atom).map {
            (attribute($0, "rel") ?? "", attribute($0, "href") ?? "")
        }
        XCTAssertEqual(links.map(\.0), ["self", "alternate"])
        XCTAssertEqual(links.map(\.1), [Self.base + "feed.xml", Self.base + "index.html"])

        let entries = feed.elements(forLocalName: "entry", uri: Self.atom)
        XCTAssertEqual(entries.count, 2)
        let titles = entries.map { element($0, "title")!.stringValue! }
        XCTAssertEqual(titles.first, "Urban <disaster> & co", "the newest addition first, its title escaped: \(titles)")
        XCTAssertEqual(titles[1], "Unknown", "then two.jpg, uploaded before it")
        XCTAssertEqual(element(feed, "updated")?.stringValue, Self.rfc3339(Date(timeIntervalSince1970: 1_794_000_000)),
                       "the newest entry's time, not the build's")
        let one = try site.identifier("one.jpg")
        let first = entries[0]
        XCTAssertEqual(element(first, "id")?.stringValue, Self.base + "photos/\(one).html")
        XCTAssertEqual(element(element(first, "author")!, "name")?.stringValue, "Josh")
        let content = try XCTUnwrap(element(first, "content")?.stringValue)
        let src = try XCTUnwrap(PublicTreeChecks.matches(#"<img src="([^"]+)""#, in: content).first, content)
        XCTAssertTrue(src.hasPrefix(Self.base + "media/"), src)
        XCTAssertTrue(site.exists(String(src.dropFirst(Self.base.count))), "the image is published: \(src)")
        XCTAssertTrue(content.contains(#"alt="Urban &lt;disaster&gt; &amp; co by Josh in Palo Alto""#), content)
        XCTAssertTrue(content.contains("<p>Rubble</p>"), content)
        let raw = try String(contentsOf: site.publicFolder.appendingPathComponent("feed.xml"), encoding: .utf8)
        XCTAssertFalse(raw.contains("<disaster>"), "markup in a title never reaches the feed as markup")
    }

    func testWithoutABaseTheFeedLinksRelativelyAndKeepsItsIds() async throws {
        let site = try site(baseURL: nil)
        try await site.build(now: Self.now)
        let feed = try feed(site)
        try checkRequiredElements(feed)
        let ids = feed.elements(forLocalName: "entry", uri: Self.atom).map { element($0, "id")!.stringValue! }
        XCTAssertTrue(ids.allSatisfy { $0.hasPrefix("urn:uuid:") && $0.count == 45 }, "\(ids)")
        XCTAssertEqual(Set(ids).count, 2)
        let one = try site.identifier("one.jpg")
        let entry = feed.elements(forLocalName: "entry", uri: Self.atom)[0]
        XCTAssertEqual(attribute(entry.elements(forLocalName: "link", uri: Self.atom).first, "href"), "photos/\(one).html")
        let src = try XCTUnwrap(PublicTreeChecks.matches(#"<img src="([^"]+)""#, in: element(entry, "content")!.stringValue!).first)
        XCTAssertTrue(src.hasPrefix("media/") && site.exists(src), "relative to the feed, which is at the root: \(src)")

        // Another build, a day later, with a changed setting: the same ids, the same dates.
        try site.write(Data(#"{"title": "Disc & co", "latestCount": 5}"#.utf8), to: "folio.json")
        try await site.build(now: Self.dayAfter)
        let again = try self.feed(site)
        XCTAssertEqual(again.elements(forLocalName: "entry", uri: Self.atom).map { element($0, "id")!.stringValue! }, ids)
        XCTAssertEqual(element(again, "updated")?.stringValue, element(feed, "updated")?.stringValue)

        XCTAssertFalse(site.exists("sitemap.xml"), "a sitemap holds absolute addresses only: none without a base")
        XCTAssertEqual(try site.read("robots.txt"), "User-agent: *\nAllow: /\n")
    }

    func testAFeedCountOfZeroMeansNoFeed() async throws {
        let site = try site(baseURL: nil)
        try site.write(Data(#"{"feedCount": 0}"#.utf8), to: "folio.json")
        try await site.build(now: Self.now)
        XCTAssertFalse(site.exists("feed.xml"))
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [], "no page points at the feed that is not there")
        XCTAssertFalse(try site.read("index.html").contains("application/atom+xml"))
    }

    func testTheSitemapListsEveryPageWithWhenItsHTMLLastChanged() async throws {
        let site = try site(baseURL: Self.base)
        try await site.build(now: Self.now)
        XCTAssertEqual(try site.read("robots.txt"), "User-agent: *\nAllow: /\n\nSitemap: \(Self.base)sitemap.xml\n")
        func lastmods() throws -> [String: String] {
            let document = try XMLDocument(data: Data(contentsOf: site.publicFolder.appendingPathComponent("sitemap.xml")))
            let root = try XCTUnwrap(document.rootElement())
            XCTAssertEqual(root.localName, "urlset")
            XCTAssertEqual(root.uri, "http://www.sitemaps.org/schemas/sitemap/0.9")
            var found: [String: String] = [:]
            for url in root.elements(forLocalName: "url", uri: root.uri) {
                let loc = try XCTUnwrap(url.elements(forLocalName: "loc", uri: root.uri).first?.stringValue)
                XCTAssertTrue(loc.hasPrefix(Self.base), loc)
                var path = String(loc.dropFirst(Self.base.count))
                if path.isEmpty { path = "index.html" }
                found[path] = url.elements(forLocalName: "lastmod", uri: root.uri).first?.stringValue
            }
            return found
        }
        let first = try lastmods()
        XCTAssertEqual(Set(first.keys), Set(PublicTreeChecks(root: site.publicFolder).pages), "every page, and only pages")
        XCTAssertEqual(Set(first.values), [Self.rfc3339(Self.now)], "each page was made by this build")

        // A day later one photo gets a new title: the pages that show it change, the rest do not.
        var records: [[String: Any]] = [
            ["path": "one.jpg", "name": "Renamed", "user": "Josh", "description": "Rubble",
             "place": "Palo Alto, California, United States", "favorite": true, "uploaded": Date(timeIntervalSince1970: 1_794_000_000)],
            ["path": "two.jpg", "user": "Al", "place": "Nairobi, Kenya", "taken": Date(timeIntervalSince1970: 1_700_000_000),
             "uploaded": Date(timeIntervalSince1970: 1_793_000_000)],
        ]
        try site.catalog("FakeData.plist", records)
        try await site.build(now: Self.dayAfter)
        let second = try lastmods()
        let one = try site.identifier("one.jpg")
        XCTAssertEqual(second["photos/\(one).html"], Self.rfc3339(Self.dayAfter))
        XCTAssertEqual(second["people/josh.html"], Self.rfc3339(Self.dayAfter))
        XCTAssertEqual(second["people/al.html"], Self.rfc3339(Self.now), "a page that came out the same keeps its time")
        XCTAssertEqual(second["places/nairobi-kenya.html"], Self.rfc3339(Self.now))
        records.removeAll()
    }

    /// Past the protocol's 50,000 addresses (here a limit of 3), the pages go in numbered sitemaps,
    /// and sitemap.xml, which robots.txt names, becomes their index.
    func testPastTheLimitTheSitemapIsAnIndexOfNumberedSitemaps() throws {
        let address = try XCTUnwrap(SiteAddress(Self.base))
        let early = Self.now.addingTimeInterval(-86_400)
        let pages: [(path: String, changed: Date)] = [
            ("photos/b.html", early), ("index.html", early), ("places/index.html", Self.now), ("photos/a.html", early),
            ("people/x.html", early), ("photos/c.html", Self.now), ("photos/d.html", early),
        ]
        XCTAssertEqual(try Sitemap.files(pages: Array(pages.prefix(3)), address: address, limit: 3).map(\.path), ["sitemap.xml"],
                       "up to the limit, one sitemap")
        let files = try Sitemap.files(pages: pages, address: address, limit: 3)
        XCTAssertEqual(files.map(\.path), ["sitemap.xml", "sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml"])
        XCTAssertEqual(files.map { PublishFile.Phase.of($0.path) }, Array(repeating: .entrances, count: 4))

        func read(_ file: SiteFile, _ element: String) throws -> (root: String, entries: [(loc: String, lastmod: String)]) {
            let root = try XCTUnwrap(try XMLDocument(data: file.data).rootElement())
            XCTAssertEqual(root.uri, "http://www.sitemaps.org/schemas/sitemap/0.9")
            return (root.localName ?? "", try root.elements(forLocalName: element, uri: root.uri).map { entry in
                (try XCTUnwrap(entry.elements(forLocalName: "loc", uri: root.uri).first?.stringValue),
                 try XCTUnwrap(entry.elements(forLocalName: "lastmod", uri: root.uri).first?.stringValue))
            })
        }
        let index = try read(files[0], "sitemap")
        XCTAssertEqual(index.root, "sitemapindex")
        XCTAssertEqual(index.entries.map(\.loc), (1...3).map { Self.base + "sitemap-\($0).xml" })
        XCTAssertEqual(index.entries.map(\.lastmod), [Self.now, Self.now, early].map(Self.rfc3339),
                       "each part changed when its latest page did")
        var listed: [String] = []
        for part in files.dropFirst() {
            let urls = try read(part, "url")
            XCTAssertEqual(urls.root, "urlset")
            XCTAssertLessThanOrEqual(urls.entries.count, 3)
            listed += urls.entries.map(\.loc)
        }
        XCTAssertEqual(listed, [Self.base, Self.base + "places/index.html"] + ["people/x.html", "photos/a.html", "photos/b.html",
                                                                              "photos/c.html", "photos/d.html"].map { Self.base + $0 },
                       "every page once, the home page first, in the order of one sitemap")
        XCTAssertEqual(String(decoding: Sitemap.robots(address: address).data, as: UTF8.self),
                       "User-agent: *\nAllow: /\n\nSitemap: \(Self.base)sitemap.xml\n", "robots.txt names the index")
        XCTAssertEqual(try Sitemap.files(pages: pages, address: nil, limit: 3).count, 0, "no base, no sitemap")
    }

    /// The sitemap's and the feed's dates, worked out by hand, are the ones Foundation's
    /// formatter writes, on both sides of 1970, from 1583 (before the Gregorian reform Foundation
    /// turns Julian; ISO 8601 stays Gregorian, as the hand-made ones do) to 9999.
    func testDatesAreWrittenAsTheISOFormatterWritesThem() {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        var random = SplitMix64(0xDA7E)
        // 1583-01-01 and 9999-12-31T23:59:59, in seconds since 1970.
        let (first, last): (Int64, Int64) = (-12_212_553_600, 253_402_300_799)
        let fixed: [TimeInterval] = [0, -1, -0.5, -0.0001, 0.999, 0.9998, 59.9996, 86_399, 86_400, 951_782_400, 951_868_800,
                                     4_107_542_400, -2_208_988_800, TimeInterval(first), TimeInterval(last), 1_764_000_059.9999]
        for seconds in fixed + (0..<20_000).map({ _ in TimeInterval(Int64(random.next() % UInt64(last - first)) + first) + 0.25 }) {
            let date = Date(timeIntervalSince1970: seconds)
            XCTAssertEqual(XMLText.date(date), formatter.string(from: date), "\(seconds)")
        }
        XCTAssertEqual(XMLText.date(Date(timeIntervalSince1970: 1_763_546_400)), "2025-11-19T10:00:00Z")
    }

    func meta(_ html: String) -> [String: String] {
        var found: [String: String] = [:]
        for tag in PublicTreeChecks.matches(#"(<meta (?:property|name)="(?:og|twitter):[^>]*>)"#, in: html) {
            let key = PublicTreeChecks.matches(#"(?:property|name)="([^"]+)""#, in: tag)[0]
            found[key] = PublicTreeChecks.matches(#"content="([^"]*)""#, in: tag).first
        }
        return found
    }

    func testPhotoPlaceAndPersonPagesHaveCardsWithAbsoluteAddressesFromTheBase() async throws {
        let site = try site(baseURL: Self.base)
        try await site.build(now: Self.now)
        let one = try site.identifier("one.jpg")
        let photo = meta(try site.read("photos/\(one).html"))
        XCTAssertEqual(photo["og:type"], "article")
        XCTAssertEqual(photo["og:title"], "Urban &lt;disaster&gt; &amp; co")
        XCTAssertEqual(photo["og:description"], "Rubble")
        XCTAssertEqual(photo["og:url"], Self.base + "photos/\(one).html")
        let image = try XCTUnwrap(photo["og:image"])
        XCTAssertTrue(image.hasPrefix(Self.base + "media/") && image.contains("-screen-"), image)
        XCTAssertTrue(site.exists(String(image.dropFirst(Self.base.count))))
        XCTAssertEqual(photo["twitter:image"], image)
        XCTAssertEqual(photo["twitter:card"], "summary_large_image")
        XCTAssertNotNil(photo["og:image:width"])
        for page in ["places/palo-alto-california-united-states.html", "people/josh.html", "regions/california.html", "index.html"] {
            let card = meta(try site.read(page))
            XCTAssertEqual(card["og:type"], "website", page)
            XCTAssertEqual(card["og:url"], Self.base + page, page)
            XCTAssertTrue(card["og:image"]?.hasPrefix(Self.base + "media/") ?? false, "\(page): \(card)")
        }
        let person = meta(try site.read("people/josh.html"))
        XCTAssertEqual(person["og:title"], "Josh")
        XCTAssertEqual(person["og:description"], "1 photo")
        XCTAssertNil(meta(try site.read("search/index.html"))["og:title"], "a page about no photo has no card")
    }

    func testAnAlbumsCardShowsItsChosenCover() async throws {
        let site = try site(baseURL: Self.base)
        for (name, seed) in [("harbour.jpg", 7), ("hills.jpg", 8)] {
            var sample = SamplePhoto(width: 240, height: 180, seed: UInt64(seed))
            sample.taken = Date(timeIntervalSince1970: 1_600_000_000 + Double(seed) * 86_400)
            try site.write(try sample.jpeg(), to: "content/coast/\(name)")
        }
        let album = try PropertyListSerialization.data(fromPropertyList: ["title": "The coast", "description": "Salt & wind", "cover": "harbour.jpg"],
                                                       format: .xml, options: 0)
        try site.write(album, to: "content/coast/album.plist")
        try await site.build(now: Self.now)
        let card = meta(try site.read("albums/coast.html"))
        XCTAssertEqual(card["og:type"], "website")
        XCTAssertEqual(card["og:title"], "The coast")
        XCTAssertTrue(card["og:description"]?.hasPrefix("Salt &amp; wind · 2 photos") ?? false, "\(card)")
        XCTAssertEqual(card["og:url"], Self.base + "albums/coast.html")
        let harbour = try XCTUnwrap(try site.database.snapshot().photos.first { $0.photo.source == .content(path: "coast/harbour.jpg") }?.photo.checksum)
        XCTAssertTrue(card["og:image"]?.hasPrefix(Self.base + "media/\(harbour.prefix(16))") ?? false,
                      "the cover album.plist names, not the newest photo (hills): \(card)")
    }

    func testWithoutABaseCardsHaveNoAddressThatWouldNeedOne() async throws {
        let site = try site(baseURL: nil)
        try await site.build(now: Self.now)
        let one = try site.identifier("one.jpg")
        for page in ["photos/\(one).html", "places/palo-alto-california-united-states.html", "people/josh.html"] {
            let card = meta(try site.read(page))
            XCTAssertNotNil(card["og:title"], page)
            XCTAssertNotNil(card["og:description"], page)
            XCTAssertEqual(card["twitter:card"], "summary", page)
            for key in ["og:url", "og:image", "og:image:alt", "twitter:image"] { XCTAssertNil(card[key], "\(page): \(key)") }
        }
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])
    }

    func testAFlickrPhotosImageIsAbsoluteWithoutABase() {
        let flickr = ImageRef(src: "https://live.staticflickr.com/1/2_b.jpg", width: 1024, height: 768, external: true)
        let card = SocialCard(type: "article", title: "t", description: "d", url: nil, image: flickr, imageAlt: "a", address: nil)
        XCTAssertEqual(card.image, flickr.src)
        XCTAssertEqual(card.imageWidth, 1024)
        let own = ImageRef(src: "media/a b.jpg", width: 10, height: 10)
        XCTAssertNil(SocialCard(type: "article", title: "t", description: "d", url: nil, image: own, imageAlt: "a", address: nil).image)
        XCTAssertEqual(SocialCard(type: "article", title: "t", description: "d", url: nil, image: own, imageAlt: "a",
                                  address: SiteAddress("https://example.com/x")).image, "https://example.com/x/media/a%20b.jpg")
    }

    func testEveryPageLinksTheFeedAndTheIcons() async throws {
        let site = try site(baseURL: nil)
        try await site.build(now: Self.now)
        for page in PublicTreeChecks(root: site.publicFolder).pages {
            let html = try site.read(page)
            let root = String(repeating: "../", count: page.filter { $0 == "/" }.count)
            XCTAssertTrue(html.contains(#"<link rel="alternate" type="application/atom+xml" href="\#(root)feed.xml""#), page)
            XCTAssertTrue(html.contains(#"<link rel="apple-touch-icon" href="\#(root)assets/apple-touch-icon.png">"#), page)
            XCTAssertTrue(html.contains(#"<link rel="icon" href="\#(root)assets/favicon.svg""#), page)
        }
        let icon = try Data(contentsOf: site.publicFolder.appendingPathComponent("assets/apple-touch-icon.png"))
        let header = try ImageHeader.read(icon)
        XCTAssertEqual([header.width, header.height], [180, 180], "the size iOS asks for")
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])
    }

    // MARK: - Settings

    func loadError(_ json: String) throws -> String {
        let site = try TestSite()
        try site.write(Data(json.utf8), to: "folio.json")
        do {
            _ = try SiteSettings.load(from: site.paths.settings)
            XCTFail("\(json) must be refused")
            return ""
        } catch let error as FolioError {
            XCTAssertTrue(error.description.contains("folio.json"), error.description)
            return error.reason
        }
    }

    func testABadSettingIsRefusedNamingItsKey() throws {
        XCTAssertEqual(try loadError(#"{"quality": "high"}"#), "'quality' must be a whole number")
        XCTAssertEqual(try loadError(#"{"quality": 101}"#), "'quality' must be from 1 to 100 (it is 101)")
        XCTAssertEqual(try loadError(#"{"quality": 82.5}"#), "'quality' must be a whole number")
        XCTAssertEqual(try loadError(#"{"thumbnailSizes": [400, -1]}"#), "'thumbnailSizes' must hold sizes from 16 to 2048 (it is [400, -1])")
        XCTAssertEqual(try loadError(#"{"thumbnailSizes": 400}"#), "'thumbnailSizes' must be a list of whole numbers")
        XCTAssertEqual(try loadError(#"{"screenSizes": []}"#), "'screenSizes' must hold sizes from 200 to 8192 (it is [])")
        XCTAssertEqual(try loadError(#"{"latestCount": -3}"#), "'latestCount' cannot be negative (it is -3)")
        XCTAssertEqual(try loadError(#"{"feedCount": -1}"#), "'feedCount' cannot be negative (it is -1)")
        XCTAssertEqual(try loadError(#"{"pixelLimit": 0}"#), "'pixelLimit' must be positive (it is 0)")
        XCTAssertEqual(try loadError(#"{"deepZoom": "yes"}"#), "'deepZoom' must be true or false")
        XCTAssertEqual(try loadError(#"{"map": "yes"}"#), "'map' must be true or false")
        XCTAssertEqual(try loadError(#"{"mapPrecision": -1}"#), "'mapPrecision' must be from 0 (exact) to 1000 kilometres (it is -1.0)")
        XCTAssertEqual(try loadError(#"{"mapPrecision": "1km"}"#), "'mapPrecision' must be a number (kilometres)")
        XCTAssertEqual(try loadError(#"{"format": "gif"}"#), #"'format' must be "jpeg", "webp" or "avif""#)
        XCTAssertEqual(try loadError(#"{"title": 3}"#), "'title' must be text")
        XCTAssertTrue(try loadError(#"{"baseURL": "example.com/photos"}"#).hasPrefix("'baseURL' must be an absolute http or https address"))
        XCTAssertTrue(try loadError(#"{"baseURL": "ftp://example.com/"}"#).hasPrefix("'baseURL' must be"))
        XCTAssertEqual(try loadError(#"[1, 2]"#), "not an object of settings: it must start with {")
        XCTAssertEqual(try loadError(#"{"title": "#), "not valid JSON: it ends before it is complete, at line 1, column 11")
        // Where an editor shows it: lines from 1, columns in characters (the é is one), from 1.
        XCTAssertEqual(try loadError("{\n  \"title\": \"Café\",\n  \"quality\": 80,,\n}\n"),
                       "not valid JSON: unexpected ',' at line 3, column 17")
        XCTAssertEqual(try loadError("{\n  \"title\": \"é\" \"quality\": 80}"), "not valid JSON: unexpected '\"' at line 2, column 16")
        XCTAssertEqual(try loadError("{\n  // a comment\n}"), "not valid JSON: unexpected '/' at line 2, column 3")
    }

    func testEverySettingIsInTheReadmeTableWithItsDefault() throws {
        let whole = try String(contentsOf: TestSite.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let readme = try XCTUnwrap(whole.components(separatedBy: "### Settings: `folio.json`").last)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let defaults = try JSONSerialization.jsonObject(with: encoder.encode(SiteSettings())) as! [String: Any]
        for key in Mirror(reflecting: SiteSettings()).children.compactMap(\.label) {
            let row = readme.split(separator: "\n").first { $0.hasPrefix("| `\(key)` |") }
            XCTAssertNotNil(row, "the README's settings table has no row for \(key)")
            guard let row, let value = defaults[key] else { continue }
            // The default as JSON, in the row's third column.
            let json = String(decoding: try JSONSerialization.data(withJSONObject: [value], options: [.fragmentsAllowed]), as: UTF8.self)
                .dropFirst().dropLast()
            let column = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }[2]
            XCTAssertEqual(column.replacingOccurrences(of: " ", with: ""), "`\(json)`".replacingOccurrences(of: " ", with: ""),
                           "\(key)'s default")
        }
        XCTAssertTrue(try SiteSettings.load(from: TestSite.repository.appendingPathComponent("folio.json")).unknownKeys.isEmpty)
    }
}

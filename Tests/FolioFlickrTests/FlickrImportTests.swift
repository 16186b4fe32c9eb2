@testable import FolioCore
@testable import FolioFlickr
@testable import FolioModel
@testable import FolioNetwork
@testable import FolioSite
import FolioTestSupport
import Foundation
import GRDB
import XCTest

/// `folio import flickr` against a Flickr on 127.0.0.1 answering with recorded answers: pages,
/// places at locality and region level, a place that cannot be found, a photo on two pages,
/// and every fault a network and Flickr can produce.
final class FlickrImportTests: XCTestCase {
    var stub: FlickrStub!
    /// Waits asked for by retries: they count, they do not wait.
    let waits = Waits()

    override func setUp() async throws {
        stub = try await FlickrStub.start()
    }

    override func tearDown() async throws {
        await stub.stop()
    }

    final class Waits: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [TimeInterval] = []
        func add(_ value: TimeInterval) { lock.withLock { values.append(value) } }
        var all: [TimeInterval] { lock.withLock { values } }
    }

    func client(key: String = FlickrStub.apiKey, endpoint: URL? = nil, web: any WebClient = CurlWebClient(),
                timeout: TimeInterval = 10) -> FlickrClient {
        let waits = waits
        return FlickrClient(endpoint: endpoint ?? stub.endpoint, apiKey: key, web: web,
                            retry: RetryPolicy(attempts: 5, baseDelay: 1, maximumDelay: 8, sleep: { waits.add($0) }),
                            timeout: timeout)
    }

    func run(_ database: GalleryDatabase, _ options: FlickrImport.Options = .init(pages: 5, perPage: 3),
             client: FlickrClient? = nil) async throws -> FlickrImport.Summary {
        try await FlickrImport(client: client ?? self.client(), database: database, now: Date(timeIntervalSince1970: 1_700_100_000))
            .run(options)
    }

    func people(_ database: GalleryDatabase) throws -> [String] {
        try database.writer.read { db in try String.fetchAll(db, sql: "SELECT key || ' ' || name FROM person ORDER BY key") }
    }

    // MARK: - The import

    func testTwoPagesBecomePhotosPeoplePlacesAndRegions() async throws {
        let database = try GalleryDatabase.inMemory()
        let summary = try await run(database)
        XCTAssertEqual(summary.pages, 2, "Flickr says there are two")
        XCTAssertEqual([summary.new, summary.updated, summary.unchanged], [5, 0, 1], "photo 1 is on both pages")
        XCTAssertEqual(summary.placesLookedUp, 2)
        XCTAssertEqual(summary.failures, ["place ZZbrokenPlace: Flickr flickr.places.getInfo: Place not found (code 2)"])
        XCTAssertEqual(summary.requests, 5, "two pages and three place lookups")
        XCTAssertEqual(stub.calls("flickr.places.getInfo"), 3)
        XCTAssertEqual(summary.line, "Flickr: 6 photos on 2 pages (5 new, 0 updated, 1 unchanged), 2 places looked up, 5 requests, 1 failure")

        XCTAssertEqual(try people(database), [
            "flickr:12037949754@N01 Ansel Test", "flickr:61021753@N02 Bea Test", "flickr:99999999@N07 Ansel Test",
        ], "two accounts of one name stay two people; an owner without a name gets it when a photo brings it")
        let snapshot = try database.snapshot()
        let byTitle = Dictionary(uniqueKeysWithValues: snapshot.photos.map { (PhotoText.title($0.photo, .defaultTheme), $0) })
        let bridge = try XCTUnwrap(byTitle["Golden Gate at dusk"])
        XCTAssertEqual(bridge.place?.name, "San Francisco, California, United States")
        XCTAssertEqual([bridge.place?.title, bridge.place?.subtitle], ["San Francisco", "California, United States"])
        XCTAssertEqual(bridge.region?.name, "California")
        XCTAssertEqual(bridge.photo.description, "Fog rolling in & out \u{2014} more", "HTML is text")
        XCTAssertEqual([bridge.photo.width, bridge.photo.height], [4000, 2667], "the largest size")
        XCTAssertEqual(bridge.photo.taken, LocalDateTime.date(from: "2023-11-14 10:15:00"))
        XCTAssertEqual(bridge.photo.uploaded, Date(timeIntervalSince1970: 1_700_000_000))
        XCTAssertEqual(bridge.photo.tags, ["bridge", "fog", "sanfrancisco"])
        XCTAssertEqual(bridge.photo.remote?.pageURL, "https://www.flickr.com/photos/12037949754@N01/53124000001/")
        XCTAssertEqual(bridge.photo.remote?.sizes.map(\.label), ["sq", "q", "m", "z", "b", "o"], "numbers sent as strings too")
        XCTAssertEqual(byTitle["Redwoods"]?.place?.name, "California, United States", "a region-level place")
        let untitled = try XCTUnwrap(byTitle["Unknown"])
        XCTAssertNil(untitled.place)
        XCTAssertNil(untitled.photo.latitude, "0, 0 means no geo")
        XCTAssertNil(untitled.photo.flickrPlaceId)
        let market = try XCTUnwrap(byTitle["Market day"])
        XCTAssertNil(market.place, "its place is not known yet")
        XCTAssertEqual(market.photo.flickrPlaceId, "ZZbrokenPlace", "a later import tries again")
        XCTAssertEqual(market.photo.description, "Fresh fish", "a script is no text")
        XCTAssertEqual(snapshot.regions.map(\.name), ["California"])
        XCTAssertEqual(snapshot.regions.first?.photographerCount, 2, "Ansel (12037949754@N01) and Bea")
        XCTAssertEqual(snapshot.photos.count, 5)
    }

    func testImportingTheSameAgainChangesNothingAndAsksNoKnownPlace() async throws {
        let database = try GalleryDatabase.inMemory()
        _ = try await run(database)
        let generation = try database.generation()
        let counts = try ["photo", "person", "place", "region", "flickrPlace"].map { try database.count($0) }
        let lookups = stub.calls("flickr.places.getInfo")
        let again = try await run(database)
        XCTAssertEqual([again.new, again.updated, again.unchanged], [0, 0, 6])
        XCTAssertEqual(try ["photo", "person", "place", "region", "flickrPlace"].map { try database.count($0) }, counts)
        XCTAssertEqual(stub.calls("flickr.places.getInfo") - lookups, 1, "only the place that could not be found is asked again")
        XCTAssertEqual(try database.generation(), generation, "nothing changed, so no page will be rendered again")
    }

    func testAPlaceLearnedLaterGivesItsPhotosTheirPlace() async throws {
        let database = try GalleryDatabase.inMemory()
        // The first lookup of San Francisco fails for good (a 400), so its photo waits.
        stub.queue(.status(400), for: "flickr.places.getInfo")
        let first = try await run(database, .init(pages: 1, perPage: 3))
        XCTAssertEqual(first.failures.count, 1, first.failures.description)
        XCTAssertEqual(try database.pendingFlickrPlaceIds().count, 1)
        let second = try await run(database, .init(pages: 1, perPage: 3))
        XCTAssertEqual(second.failures, [])
        XCTAssertEqual(try database.pendingFlickrPlaceIds(), [])
        XCTAssertEqual(Set(try database.snapshot().photos.compactMap(\.place?.title)), ["San Francisco", "California"])
    }

    func testAPageIsOneTransactionOfAHandfulOfStatementsWhateverItsSize() async throws {
        /// The statements of each write transaction.
        final class Transactions: @unchecked Sendable {
            private let lock = NSLock()
            private var open = false
            private(set) var counts: [Int] = []
            func reset() { lock.withLock { counts = [] } }
            func record(_ sql: String) {
                lock.withLock {
                    // A trigger's statements ("-- …", `photoChange`) are SQLite's work inside Folio's.
                    if sql.hasPrefix("--") { return }
                    if sql.hasPrefix("BEGIN IMMEDIATE") { open = true; counts.append(0) } else if sql.hasPrefix("COMMIT") { open = false } else if open { counts[counts.count - 1] += 1 }
                }
            }
        }
        func statements(for page: String) async throws -> Int {
            let transactions = Transactions()
            var config = Configuration()
            config.prepareDatabase { db in db.trace { transactions.record("\($0)") } }
            let database = try GalleryDatabase(DatabaseQueue(configuration: config))
            transactions.reset()  // the migrations' own
            stub.queue(.body(page), for: "flickr.photos.search")
            _ = try await run(database, .init(pages: 1, perPage: 500))
            XCTAssertEqual(transactions.counts.count, 1, "one transaction for the page")
            return transactions.counts.first ?? 0
        }
        // The first page of the fixtures, three photos, and the same page grown to 120 photos,
        // by many people, in the same places.
        let small = try stub.fixture("search-page-1.json")
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(small.utf8)) as? [String: Any])
        var photos = try XCTUnwrap(object["photos"] as? [String: Any])
        let three = try XCTUnwrap(photos["photo"] as? [[String: Any]])
        photos["photo"] = (0..<120).map { n -> [String: Any] in
            var photo = three[n % 3]
            photo["id"] = "9\(n)"
            photo["owner"] = "\(n % 17)@N01"
            return photo
        }
        object["photos"] = photos
        let large = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)

        let few = try await statements(for: small)
        let many = try await statements(for: large)
        XCTAssertLessThan(few, 30, "a handful")
        XCTAssertLessThanOrEqual(many - few, 2, "120 photos cost two more photo upserts (40 rows each) than 3, no more: \(few) and \(many)")
    }

    func testAUserAnAlbumAndFilters() async throws {
        let database = try GalleryDatabase.inMemory()
        _ = try await run(database, .init(selection: .user("ansel_test"), tags: ["fog"], licenses: ["4"], pages: 1, perPage: 3))
        let search = try XCTUnwrap(stub.server.requests.last { $0.query["method"] == "flickr.photos.search" })
        XCTAssertEqual(search.query["user_id"], "12037949754@N01", "the screen name is looked up")
        XCTAssertEqual(search.query["tags"], "fog")
        XCTAssertEqual(search.query["license"], "4")
        XCTAssertTrue(search.query["extras"]?.contains("url_o") == true)
        XCTAssertEqual(search.query["format"], "json")
        XCTAssertEqual(search.query["nojsoncallback"], "1")

        let album = try GalleryDatabase.inMemory()
        let summary = try await run(album, .init(selection: .album("72157600000000001"), tags: ["water"], pages: 1, perPage: 500))
        XCTAssertEqual(summary.new, 1, "a photoset cannot filter: the import does")
        XCTAssertEqual(try people(album), ["flickr:12037949754@N01 Ansel Test"], "its photos' owner is the set's")
    }

    // MARK: - Faults

    func testTransientFaultsAreRetriedWithBackOff() async throws {
        let database = try GalleryDatabase.inMemory()
        stub.queue(.status(503), for: "flickr.photos.search")
        stub.queue(.status(429, retryAfter: "7"), for: "flickr.photos.search")
        stub.queue(.body(#"{"stat":"fail","code":105,"message":"Service currently unavailable"}"#), for: "flickr.photos.search")
        stub.queue(.body(#"{"photos":{"page":1,"pages":"2","perpage":3,"total":"5","photo":[{"id":"5312"#), for: "flickr.photos.search")
        let summary = try await run(database, .init(pages: 1, perPage: 3))
        XCTAssertEqual(summary.new, 3, "the fifth try got the page")
        XCTAssertEqual(waits.all, [1, 7, 4, 8], "back-off doubling, capped, and the server's own Retry-After")
    }

    func testAJSONPWrapperIsUnwrapped() async throws {
        let database = try GalleryDatabase.inMemory()
        stub.queue(.jsonp, for: "flickr.photos.search")
        let summary = try await run(database, .init(pages: 1, perPage: 3))
        XCTAssertEqual(summary.new, 3)
        XCTAssertEqual(waits.all, [], "nothing to retry")
    }

    func testARefusedKeyStopsAtOnceSaysSoAndNeverShowsTheKey() async throws {
        let database = try GalleryDatabase.inMemory()
        do {
            _ = try await run(database, client: client(key: "wrong-secret-key"))
            XCTFail("the key is refused")
        } catch let error as FlickrError {
            XCTAssertEqual("\(error)", "Flickr refused the API key (Invalid API Key (Key has invalid format)); check --api-key or FLICKR_API_KEY")
            XCTAssertFalse("\(error)".contains("wrong-secret-key"))
        }
        XCTAssertEqual(waits.all, [], "a refused key is not tried again")
        XCTAssertEqual(try database.count("photo"), 0)
    }

    func testAPageThatNeverComesIsReportedAndTheOnesBeforeAreKept() async throws {
        let database = try GalleryDatabase.inMemory()
        let first = try await run(database, .init(pages: 1, perPage: 3))
        XCTAssertEqual(first.new, 3)
        let before = try database.count("photo")
        // The second import's first page is cut short every time it is asked for: five tries.
        stub.queue(.body(String(try stub.fixture("search-page-2.json").prefix(200))), for: "flickr.photos.search", times: 5)
        let summary = try await run(database, .init(pages: 2, perPage: 3))
        XCTAssertEqual(summary.failures.count, 1)
        XCTAssertTrue(summary.failures[0].hasPrefix("page 1: Flickr flickr.photos.search: 200 bytes that are not complete JSON"),
                      summary.failures[0])
        XCTAssertEqual(try database.count("photo"), before, "nothing half-written")
    }

    func testAnAnswerNested100000DeepIsReportedNotRetried() async throws {
        let database = try GalleryDatabase.inMemory()
        func deep(_ opening: String) -> String {
            opening + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}}"
        }
        // The page: the outer object and "photos" are two levels, so the 99th bracket is the 101st.
        let page = #"{"stat":"ok","photos":{"page":1,"pages":1,"photo":"#
        stub.queue(.body(deep(page)), for: "flickr.photos.search")
        let refused = try await run(database, .init(pages: 1, perPage: 3))
        XCTAssertEqual(refused.failures, ["page 1: Flickr flickr.photos.search: an answer of an unexpected shape "
            + "(arrays and objects nested more than 100 deep, at line 1, column \(page.count + 99))"])
        XCTAssertEqual(waits.all, [], "the same answer would come again")
        XCTAssertEqual(try database.count("photo"), 0)

        // A place: the photos are imported, the place is asked again by the next import.
        let place = #"{"stat":"ok","place":{"place_id":"x","locality":"#
        stub.queue(.body(deep(place)), for: "flickr.places.getInfo", times: 3)
        let summary = try await run(database, .init(pages: 1, perPage: 3))
        XCTAssertEqual(summary.new, 3)
        XCTAssertFalse(summary.failures.isEmpty)
        for failure in summary.failures {
            XCTAssertTrue(failure.hasSuffix(": Flickr flickr.places.getInfo: an answer of an unexpected shape "
                + "(arrays and objects nested more than 100 deep, at line 1, column \(place.count + 99))"), failure)
        }
        XCTAssertEqual(waits.all, [])
    }

    func testNetworkFaultsAreToldInOneLineNamingTheMethod() async throws {
        let database = try GalleryDatabase.inMemory()
        // A slow answer: a timeout, retried, then reported.
        stub.queue(.delay(3), for: "flickr.photos.search", times: 5)
        let slow = try await run(database, .init(pages: 1, perPage: 3), client: client(timeout: 0.3))
        XCTAssertEqual(slow.failures.count, 1)
        XCTAssertTrue(slow.failures[0].hasPrefix("page 1: Flickr flickr.photos.search: \(stub.endpoint.absoluteString): "), slow.failures[0])
        XCTAssertEqual(waits.all.count, 4)

        // Nothing listening.
        let closed = try await TestWebServer.start { _ in TestWebServer.response(200) }
        let port = closed.port
        await closed.stop()
        let refused = try await run(database, .init(pages: 1, perPage: 3),
                                    client: client(endpoint: URL(string: "http://127.0.0.1:\(port)/services/rest/")!))
        XCTAssertTrue(refused.failures.first?.contains("127.0.0.1:\(port)") == true, refused.failures.description)

        // TLS where there is none: not retried, a retry cannot help.
        let before = waits.all.count
        let tls = try await run(database, .init(pages: 1, perPage: 3),
                                client: client(endpoint: URL(string: "https://127.0.0.1:\(stub.server.port)/services/rest/")!))
        XCTAssertEqual(tls.failures.count, 1)
        XCTAssertEqual(waits.all.count, before)

        // A name that does not resolve (through the seam: the tests never ask a real resolver).
        let unresolved = try await run(database, .init(pages: 1, perPage: 3), client: client(web: FailingWebClient(.hostNotFound)))
        XCTAssertTrue(unresolved.failures.first?.contains("could not resolve") == true, unresolved.failures.description)
        for summary in [slow, refused, tls, unresolved] {
            XCTAssertFalse(summary.failures.joined().contains(FlickrStub.apiKey), "the key never shows")
        }
        XCTAssertEqual(try database.count("photo"), 0)
    }

    struct FailingWebClient: WebClient {
        var kind: WebError.Kind
        init(_ kind: WebError.Kind) { self.kind = kind }
        func send(_ request: WebRequest) async throws -> WebResponse {
            throw WebError(kind, url: request.shownURL, detail: "could not resolve host")
        }
    }
}

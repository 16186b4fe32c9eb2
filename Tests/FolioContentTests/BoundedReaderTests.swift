@testable import FolioContent
@testable import FolioCore
@testable import FolioMetadata
@testable import FolioSite
import FolioTestSupport
import Foundation
import XCTest

/// Every reader of what a user puts in content/ (and of what Flickr answers) is bounded: files
/// nested 100,000 deep, binary property lists whose objects hold one another in a loop or share
/// objects until they stand for millions, and files larger than any real one. Each is refused
/// with a message naming the file (and the record and key where there is one), nothing crashes,
/// and the rest of the site is built.
final class BoundedReaderTests: XCTestCase {
    static let deep = 100_000
    static let photo = try! Data(contentsOf: TestSite.seedPhoto)
    static let xmlHead = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n"

    /// Builds a site of `files` beside a photo of its own, and checks what the build said, what it
    /// published, and that every page of it holds together.
    @discardableResult
    func build(_ files: [String: Data], messages: [String], photos: Int, present: [String] = [], absent: [String] = [],
               file: StaticString = #filePath, line: UInt = #line) async throws -> TestSite {
        let site = try TestSite()
        try site.write(Self.photo, to: "content/kept/ok.jpg")
        try site.catalog("kept/kept.plist", [["path": "ok.jpg", "name": "Still here"]])
        for (path, data) in files { try site.write(data, to: path) }
        let report = try await site.build()
        XCTAssertEqual(report.issues.map(\.description).sorted(), messages.sorted(), file: file, line: line)
        XCTAssertEqual(report.photos, photos, "photos published", file: file, line: line)
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [], file: file, line: line)
        let checks = PublicTreeChecks(root: site.publicFolder)
        let pages = try checks.pages.map { try checks.html($0) }.joined()
        for text in present + ["Still here"] { XCTAssertTrue(pages.contains(text), "\(text) in no page", file: file, line: line) }
        for text in absent { XCTAssertFalse(pages.contains(text), "\(text) in a page", file: file, line: line) }
        return site
    }

    // MARK: - Property lists

    /// Record 0 names a.jpg; record 1 names b.jpg and its tags nest 100,000 arrays deep.
    static func deepXMLCatalog(comment: Bool = false) -> (data: Data, line: Int, column: Int) {
        let record = "<dict><key>path</key><string>a.jpg</string><key>name</key><string>Lost</string></dict>\n"
        let opening = (comment ? "<!-- by hand -->" : "") + "<dict><key>path</key><string>b.jpg</string><key>tags</key>"
        let text = xmlHead + record + opening + String(repeating: "<array>", count: deep) + String(repeating: "</array>", count: deep)
            + "</dict>\n</array>\n</plist>\n"
        // The top array and the record hold the first two levels: the 99th array of the tags is the 101st.
        return (Data(text.utf8), 5, opening.count + 98 * 7 + 1)
    }

    func testAnXMLCatalogNested100000DeepIsRefusedNamingItsRecordAndKey() async throws {
        let (catalog, line, column) = Self.deepXMLCatalog()
        try await build(["content/c.plist": catalog, "content/a.jpg": Self.photo, "content/b.jpg": Self.photo], messages: [
            "error: content/c.plist, record 1: in key 'tags', arrays and dictionaries nest more than 100 deep "
                + "(line \(line), column \(column)); nothing in the file is read",
        ], photos: 3, absent: ["Lost"])
    }

    func testAnXMLCatalogLeftToFoundationIsScannedBeforeItIsHandedOver() async throws {
        // A comment is beyond Folio's own reader, so Foundation's would read it: not this deep.
        let (catalog, line, column) = Self.deepXMLCatalog(comment: true)
        try await build(["content/c.plist": catalog, "content/a.jpg": Self.photo], messages: [
            "error: content/c.plist: arrays and dictionaries nest more than 100 deep (line \(line), column \(column)); nothing in the file is read",
        ], photos: 2, absent: ["Lost"])
        // An old-style (OpenStep) property list, which Foundation reads too.
        let openStep = Data(("(" + String(repeating: "(", count: Self.deep) + String(repeating: ")", count: Self.deep) + ")").utf8)
        try await build(["content/c.plist": openStep], messages: [
            "error: content/c.plist: arrays and dictionaries nest more than 100 deep (line 1, column 101); nothing in the file is read",
        ], photos: 1)
    }

    func testABinaryCatalogNested100000DeepIsRefusedNamingItsRecordAndKey() async throws {
        var plist = HandWrittenBinaryPlist()
        let top = plist.reserve()
        let first = plist.dictionary(["path": plist.string("a.jpg")])
        let second = plist.reserve()
        let chain = plist.objects.count
        for index in 0..<Self.deep { _ = plist.array(index + 1 < Self.deep ? [chain + index + 1] : []) }
        plist.set(second, dictionary: ["path": plist.string("b.jpg"), "tags": chain])
        plist.set(top, array: [first, second])
        try await build(["content/c.plist": plist.data(top: top), "content/a.jpg": Self.photo], messages: [
            // The top array and the record hold the first two levels: the tags' 99th array is the 101st.
            "error: content/c.plist, record 1: in key 'tags', arrays and dictionaries nest more than 100 deep (object \(chain + 98)); "
                + "nothing in the file is read",
        ], photos: 2)
    }

    func testABinaryCatalogWhoseArraysHoldOneAnotherInALoopIsRefused() async throws {
        var plist = HandWrittenBinaryPlist()
        let top = plist.reserve()
        let (one, two) = (plist.reserve(), plist.reserve())
        plist.set(one, array: [plist.string("x"), two])
        plist.set(two, array: [one])
        plist.set(top, array: [plist.dictionary(["path": plist.string("a.jpg"), "tags": one])])
        var itself = HandWrittenBinaryPlist()
        let alone = itself.reserve()
        itself.set(alone, array: [alone])
        try await build(["content/c.plist": plist.data(top: top), "content/d.plist": itself.data(top: alone), "content/a.jpg": Self.photo], messages: [
            "error: content/c.plist, record 0: in key 'tags', arrays and dictionaries hold one another in a loop "
                + "(object \(two) holds object \(one), which holds it); nothing in the file is read",
            "error: content/d.plist, record 0: arrays and dictionaries hold one another in a loop (object 0 holds itself); nothing in the file is read",
        ], photos: 2)
    }

    func testABinaryCatalogWhoseSharedObjectsWouldExplodeIsRefused() async throws {
        // Each array holds the next one twice: 22 levels read as 2^22 strings, from a file of 200 bytes.
        var plist = HandWrittenBinaryPlist()
        let top = plist.reserve()
        let record = plist.reserve()
        let start = plist.objects.count
        let levels = 22
        for level in 0..<levels { _ = plist.array([start + level + 1, start + level + 1]) }
        _ = plist.string("tag")
        plist.set(record, dictionary: ["path": plist.string("a.jpg"), "tags": start])
        plist.set(top, array: [record])
        let data = plist.data(top: top)
        XCTAssertLessThan(data.count, 400)
        try await build(["content/c.plist": data, "content/a.jpg": Self.photo], messages: [
            "error: content/c.plist: its shared objects would be read as more than 1048576 objects; nothing in the file is read",
        ], photos: 2)
    }

    func testAnAlbumSettingsFileNested100000DeepIsRefusedAndItsPhotosPublished() async throws {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict><key>title</key>"
            + String(repeating: "<dict><key>title</key>", count: Self.deep) + "<string>Deep</string>"
            + String(repeating: "</dict>", count: Self.deep) + "</dict>\n</plist>\n"
        // The top dictionary is the first level: the 100th under its title is the 101st.
        let column = "<dict><key>title</key>".count * 100 + 1
        try await build(["content/trip/album.plist": Data(xml.utf8), "content/trip/a.jpg": Self.photo], messages: [
            "error: content/trip/album.plist: in key 'title', arrays and dictionaries nest more than 100 deep (line 3, column \(column)); "
                + "nothing in the file is read",
        ], photos: 2, present: ["albums/trip.html"])
    }

    func testACatalogLargerThanFolioReadsIsRefusedUnread() async throws {
        // A sparse file: as large as it says, and nothing on the disk.
        let site = try TestSite()
        try site.photo("a.jpg")
        let url = site.content.appendingPathComponent("huge.plist")
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data("<?xml".utf8)))
        let size = 257 << 20
        XCTAssertEqual(truncate(url.path, off_t(size)), 0)
        let report = try await site.build()
        XCTAssertEqual(report.issues.map(\.description), ["error: content/huge.plist: a property list of \(size) bytes is larger than the 256 MB Folio reads"])
        XCTAssertEqual(report.photos, 1)
    }

    // MARK: - XMP

    static func deepXMP(_ depth: Int) -> Data {
        Data(("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + "<rdf:Description xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:title>"
            + String(repeating: "<rdf:Alt>", count: depth) + String(repeating: "</rdf:Alt>", count: depth)
            + "</dc:title></rdf:Description></rdf:RDF></x:xmpmeta>").utf8)
    }

    func testXMPNested100000DeepIsIgnoredWithAWarning() async throws {
        // A JPEG's APP1 segment holds less than 64 KB: the packet it embeds nests 3,000 deep.
        let packet = Data(XMPReader.embeddedPrefix) + Self.deepXMP(3_000)
        let length = packet.count + 2
        XCTAssertLessThan(length, 1 << 16)
        let embedded = Data([0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)]) + packet + Self.photo.dropFirst(2)
        try await build(["content/a.jpg": Self.photo, "content/a.xmp": Self.deepXMP(Self.deep), "content/b.jpg": embedded], messages: [
            "warning: content/a.xmp: XMP whose elements nest more than 100 deep (line 1); ignored",
            "warning: content/b.jpg: embedded XMP whose elements nest more than 100 deep (line 1); ignored",
        ], photos: 3)
    }

    // MARK: - Markdown

    func testMarkdownNested100000DeepKeepsItsTitleAndLeavesOutItsText() async throws {
        let quotes = "Title: Deep album\n\n" + String(repeating: "> ", count: Self.deep) + "lost words\n"
        let lists = String(repeating: "1. ", count: Self.deep) + "lost words\n"
        let emphasis = String(repeating: "*", count: Self.deep) + "lost words" + String(repeating: "*", count: Self.deep)
        try await build([
            "content/trip/index.md": Data(quotes.utf8), "content/trip/a.jpg": Self.photo,
            "content/trip/b.jpg": Self.photo, "content/trip/b.md": Data(("Title: Bee\n\n" + lists).utf8),
            "content/trip/c.jpg": Self.photo, "content/trip/c.md": Data(emphasis.utf8),
        ], messages: [
            "warning: content/trip/b.md: its Markdown nests more than 100 deep; its text is left out",
            "warning: content/trip/c.md: its Markdown nests more than 100 deep; its text is left out",
            "warning: content/trip/index.md: its Markdown nests more than 100 deep; its text is left out",
        ].sorted(), photos: 4, present: ["Deep album", "Bee"], absent: ["lost words", "<blockquote>"])
    }

    func testAMarkdownFileLargerThanFolioReadsIsIgnored() async throws {
        let text = "Title: Vast\n\n" + String(repeating: "Many words. ", count: 100_000)
        try await build(["content/a.jpg": Self.photo, "content/a.md": Data(text.utf8)], messages: [
            "warning: content/a.md: a description of \(text.utf8.count) bytes is larger than the 1 MB Folio reads; ignored",
        ], photos: 2, absent: ["Vast", "Many words"])
    }

    // MARK: - folio.json

    func testSettingsNested100000DeepStopTheBuildNamingTheFileAndLeaveThePreviousSite() async throws {
        let site = try TestSite()
        try site.photo("a.jpg")
        try await site.build()
        let before = try site.read("index.html")
        let settings = #"{"title": "Deep", "exclude": "# + String(repeating: "[", count: Self.deep) + String(repeating: "]", count: Self.deep) + "}"
        try site.write(Data(settings.utf8), to: "folio.json")
        do {
            try await site.build()
            XCTFail("deep settings are refused")
        } catch let error as FolioError {
            // The object is the first level: the 100th bracket is the 101st.
            XCTAssertEqual(error.description, "\(site.paths.settings.path): its arrays and objects nest more than 100 deep "
                           + "(line 1, column \(#"{"title": "Deep", "exclude": "#.count + 100)) (in step 'configure')")
        }
        XCTAssertEqual(try site.read("index.html"), before)
    }

    // MARK: - The site's templates

    func testATemplateThatIncludesItselfStopsTheBuildNamingItAndLeavesThePreviousSite() async throws {
        let site = try TestSite()
        try site.photo("a.jpg")
        try await site.build()
        let before = try site.read("index.html")
        try site.write(Data("{{>pager}}".utf8), to: "templates/pager.mustache")
        do {
            try await site.build()
            XCTFail("a partial that includes itself stops the build")
        } catch let error as FolioError {
            XCTAssertEqual(error.path, "templates/pager.mustache")
            XCTAssertTrue(error.reason.hasPrefix("sections and partials nest more than 100 deep when drawn (a partial that includes itself?), drawing "),
                          error.reason)
            XCTAssertEqual(error.step, "render")
        }
        XCTAssertEqual(try site.read("index.html"), before)
    }

    func testATemplateNested100000DeepIsRefusedAndOneOfManyTagsIsReadInTime() async throws {
        let site = try TestSite()
        try site.photo("a.jpg")
        try site.write(Data((String(repeating: "{{#a}}", count: Self.deep) + String(repeating: "{{/a}}", count: Self.deep)).utf8),
                       to: "templates/pager.mustache")
        do {
            try await site.build()
            XCTFail("a template nested 100,000 deep is refused")
        } catch let error as FolioError {
            // The template is the first level: its 100th section is the 101st.
            XCTAssertEqual(error.description, "\(site.paths.templates.path)/pager.mustache: line 1, column \(99 * 6 + 1): "
                           + "sections, parents and blocks nest more than 100 deep, the template itself the first level (in step 'configure')")
        }
        // 100,000 sections one after another on one line: each tag looked back to the start of its
        // line, and each section worked out its line and column, through all the text before it.
        var library = TemplateLibrary()
        let started = Date()
        try library.register(String(repeating: "{{#a}}{{b}}{{/a}}", count: Self.deep), named: "wide")
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }

    // MARK: - Where each limit lies

    func xml(_ depth: Int, comment: Bool = false) -> Data {
        Data(("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">" + (comment ? "<!-- c -->" : "") + String(repeating: "<array>", count: depth)
            + "<string>leaf</string>" + String(repeating: "</array>", count: depth) + "</plist>\n").utf8)
    }

    func testAPropertyListNested100DeepIsReadAnd101IsNotWhicheverReaderReadsIt() throws {
        for comment in [false, true] {
            XCTAssertNoThrow(try PropertyListReading.read(xml(100, comment: comment)).get(), "comment: \(comment)")
            XCTAssertThrowsError(try PropertyListReading.read(xml(101, comment: comment)).get(), "comment: \(comment)")
        }
        XCTAssertNotNil(XMLPlist.read(xml(100)).value)
        // UTF-16, which only Foundation reads: scanned as the text it is.
        let utf16 = { (depth: Int) in String(decoding: self.xml(depth, comment: true), as: UTF8.self).data(using: .utf16)! }
        XCTAssertNoThrow(try PropertyListReading.read(utf16(100)).get())
        XCTAssertThrowsError(try PropertyListReading.read(utf16(101)).get())
        // Binary, as Foundation writes it.
        func binary(_ depth: Int) throws -> Data {
            var value: Any = ["leaf"]
            for _ in 1..<depth { value = [value] }
            return try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
        }
        XCTAssertNil(BinaryPlistCheck.refusal(try binary(100)))
        XCTAssertEqual(BinaryPlistCheck.refusal(try binary(101))?.reason.hasPrefix("arrays and dictionaries nest more than 100 deep"), true)
        XCTAssertNoThrow(try PropertyListReading.read(try binary(100)).get())
    }

    func testTheScansCountOnlyWhatNests() {
        let text = { (text: String) in Data(text.utf8) }
        let brackets = String(repeating: "[{(", count: 200)
        XCTAssertNil(NestingScan.json(text(#"{"a": "\#(brackets)", "b": ""[[[\"", "c": [[1]]}"#)), "brackets in strings")
        XCTAssertEqual(NestingScan.json(text("[" + String(repeating: "[]", count: 500) + "]")), nil, "wide is not deep")
        XCTAssertEqual(NestingScan.json(text("\n  " + String(repeating: "[", count: 101))), NestingScan.Position(line: 2, column: 103))
        let tags = String(repeating: "<a>", count: 200)
        XCTAssertNil(NestingScan.xml(text("<r x=\"\(tags)\" y='>\(tags)'><!-- \(tags) --><![CDATA[\(tags)]]><?pi \(tags)?><e/></r>")),
                     "markup in attributes, comments, CDATA and instructions")
        XCTAssertNil(NestingScan.xml(text(String(repeating: "<e/>", count: 500) + String(repeating: "<a></a>", count: 500))))
        XCTAssertEqual(NestingScan.xml(text("<!DOCTYPE x [<!ENTITY e \"v\">]>\n" + tags))?.line, 2)
        XCTAssertNil(NestingScan.openStep(text(#"("\#(brackets)", '(((', /* ((( */ // (((\#n a)"#)), "in strings and comments")
        XCTAssertEqual(NestingScan.openStep(text(String(repeating: "{a=", count: 101)))?.column, 301)
    }

    func testBinaryListsThatShareAsWritersShareAreRead() throws {
        // Python's plistlib writes a list given to every record once: read once per record.
        var plist = HandWrittenBinaryPlist()
        let top = plist.reserve()
        let tags = plist.array([plist.string("boats"), plist.string("harbour")])
        let records = (0..<3_000).map { plist.dictionary(["path": plist.string("p\($0).jpg"), "tags": tags]) }
        plist.set(top, array: records)
        let data = plist.data(top: top)
        XCTAssertNil(BinaryPlistCheck.refusal(data))
        let read = try XCTUnwrap(try PropertyListReading.read(data).get() as? [[String: Any]])
        XCTAssertEqual(read.count, 3_000)
        XCTAssertEqual(read[2_999]["tags"] as? [String], ["boats", "harbour"])

        // The limit itself: an array held 1,024 times, its 1,022 strings and itself each read once a time.
        func shared(_ strings: Int) -> Data {
            var plist = HandWrittenBinaryPlist()
            let top = plist.reserve()
            let inner = plist.array(Array(repeating: plist.string("s"), count: strings))
            plist.set(top, array: Array(repeating: inner, count: 1_024))
            return plist.data(top: top)
        }
        XCTAssertNil(BinaryPlistCheck.refusal(shared(1_022)), "1 + 1,024 × 1,023 objects")
        XCTAssertEqual(BinaryPlistCheck.refusal(shared(1_023))?.reason,
                       "its shared objects would be read as more than 1048576 objects; nothing in the file is read", "1 + 1,024 × 1,024")
    }

    func testXMPAndMarkdownNested100DeepAreReadAnd101AreNot() throws {
        // The packet's own x:xmpmeta, rdf:RDF, rdf:Description and dc:title are four levels.
        guard case .success(let read) = XMPReader.read(Self.deepXMP(96)) else { return XCTFail("100 deep is read") }
        XCTAssertNil(read.title)
        XCTAssertEqual(XMPReader.read(Self.deepXMP(97)), .failure(.tooDeep(line: 1)))
        // A paragraph in 99 quotes is 100 deep.
        XCTAssertNotNil(try RenderedMarkdown(String(repeating: "> ", count: 99) + "words"))
        XCTAssertThrowsError(try RenderedMarkdown(String(repeating: "> ", count: 100) + "words"))
        XCTAssertNotNil(try RenderedMarkdown(String(repeating: "*", count: 99) + "words" + String(repeating: "*", count: 99)))
    }

    // MARK: - The fuzzers' seeds

    func testTheFuzzersAreSeededWithDeepNestingOfEachFormat() throws {
        let fuzz = FuzzRegressionTests.fuzz
        for (target, names) in [("catalog", ["deep.plist", "deep-binary.plist", "deep-openstep.plist", "loop-binary.plist", "shared-binary.plist"]),
                                ("metadata", ["deep.xmp"]), ("flickr", ["deep.json"]), ("markdown", ["deep-quotes.md", "deep-lists.md"]),
                                ("settings", ["deep.json"])] {
            for name in names {
                let url = fuzz.appendingPathComponent("Corpus/\(target)/\(name)")
                XCTAssertTrue(FileManager.default.fileExists(atPath: url.path), "\(target)/\(name)")
            }
        }
    }
}

/// A binary property list written byte by byte, as no writer would: objects by index, each
/// reference and offset four bytes wide, so objects may refer to any other, themselves included.
struct HandWrittenBinaryPlist {
    var objects: [[UInt8]] = []

    /// An object to be set later, for a reference to it before it is written.
    mutating func reserve() -> Int {
        objects.append([])
        return objects.count - 1
    }

    mutating func string(_ text: String) -> Int {
        add(Self.marker(0x50, count: text.utf8.count) + Array(text.utf8))
    }

    mutating func array(_ items: [Int]) -> Int {
        add(Self.marker(0xA0, count: items.count) + items.flatMap(Self.reference))
    }

    mutating func set(_ index: Int, array items: [Int]) {
        objects[index] = Self.marker(0xA0, count: items.count) + items.flatMap(Self.reference)
    }

    mutating func dictionary(_ pairs: KeyValuePairs<String, Int>) -> Int {
        let index = reserve()
        set(index, dictionary: pairs)
        return index
    }

    /// Its keys are strings written after every object there is.
    mutating func set(_ index: Int, dictionary pairs: KeyValuePairs<String, Int>) {
        let keys = pairs.map { string($0.key) }
        objects[index] = Self.marker(0xD0, count: pairs.count) + keys.flatMap(Self.reference) + pairs.map(\.value).flatMap(Self.reference)
    }

    func data(top: Int) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        bytes += offsets.flatMap(Self.reference)
        bytes += [0, 0, 0, 0, 0, 0, 4, 4]
        for value in [objects.count, top, table] { bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        return Data(bytes)
    }

    private mutating func add(_ body: [UInt8]) -> Int {
        objects.append(body)
        return objects.count - 1
    }

    private static func marker(_ kind: UInt8, count: Int) -> [UInt8] {
        count < 15 ? [kind | UInt8(count)] : [kind | 0xF, 0x12] + reference(count)
    }

    private static func reference(_ value: Int) -> [UInt8] {
        (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}

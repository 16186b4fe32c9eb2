@testable import FolioCore
@testable import FolioMetadata
@testable import FolioPipeline
import FolioTestSupport
import Foundation
import XCTest

/// A corpus of hostile and broken inputs, each with exactly what Folio must do with it: the
/// messages (naming file, record and key), whether the build fails (exit status 1), and what
/// is still published. Every site is built whole, every page checked (links, images, alt).
final class HostileInputTests: XCTestCase {
    struct Case {
        var name: String
        /// Files of the site, relative to its root.
        var files: [String: Data]
        /// Every message the build must give, exactly; `…` at the end of one matches any rest.
        var messages: [String]
        /// Photos published.
        var photos: Int
        /// Text that must not appear in any page (markup that escaped escaping).
        var absent: [String] = []
        /// Text that must appear in some page.
        var present: [String] = []
    }

    // MARK: - Material

    static let photo = try! Data(contentsOf: TestSite.seedPhoto)
    static let otherPhoto = try! Data(contentsOf: TestSite.repository.appendingPathComponent("content/photo2.jpg"))
    static func png(_ width: Int = 40, _ height: Int = 30) -> Data { try! Canvas(width: width, height: height).encoded(as: .png, quality: 100) }
    static func gif() -> Data { try! Canvas(width: 40, height: 30).encoded(as: .gif, quality: 100) }
    static func webp() -> Data { try! Canvas(width: 40, height: 30).encoded(as: .webp, quality: 80) }
    static func plist(_ records: Any, binary: Bool = false) -> Data { try! TestInputs.plist(records, binary: binary) }


    /// A site of one photo described by `record` (merged over a valid one).
    static func record(_ name: String, _ fields: [String: Any], messages: [String], photos: Int = 1,
                       absent: [String] = [], present: [String] = []) -> Case {
        var record: [String: Any] = ["path": "a.jpg", "name": "A", "user": "Ann"]
        for (key, value) in fields { record[key] = value }
        return Case(name: name, files: ["content/a.jpg": photo, "content/c.plist": plist([record])],
                    messages: messages, photos: photos, absent: absent, present: present)
    }

    /// A real camera's RAW (Tests/Fixtures/RAW).
    static let dng = try! Data(contentsOf: TestSite.repository.appendingPathComponent("Tests/Fixtures/RAW/canon_eos_6d.dng"))

    static func image(_ name: String, _ file: String, _ data: Data, messages: [String], photos: Int = 1) -> Case {
        Case(name: name, files: ["content/ok.jpg": photo, "content/\(file)": data], messages: messages, photos: photos)
    }

    static func jpegWithSize(_ width: Int, _ height: Int) -> Data {
        var jpeg = try! Canvas(width: 16, height: 16).encoded(as: .jpeg, quality: 80)
        let sof = jpeg.range(of: Data([0xFF, 0xC0]))!
        jpeg.replaceSubrange((sof.lowerBound + 5)..<(sof.lowerBound + 9),
                             with: [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)])
        return jpeg
    }

    static func pngWithSize(_ width: Int, _ height: Int) -> Data {
        var png = png(8, 8)
        png.replaceSubrange(16..<24, with: ImagingFixtures.bigEndian32(width) + ImagingFixtures.bigEndian32(height))
        return png
    }

    static func exifJPEG(_ exif: Data) -> Data { ImagingFixtures.insertingExif(exif, into: photo) }

    /// `[{"path": "a.jpg", "tags": <a set of "a.jpg">}]` as a binary plist written byte by byte (no
    /// writer makes sets): objects array, dictionary, set, "path", "tags", "a.jpg".
    static let binaryCatalogWithASet: Data = {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        func object(_ body: [UInt8]) { offsets.append(UInt8(bytes.count)); bytes += body }
        object([0xA1, 1])                      // 0: [1]
        object([0xD2, 3, 4, 5, 2])             // 1: {3: 5, 4: 2}
        object([0xC1, 5])                      // 2: set {5}
        object([0x54] + Array("path".utf8))    // 3
        object([0x54] + Array("tags".utf8))    // 4
        object([0x55] + Array("a.jpg".utf8))   // 5
        let table = UInt64(bytes.count)
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        for value in [UInt64(offsets.count), 0, table] { bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        return Data(bytes)
    }()

    static let settingsPath = "folio.json"

    // MARK: - The corpus

    static let cases: [Case] = catalogs + keys + paths + images + text + settings + metadata

    static let catalogs: [Case] = [
        Case(name: "empty catalog", files: ["content/a.jpg": photo, "content/c.plist": Data()],
             messages: ["error: content/c.plist: not a readable property list (…"], photos: 1),
        Case(name: "truncated XML catalog", files: ["content/a.jpg": photo, "content/c.plist": plist([["path": "a.jpg"]]).prefix(120)],
             messages: ["error: content/c.plist: not a readable property list (…"], photos: 1),
        Case(name: "truncated binary catalog", files: ["content/a.jpg": photo, "content/c.plist": plist([["path": "a.jpg"]], binary: true).dropLast(12)],
             messages: ["error: content/c.plist: not a readable property list (…"], photos: 1),
        // Foundation crashes the process bridging a binary plist's set: refused before it reads one.
        Case(name: "a binary catalog holding a set", files: ["content/a.jpg": photo, "content/c.plist": binaryCatalogWithASet],
             messages: ["error: content/c.plist: not a catalog: object 2 is a set, which a catalog cannot hold"], photos: 1),
        Case(name: "garbage catalog", files: ["content/a.jpg": photo, "content/c.plist": Data((0..<300).map { UInt8($0 * 7 % 256) })],
             messages: ["error: content/c.plist: not a readable property list (…"], photos: 1),
        Case(name: "a dictionary, not an array", files: ["content/a.jpg": photo, "content/c.plist": plist(["path": "a.jpg"])],
             messages: ["error: content/c.plist: a catalog must be an array of dictionaries, found a dictionary"], photos: 1),
        Case(name: "a string, not an array", files: ["content/c.plist": plist("hello")],
             messages: ["error: content/c.plist: a catalog must be an array of dictionaries, found a string"], photos: 0),
        Case(name: "records that are not dictionaries", files: ["content/a.jpg": photo, "content/c.plist": plist(["a.jpg", 3, [1]])],
             messages: ["error: content/c.plist, record 0: expected a dictionary, found a string",
                        "error: content/c.plist, record 1: expected a dictionary, found a number",
                        "error: content/c.plist, record 2: expected a dictionary, found an array"], photos: 1),
        Case(name: "an empty array", files: ["content/c.plist": plist([Any]())], messages: [], photos: 0),
        Case(name: "a UTF-16 XML catalog", files: [
            "content/a.jpg": photo,
            "content/c.plist": String(decoding: plist([["path": "a.jpg", "name": "Sixteen"]]), as: UTF8.self)
                .replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"").data(using: .utf16)!,
        ], messages: [], photos: 1, present: ["Sixteen"]),
        Case(name: "entities that would expand a billion times", files: [
            "content/a.jpg": photo,
            "content/c.plist": Data(("<?xml version=\"1.0\"?><!DOCTYPE plist [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">"
                + "<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">]>"
                + "<plist version=\"1.0\"><array><dict><key>path</key><string>a.jpg</string><key>name</key><string>&d;</string></dict></array></plist>").utf8),
        ], messages: ["error: content/c.plist: not a readable property list (…"], photos: 1),
        Case(name: "the same path twice", files: ["content/a.jpg": photo, "content/c.plist": plist([["path": "a.jpg", "name": "One"], ["path": "./a.jpg", "name": "Two"]])],
             messages: ["warning: content/c.plist, record 1: 'a.jpg' is listed by an earlier record too; the first one is used"], photos: 1,
             present: ["One"]),
        Case(name: "one path in two catalogs", files: ["content/a.jpg": photo, "content/c.plist": plist([["path": "a.jpg"]]),
                                                      "content/d.plist": plist([["path": "a.jpg"]])],
             messages: ["warning: content/d.plist, record 0: 'a.jpg' is listed by an earlier record too; the first one is used"], photos: 1),
        Case(name: "an unknown key", files: ["content/a.jpg": photo, "content/c.plist": plist([["path": "a.jpg", "rating": 5]])],
             messages: ["warning: content/c.plist, record 0: unknown key 'rating' ignored"], photos: 1),
    ]

    static let keys: [Case] = [
        record("path not a string", ["path": 3], messages: ["error: content/c.plist, record 0: no 'path' to an image: key 'path' is not a string"], photos: 1),
        record("name not a string", ["name": 3], messages: ["warning: content/c.plist, record 0: key 'name' should be a string, found a number; ignored"]),
        record("user an array", ["user": ["a"]], messages: ["warning: content/c.plist, record 0: key 'user' should be a string, found an array; ignored"],
               absent: ["people/a.html"]),
        record("description a dictionary", ["description": ["a": 1]], messages: ["warning: content/c.plist, record 0: key 'description' should be a string, found a dictionary; ignored"]),
        record("place a boolean", ["place": true], messages: ["warning: content/c.plist, record 0: key 'place' should be a string, found a number; ignored"]),
        record("region a date", ["region": Date(timeIntervalSince1970: 0)], messages: ["warning: content/c.plist, record 0: key 'region' should be a string, found a date; ignored"]),
        record("latitude a word", ["latitude": "north"], messages: ["warning: content/c.plist, record 0: key 'latitude' should be a number from -90 to 90, found a string; ignored"]),
        record("latitude out of range", ["latitude": 95.5], messages: ["warning: content/c.plist, record 0: key 'latitude' should be a number from -90 to 90, found a number; ignored"]),
        record("longitude out of range", ["longitude": -200], messages: ["warning: content/c.plist, record 0: key 'longitude' should be a number from -180 to 180, found a number; ignored"]),
        record("latitude not a number", ["latitude": Double.nan], messages: ["warning: content/c.plist, record 0: key 'latitude' should be a number from -90 to 90, found a number; ignored"]),
        record("taken a number", ["taken": 12], messages: ["warning: content/c.plist, record 0: key 'taken' should be a date (a plist <date> or ISO 8601 text), found a number; ignored"]),
        record("taken a word", ["taken": "yesterday"], messages: ["warning: content/c.plist, record 0: key 'taken' should be a date (a plist <date> or ISO 8601 text), found a string; ignored"]),
        // Read back from the model, the year 3,170,843 failed the whole build.
        record("taken in the year 3 million", ["taken": Date(timeIntervalSince1970: 1e14)],
               messages: ["warning: content/c.plist, record 0: key 'taken' is a date outside the years 1 to 9999; ignored"]),
        record("taken before the common era", ["taken": Date(timeIntervalSince1970: -1e11)],
               messages: ["warning: content/c.plist, record 0: key 'taken' is a date outside the years 1 to 9999; ignored"]),
        record("taken in the year 9999", ["taken": "9999-12-31T12:00:00Z"], messages: [], present: ["9999"]),
        Case(name: "dates of infinity and NaN in a binary catalog", files: [
            "content/a.jpg": photo,
            "content/c.plist": plist([["path": "a.jpg", "taken": Date(timeIntervalSinceReferenceDate: .infinity),
                                       "uploaded": Date(timeIntervalSinceReferenceDate: .nan)]], binary: true),
        ], messages: ["warning: content/c.plist, record 0: key 'taken' is a date outside the years 1 to 9999; ignored",
                      "warning: content/c.plist, record 0: key 'uploaded' is a date outside the years 1 to 9999; ignored"], photos: 1),
        record("uploaded a boolean", ["uploaded": false], messages: ["warning: content/c.plist, record 0: key 'uploaded' should be a date (a plist <date> or ISO 8601 text), found a number; ignored"]),
        record("favorite a word", ["favorite": "yes"], messages: ["warning: content/c.plist, record 0: key 'favorite' should be a boolean, found a string; ignored"]),
        record("tags a string", ["tags": "a, b"], messages: ["warning: content/c.plist, record 0: key 'tags' should be an array of strings, found a string; ignored"]),
        record("tags of numbers", ["tags": [1, 2]], messages: ["warning: content/c.plist, record 0: key 'tags' should be an array of strings, found an array; ignored"]),
        record("taken an ISO day", ["taken": "2024-02-29"], messages: [], present: ["29 February 2024"]),
        record("taken in the far future", ["taken": Date(timeIntervalSince1970: 32_503_680_000)], messages: [], present: ["3000"]),
        record("every key blank", ["name": "  ", "user": "\t", "description": "\n", "place": " ", "region": ""], messages: [],
               present: ["Unknown"]),
    ]

    static let paths: [Case] = [
        record("a path up out of content", ["path": "../outside.jpg"], messages: ["error: content/c.plist, record 0: path '../outside.jpg' leads outside content/"], photos: 1),
        record("an absolute path", ["path": "/etc/passwd"], messages: ["error: content/c.plist, record 0: path '/etc/passwd' leads outside content/"], photos: 1),
        record("a home path", ["path": "~/a.jpg"], messages: ["error: content/c.plist, record 0: path '~/a.jpg' leads outside content/"], photos: 1),
        record("in and out again", ["path": "sub/../../a.jpg"], messages: ["error: content/c.plist, record 0: path 'sub/../../a.jpg' leads outside content/"], photos: 1),
        record("a percent-encoded climb is a name", ["path": "%2e%2e/a.jpg"], messages: ["error: content/c.plist, record 0 (%2e%2e/a.jpg): image file not found"], photos: 1),
        record("a path with a NUL", ["path": "a\u{0}.jpg"], messages: ["warning: content/c.plist, record 0: key 'path' holds a NUL, which no file name can; it is left out"], photos: 1),
        record("an empty path", ["path": ""], messages: ["error: content/c.plist, record 0: key 'path' is empty"], photos: 1),
        record("a path to no file", ["path": "nowhere.jpg"], messages: ["error: content/c.plist, record 0 (nowhere.jpg): image file not found"], photos: 1),
        Case(name: "a path to a text file", files: ["content/notes.txt": Data("hello".utf8), "content/c.plist": plist([["path": "notes.txt"]])],
             messages: ["error: content/c.plist, record 0 (notes.txt): not an image, RAW or video file "
                 + "(expected .jpg, .png, .gif, .webp, .avif, .heic, .tif, .dng, .cr2, .nef, .mp4, .mov, .webm…)"], photos: 0),
        Case(name: "a path to a folder", files: ["content/sub/a.jpg": photo, "content/c.plist": plist([["path": "sub"]])],
             messages: ["error: content/c.plist, record 0 (sub): image file not found"], photos: 1),
        Case(name: "a path that differs in case", files: ["content/a.jpg": photo, "content/c.plist": plist([["path": "A.JPG"]])],
             messages: ["error: content/c.plist, record 0 (A.JPG): image file not found"], photos: 1),
        Case(name: "a catalog in a folder names paths from there", files: ["content/trip/a.jpg": photo, "content/trip/c.plist": plist([["path": "a.jpg", "name": "Near"]])],
             messages: [], photos: 1, present: ["Near"]),
        Case(name: "hidden files are not content", files: ["content/a.jpg": photo, "content/.DS_Store": Data("junk".utf8), "content/.hidden/b.jpg": photo],
             messages: [], photos: 1),
        // NSString's deletingLastPathComponent trapped on any one-character name: every build and
        // `folio serve` died on a folder called A.
        Case(name: "albums in one-letter folders", files: [
            "content/A/a.jpg": photo, "content/B/B.jpg": otherPhoto, "content/1/2/c.jpg": photo, "content/\u{E9}/d.jpg": photo,
            "content/e\u{301}/e.jpg": otherPhoto, "content/\u{301}/f.jpg": photo, "content/_/g.jpg": photo,
        ], messages: [], photos: 7, present: ["albums/a.html", ">B<"]),
        Case(name: "a catalog and album settings in a one-letter folder", files: [
            "content/A/B.jpg": photo, "content/A/c.plist": plist([["path": "B.jpg", "name": "Bee"]]),
            "content/A/album.plist": plist(["title": "Ay", "cover": "B.jpg"]), "content/C/album.plist": plist(["title": "Sea"]),
        ], messages: [], photos: 1, present: ["Bee", "Ay"]),
        // Linux file names may hold controls and spaces at either end; messages show them escaped.
        Case(name: "a name with an escape sequence and a newline, and a catalog naming it", files: [
            "content/a\u{1B}[31m\nb.jpg": photo, "content/c.plist": plist([["path": "a\u{1B}[31m\nb.jpg", "name": "Escaped"]], binary: true),
        ], messages: [], photos: 1, present: ["Escaped"]),
        Case(name: "a missing name with controls is told on one line", files: [
            "content/c.plist": plist([["path": "x\u{1B}[2J\n\u{202E}.jpg"]], binary: true),
        ], messages: [#"error: content/c.plist, record 0 (x\u{1B}[2J\u{A}\u{202E}.jpg): image file not found"#], photos: 0),
        Case(name: "a catalog path with spaces around it, typed by hand", files: [
            "content/a.jpg": photo, "content/c.plist": plist([["path": "  a.jpg ", "name": "Trimmed"]]),
        ], messages: [], photos: 1, present: ["Trimmed"]),
        Case(name: "a file whose name begins with a space", files: [
            "content/ a.jpg": photo, "content/a.jpg": otherPhoto, "content/c.plist": plist([["path": " a.jpg", "name": "Spaced"]]),
        ], messages: [], photos: 2, present: ["Spaced"]),
        record("a catalog path through one-letter folders", ["path": "./A/../B/./a.jpg"],
               messages: ["error: content/c.plist, record 0 (B/a.jpg): image file not found"], photos: 1),
    ]

    /// The photo with a segment put right after its SOI: APP1 for XMP, APP13 for IPTC.
    static func jpeg(segment marker: UInt8, _ payload: Data) -> Data {
        let length = payload.count + 2
        return Data([0xFF, 0xD8, 0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)]) + payload + photo.dropFirst(2)
    }

    static func xmpPacket(_ body: String) -> Data {
        Data("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">\(body)</rdf:Description></rdf:RDF></x:xmpmeta>
            """.utf8)
    }

    static func embeddedXMP(_ packet: Data) -> Data { jpeg(segment: 0xE1, Data(XMPReader.embeddedPrefix) + packet) }

    /// IIM datasets (record 2) in Photoshop's resource 0x0404, as APP13.
    static func embeddedIPTC(_ datasets: [(Int, Data)], raw: Data = Data()) -> Data {
        var iim = Data()
        for (dataset, value) in datasets { iim += Data([0x1C, 0x02, UInt8(dataset), UInt8(value.count >> 8), UInt8(value.count & 0xFF)]) + value }
        iim += raw
        let size = ImagingFixtures.bigEndian32(iim.count)
        return jpeg(segment: 0xED, Data("Photoshop 3.0\0".utf8) + Data("8BIM".utf8) + Data([0x04, 0x04, 0, 0]) + size + iim)
    }

    static func loose(_ name: String, _ files: [String: Data], messages: [String], photos: Int = 1,
                      absent: [String] = [], present: [String] = []) -> Case {
        Case(name: name, files: files, messages: messages, photos: photos, absent: absent, present: present)
    }

    static let metadata: [Case] = [
        loose("an XMP sidecar cut short", ["content/a.jpg": photo, "content/a.xmp": xmpPacket("<dc:title>T</dc:title>").prefix(90)],
              messages: ["warning: content/a.xmp: not readable XMP (line 1: it ends before its elements close); ignored"], present: [">a<"]),
        loose("an XMP sidecar of binary bytes", ["content/a.jpg": photo, "content/a.xmp": Data((0..<200).map { UInt8($0) })],
              messages: ["warning: content/a.xmp: XMP that is not UTF-8 text; ignored"]),
        loose("an XMP sidecar that is not XML", ["content/a.jpg": photo, "content/a.xmp": Data("just some words".utf8)],
              messages: ["warning: content/a.xmp: not readable XMP (…"]),
        loose("an empty processing instruction in embedded XMP (crashed Foundation's parser)",
              ["content/a.jpg": embeddedXMP(Data("<x:xmpmeta xmlns:x='adobe:ns:meta/'><?xpacket?></x:xmpmeta>".utf8))],
              messages: ["warning: content/a.jpg: embedded not readable XMP (line 1: a processing instruction with nothing in it); ignored"], present: [">a<"]),
        loose("an empty XMP sidecar", ["content/a.jpg": photo, "content/a.jpg.xmp": Data()],
              messages: ["warning: content/a.jpg.xmp: not readable XMP (…"]),
        loose("an XMP sidecar with an entity bomb", ["content/a.jpg": photo, "content/a.xmp": Data(#"<!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>"#.utf8)],
              messages: ["warning: content/a.xmp: XMP with a document type declaration (XMP has none; entities could expand without end); ignored"]),
        loose("an XMP sidecar of 5 MB", ["content/a.jpg": photo, "content/a.xmp": xmpPacket(String(repeating: " ", count: 5 << 20))],
              messages: ["warning: content/a.xmp: XMP of 5243124 bytes is larger than the 4 MB Folio reads; ignored"]),
        loose("an external entity in embedded XMP", ["content/a.jpg": embeddedXMP(Data(#"<!DOCTYPE x SYSTEM "file:///etc/passwd"><x/>"#.utf8))],
              messages: ["warning: content/a.jpg: embedded XMP with a document type declaration (XMP has none; entities could expand without end); ignored"],
              absent: ["root:x:"]),
        loose("markup in embedded XMP", ["content/a.jpg": embeddedXMP(xmpPacket("<dc:title>&lt;script&gt;alert(1)&lt;/script&gt;</dc:title><dc:creator>&lt;img src=x onerror=alert(2)&gt;</dc:creator>"))],
              messages: [], absent: ["<script>alert", "<img src=x"], present: ["&lt;script&gt;alert(1)&lt;/script&gt;"]),
        loose("a rating of nan and one of 99 stars", [
            "content/a.jpg": embeddedXMP(xmpPacket(#"<xmp:Rating>nan</xmp:Rating>"#)),
            "content/b.jpg": embeddedXMP(xmpPacket(#"<xmp:Rating>99</xmp:Rating><dc:title>Ninety-nine</dc:title>"#)),
        ], messages: [], photos: 2, present: ["Ninety-nine"]),
        loose("a NUL and a bell in IPTC", ["content/a.jpg": embeddedIPTC([(5, Data("Ti\0t\u{7}le".utf8)), (80, Data("Ann\0".utf8))])],
              messages: [], present: [">Title<"]),
        loose("an IPTC dataset longer than its segment", ["content/a.jpg": embeddedIPTC([(5, Data("Fine".utf8))], raw: Data([0x1C, 0x02, 0x78, 0xFF, 0xFF, 0x41]))],
              messages: [], present: [">Fine<"]),
        loose("an IPTC extended length of 2 GB", ["content/a.jpg": embeddedIPTC([], raw: Data([0x1C, 0x02, 0x05, 0x80, 0x04, 0x7F, 0xFF, 0xFF, 0xFF, 0x41]))],
              messages: [], present: [">a<"]),
        loose("IPTC in Latin-1, right to left and combining", ["content/a.jpg": embeddedIPTC([
            (5, Data([0x43, 0x61, 0x66, 0xE9])), (120, Data("שלום Cafe\u{301}".utf8))])],
              messages: [], present: [">Café<", "שלום Cafe\u{301}"]),
    ]

    static let images: [Case] = [
        image("an empty photo", "empty.jpg", Data(), messages: ["error: content/empty.jpg: not an image (empty file)"]),
        image("garbage named .jpg", "garbage.jpg", Data("not a picture at all".utf8), messages: ["error: content/garbage.jpg: not an image (unknown format)"]),
        image("a JPEG cut in its header", "cut.jpg", photo.prefix(40), messages: ["error: content/cut.jpg: corrupt or truncated JPEG data (…"]),
        image("a JPEG cut in its pixels", "cut.jpg", photo.prefix(photo.count / 2), messages: ["error: content/cut.jpg: corrupt or truncated JPEG data (…"]),
        image("a JPEG with its end marker gone", "cut.jpg", photo.dropLast(2), messages: ["error: content/cut.jpg: corrupt or truncated JPEG data (…"]),
        image("garbage named .nef", "garbage.nef", Data("not a picture at all".utf8), messages: ["error: content/garbage.nef: not an image (unknown format)"]),
        image("a DNG cut in its sensor data", "cut.dng", dng.prefix(390_000),
              messages: ["error: content/cut.dng: corrupt or truncated RAW data (cut short: its sensor data ends 21943 bytes past the end of the file)"]),
        image("a DNG cut in its header", "cut.dng", dng.prefix(300),
              messages: ["error: content/cut.dng: corrupt or truncated TIFF data"]),
        image("a JPEG named .cr2", "jpeg.cr2", otherPhoto, messages: [], photos: 2),
        image("a PNG named .jpg", "png.jpg", png(), messages: [], photos: 2),
        image("a JPEG named .png", "jpeg.png", otherPhoto, messages: [], photos: 2),
        image("a GIF named .webp", "gif.webp", gif(), messages: [], photos: 2),
        image("text named .gif", "text.gif", Data("GIF? no".utf8), messages: ["error: content/text.gif: not an image (unknown format)"]),
        image("a PNG cut short", "cut.png", png(64, 64).prefix(60), messages: ["error: content/cut.png: corrupt or truncated PNG data (…"]),
        image("a GIF cut short", "cut.gif", gif().prefix(30), messages: ["error: content/cut.gif: corrupt or truncated GIF data (…"]),
        image("a WebP cut short", "cut.webp", webp().prefix(40), messages: ["error: content/cut.webp: corrupt or truncated WEBP data"]),
        image("a JPEG claiming 65000x65000", "bomb.jpg", jpegWithSize(65000, 65000),
              messages: ["error: content/bomb.jpg: 65000x65000 pixels is over the limit of 100000000"]),
        image("a PNG claiming 50000x40000", "bomb.png", pngWithSize(50000, 40000),
              messages: ["error: content/bomb.png: 50000x40000 pixels is over the limit of 40000000 for images decoded whole (fullDecodePixelLimit)"]),
        image("a PNG claiming 7000x7000", "bomb.png", pngWithSize(7000, 7000),
              messages: ["error: content/bomb.png: 7000x7000 pixels is over the limit of 40000000 for images decoded whole (fullDecodePixelLimit)"]),
        image("a GIF claiming 10000x10000 in 44 bytes", "bomb.gif", TestInputs.gifBomb(width: 10000, height: 10000),
              messages: ["error: content/bomb.gif: 10000x10000 pixels is over the limit of 40000000 for images decoded whole (fullDecodePixelLimit)"]),
        image("a GIF claiming 6000x6000 in 44 bytes", "bomb.gif", TestInputs.gifBomb(width: 6000, height: 6000),
              messages: ["error: content/bomb.gif: corrupt or truncated GIF data (the first frame's data is cut short, or too little for its size)"]),
        image("a zero-size PNG", "zero.png", pngWithSize(0, 0), messages: ["error: content/zero.png: corrupt or truncated PNG data (no image size in the header)"]),
        image("a JPEG with garbage for EXIF", "exif.jpg", exifJPEG(Data("Exif\0\0".utf8) + Data(repeating: 0xAB, count: 200)), messages: [], photos: 2),
        image("a JPEG whose EXIF points past its end", "exif.jpg",
              exifJPEG(Data("Exif\0\0II*\0".utf8) + Data([0xFF, 0xFF, 0xFF, 0x7F])), messages: [], photos: 2),
        image("a JPEG with an orientation of 42", "exif.jpg", exifJPEG(ExifWriter().short(.init(rawValue: 0x0112), 42).block()), messages: [], photos: 2),
        image("a CMYK JPEG", "cmyk.jpg", try! ImagingFixtures.cmykJPEG(width: 40, height: 30, cyan: 200, magenta: 0, yellow: 0, black: 0),
              messages: [], photos: 2),
        image("a greyscale JPEG", "grey.jpg", try! ImagingFixtures.greyJPEG(width: 40, height: 30, level: 128), messages: [], photos: 2),
        image("a one-pixel JPEG", "dot.jpg", try! Canvas(width: 1, height: 1).encoded(as: .jpeg, quality: 80), messages: [], photos: 2),
        image("a 1x5000 sliver", "sliver.png", png(1, 5000), messages: [], photos: 2),
        image("an EXIF date of zeros", "zeros.jpg", exifJPEG(ExifWriter().ascii(.init(rawValue: 0x9003), "0000:00:00 00:00:00", ifd: .init(rawValue: 2)).block()),
              messages: [], photos: 2),
    ]

    static let text: [Case] = [
        record("markup in every field", [
            "name": "<script>alert('name')</script>", "user": "<img src=x onerror=alert(1)>",
            "description": "</textarea>\"'&<b>", "place": "<b>Bold</b>, <i>Land</i>", "tags": ["<svg onload=alert(2)>"],
        ], messages: [], absent: ["<script>alert", "<img src=x", "<b>Bold", "<svg onload", "</textarea>\""],
           present: ["&lt;script&gt;alert", "&lt;img src=x onerror=alert(1)&gt;"]),
        record("right to left", ["name": "שלום עולם", "user": "مريم", "place": "القاهرة, مصر"], messages: [], present: ["שלום עולם", "مريم"]),
        record("combining marks", ["name": "Cafe\u{301}", "place": "Montre\u{301}al, Que\u{301}bec, Canada"], messages: [], present: ["Cafe\u{301}"]),
        record("emoji and joiners", ["name": "👩‍👩‍👧 at the 🏖️", "user": "🐙"], messages: [], present: ["👩‍👩‍👧"]),
        record("a bidi override", ["name": "photo\u{202E}gpj.exe"], messages: [], present: ["photo\u{202E}gpj.exe"]),
        record("a name of ten thousand letters", ["name": String(repeating: "w", count: 10_000), "user": String(repeating: "p", count: 500)],
               messages: [], present: [String(repeating: "w", count: 10_000)]),
        record("a name of punctuation only", ["user": "!!!", "place": "???, ..."], messages: [], present: ["!!!"]),
        record("a control character in the user", ["user": "An\u{7}n"], messages: ["warning: content/c.plist, record 0: key 'user' holds control characters; they are left out"],
               present: [">Ann<"]),
        record("reserved page names", ["user": "Index", "place": "All"], messages: [], present: ["<h1>People</h1>"]),
    ]

    static let settings: [Case] = [
        Case(name: "an unknown setting", files: ["content/a.jpg": photo, "folio.json": Data(#"{"shade": "red"}"#.utf8)],
             messages: ["warning: folio.json: unknown setting 'shade' is ignored"], photos: 1),
    ]

    // MARK: - Running it

    func testTheCorpusIsLargeAndEveryCaseBehavesAsWritten() async throws {
        XCTAssertGreaterThanOrEqual(Self.cases.count + Self.refusedSettings.count, 80)
        for hostile in Self.cases {
            let site = try TestSite()
            for (path, data) in hostile.files { try site.write(data, to: path) }
            let report: BuildReport
            do {
                report = try await site.build()
            } catch {
                XCTFail("\(hostile.name): the build itself failed: \(error)")
                continue
            }
            let messages = report.issues.map(\.description)
            XCTAssertEqual(messages.count, hostile.messages.count, "\(hostile.name): \(messages)")
            for expected in hostile.messages {
                let matches = expected.hasSuffix("…") ? messages.contains { $0.hasPrefix(expected.dropLast()) } : messages.contains(expected)
                XCTAssertTrue(matches, "\(hostile.name): expected \(expected) among \(messages)")
            }
            XCTAssertEqual(report.succeeded, !hostile.messages.contains { $0.hasPrefix("error:") }, "\(hostile.name): the exit status")
            XCTAssertEqual(report.photos, hostile.photos, "\(hostile.name): photos published")
            XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [], hostile.name)
            let checks = PublicTreeChecks(root: site.publicFolder)
            let pages = try checks.pages.map { try checks.html($0) }.joined()
            for text in hostile.absent { XCTAssertFalse(pages.contains(text), "\(hostile.name): \(text) in a page") }
            for text in hostile.present { XCTAssertTrue(pages.contains(text), "\(hostile.name): \(text) in no page") }
        }
    }

    /// Settings that stop the build before anything is written, each naming the key.
    static let refusedSettings: [(String, String)] = [
        (#"{"quality": "high"}"#, "'quality' must be a whole number"),
        (#"{"quality": 101}"#, "'quality' must be from 1 to 100 (it is 101)"),
        (#"{"thumbnailSizes": [-5]}"#, "'thumbnailSizes' must hold sizes from 16 to 2048 (it is [-5])"),
        (#"{"screenSizes": []}"#, "'screenSizes' must hold sizes from 200 to 8192 (it is [])"),
        (#"{"format": "bmp"}"#, "'format' must be \"jpeg\", \"webp\" or \"avif\""),
        (#"{"latestCount": -1}"#, "'latestCount' cannot be negative (it is -1)"),
        (#"{"memoryLimit": 1}"#, "'memoryLimit' must be from 64 to 1048576 (megabytes) (it is 1)"),
        (#"{"memoryLimit": "lots"}"#, "'memoryLimit' must be a whole number (megabytes)"),
        (#"{"fullDecodePixelLimit": -1}"#, "'fullDecodePixelLimit' must be positive (it is -1)"),
        (#"{"favoriteRating": 6}"#, "'favoriteRating' must be from 0 (never) to 5 stars (it is 6)"),
        (#"{"title": 3}"#, "'title' must be text"),
        (#"{"pixelLimit": 0}"#, "'pixelLimit' must be positive (it is 0)"),
        (#"{"exclude": ["ok/**", "[abc.jpg"]}"#, "'exclude' pattern '[abc.jpg': a '[' is never closed with ']'"),
        (#"{"exclude": ["[z-a]*"]}"#, "'exclude' pattern '[z-a]*': the range z-a in '[…]' runs backwards"),
        (#"{"exclude": [""]}"#, "'exclude' pattern '': an empty pattern matches nothing"),
        (#"{"exclude": "*.jpg"}"#, "'exclude' must be a list of patterns, like [\"**/Private/**\", \"*.tmp.jpg\"]"),
        ("{not json", "not valid JSON"),
        (#"[1, 2]"#, "…"),
    ]

    func testBadSettingsStopTheBuildNamingTheKeyAndLeaveThePreviousSiteAlone() async throws {
        let site = try TestSite()
        try site.photo("a.jpg")
        try await site.build()
        let before = try site.read("index.html")
        for (settings, expected) in Self.refusedSettings {
            try site.write(Data(settings.utf8), to: "folio.json")
            do {
                try await site.build()
                XCTFail("\(settings) is refused")
            } catch let error as FolioError {
                XCTAssertTrue(error.description.hasPrefix(site.paths.settings.path + ": "), "\(settings): \(error)")
                XCTAssertTrue(expected == "…" || error.description.contains(expected), "\(settings): \(error)")
                XCTAssertEqual(error.step, "configure")
            }
            XCTAssertEqual(try site.read("index.html"), before, settings)
        }
    }

    func testNamesInNFDAndNFCAcrossBuilds() async throws {
        let site = try TestSite()
        let nfc = "Montréal.jpg", nfd = "Montre\u{301}al.jpg"
        XCTAssertEqual(nfc, nfd, "one text to Swift")
        XCTAssertNotEqual(Array(nfc.utf8), Array(nfd.utf8), "two names to Linux")
        try site.write(Self.photo, to: "content/\(nfc)")
        try site.catalog("c.plist", [["path": nfc, "name": "Old town"]])
        try await site.build()
        // The photo copied back from a Mac, its name now decomposed; the catalog still composed.
        try FileManager.default.removeItem(at: site.content.appendingPathComponent(nfc))
        try site.write(Self.photo, to: "content/\(nfd)")
        let report = try await site.build()
        XCTAssertTrue(report.succeeded, report.issues.description)
        XCTAssertEqual(report.photos, 1, "the catalog's record finds the file in the other form")
        XCTAssertTrue(try site.read("index.html").contains("Old town"))
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])

        // Both at once are two files on Linux, so two photos, never one model row for both.
        try site.write(Self.otherPhoto, to: "content/\(nfc)")
        let both = try await site.build()
        XCTAssertTrue(both.succeeded, both.issues.description)
        XCTAssertEqual(both.photos, 2)
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])
    }
}

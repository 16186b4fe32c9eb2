@testable import FolioContent
@testable import FolioCore
@testable import FolioMetadata
@testable import FolioPipeline
import FolioTestSupport
import Foundation
import GRDB
import XCTest

/// The photographer's own words, from files written by exiftool as photo tools write them:
/// IPTC-IIM, embedded XMP and XMP sidecars, with the precedence the README gives.
final class MetadataTests: XCTestCase {
    func photo(_ site: TestSite, _ path: String, seed: UInt64 = 1, latitude: Double? = nil, longitude: Double? = nil,
               artist: String? = nil) throws -> URL {
        var sample = SamplePhoto(width: 320, height: 240, seed: seed)
        (sample.latitude, sample.longitude, sample.artist) = (latitude, longitude, artist)
        try site.write(try sample.jpeg(), to: "content/\(path)")
        return site.content.appendingPathComponent(path)
    }

    /// A sidecar as a photo tool makes one: the file's XMP copied out, then edited there.
    func sidecar(of photo: URL, at path: String, in site: TestSite, _ tags: [(String, String)]) throws {
        let sidecar = site.content.appendingPathComponent(path)
        try ExifTool.run(["-q", "-o", sidecar.path, photo.path])
        try ExifTool.write(tags, to: sidecar)
    }

    struct Described: Equatable {
        var title: String?
        var description: String?
        var person: String
        var place: String?
        var region: String?
        var favorite: Bool
        var tags: [String]
    }

    func described(_ site: TestSite) async throws -> [String: Described] {
        try await site.database.writer.read { db in
            var found: [String: Described] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT photo.source, photo.title, photo.description, photo.favorite, photo.tags, person.name AS person,
                       place.name AS place, region.name AS region FROM photo JOIN person ON person.id = photo.personId
                LEFT JOIN place ON place.id = photo.placeId LEFT JOIN region ON region.id = place.regionId
                """) {
                let tags = try JSONDecoder().decode([String].self, from: Data((row["tags"] as String).utf8)).sorted()
                found[String((row["source"] as String).dropFirst("content:".count))] = Described(
                    title: row["title"], description: row["description"], person: row["person"], place: row["place"],
                    region: row["region"], favorite: row["favorite"], tags: tags)
            }
            return found
        }
    }

    func testIPTCAndXMPWrittenByExiftoolAreReadWithXMPFirst() async throws {
        let site = try TestSite()
        let both = try photo(site, "both.jpg", latitude: 48.8584, longitude: 2.2945, artist: "EXIF Artist")
        try ExifTool.write([
            ("IPTC:CodedCharacterSet", "UTF8"), ("IPTC:ObjectName", "IPTC title"), ("IPTC:Headline", "IPTC headline"),
            ("IPTC:Caption-Abstract", "Fishing boats coming in, São João"), ("IPTC:Keywords", "harbour"), ("IPTC:Keywords", "dawn"),
            ("IPTC:By-line", "Ana Lima"), ("IPTC:City", "Porto"), ("IPTC:Province-State", "Porto District"),
            ("IPTC:Country-PrimaryLocationName", "Portugal"),
            ("XMP-dc:Title", "Dawn over the Douro"), ("XMP-xmp:Rating", "5"),
        ], to: both)
        let iptc = try photo(site, "iptc-only.jpg", seed: 2, artist: "EXIF Artist")
        try ExifTool.write([("IPTC:Headline", "Only a headline"), ("IPTC:By-line", "Rui"), ("IPTC:Country-PrimaryLocationName", "Portugal")], to: iptc)
        // Written the way older tools did: Latin-1, with no character set said.
        let latin = try photo(site, "latin.jpg", seed: 3)
        try ExifTool.write([("IPTC:ObjectName", "Café à Montréal"), ("IPTC:City", "Montréal"), ("IPTC:Province-State", "Québec"),
                            ("IPTC:Country-PrimaryLocationName", "Canada")], to: latin, options: ["-charset", "iptc=Latin"])
        _ = try photo(site, "exif-only.jpg", seed: 4, latitude: 37.8199, longitude: -122.4783, artist: "EXIF Artist")
        _ = try photo(site, "_MG_7805.JPG", seed: 5)
        let raw = try Data(contentsOf: latin)
        XCTAssertNotNil(raw.range(of: Data([0x43, 0x61, 0x66, 0xE9])), "the fixture really holds Latin-1 bytes")

        let report = try await site.build()
        XCTAssertTrue(report.succeeded, report.issues.description)
        XCTAssertEqual(report.issues, [])
        let found = try await described(site)
        XCTAssertEqual(found["both.jpg"], Described(
            title: "Dawn over the Douro", description: "Fishing boats coming in, São João", person: "Ana Lima",
            place: "Porto, Porto District, Portugal", region: "Porto District", favorite: true, tags: ["dawn", "harbour"]),
            "XMP's title over IPTC's; IPTC's place over the GPS lookup; IPTC's creator over EXIF's; 5 stars a favorite")
        XCTAssertEqual(found["iptc-only.jpg"], Described(
            title: "Only a headline", description: nil, person: "Rui", place: "Portugal", region: "Portugal", favorite: false, tags: []))
        XCTAssertEqual(found["latin.jpg"]?.title, "Café à Montréal")
        XCTAssertEqual(found["latin.jpg"]?.place, "Montréal, Québec, Canada")
        XCTAssertEqual(found["exif-only.jpg"], Described(
            title: "exif only", description: nil, person: "EXIF Artist",
            place: "San Francisco, California, United States", region: "California", favorite: false, tags: []))
        XCTAssertEqual(found["_MG_7805.JPG"]?.title, "MG 7805", "a title from a file name loses underscores and extension")
        let page = try site.read("photos/\(try site.identifier("both.jpg")).html")
        XCTAssertTrue(page.contains("Dawn over the Douro"))
        XCTAssertTrue(page.contains("Fishing boats coming in, São João"))
    }

    func testASidecarWinsOverTheFileAndTheCatalogOverBoth() async throws {
        let site = try TestSite()
        let lightroom = try photo(site, "IMG_0001.JPG")
        try ExifTool.write([("XMP-dc:Title", "Embedded title"), ("XMP-dc:Description", "Embedded words"), ("XMP-xmp:Rating", "3")], to: lightroom)
        // Lightroom's name for a sidecar (IMG_0001.xmp) and darktable's (IMG_0002.JPG.xmp).
        try sidecar(of: lightroom, at: "IMG_0001.xmp", in: site, [
            ("XMP-dc:Title", "Sidecar title"), ("XMP-photoshop:City", "Porto"), ("XMP-photoshop:Country", "Portugal"),
            ("XMP-dc:Subject", "river"), ("XMP-dc:Subject", "bridge"), ("XMP-xmp:Rating", "5"), ("XMP-dc:Creator", "Ana Lima")])
        let darktable = try photo(site, "IMG_0002.JPG", seed: 2)
        try sidecar(of: darktable, at: "IMG_0002.JPG.xmp", in: site, [("XMP-dc:Title", "Darktable title"), ("XMP-xmp:Rating", "4")])
        let catalogued = try photo(site, "IMG_0003.JPG", seed: 3)
        try sidecar(of: catalogued, at: "IMG_0003.xmp", in: site, [
            ("XMP-dc:Title", "Sidecar loses"), ("XMP-dc:Description", "Sidecar words"), ("XMP-photoshop:City", "Lyon")])
        try site.catalog("c.plist", [["path": "IMG_0003.JPG", "name": "The catalog's title", "place": "Nairobi, Kenya"]])

        let first = try await site.build()
        XCTAssertTrue(first.succeeded, first.issues.description)
        var found = try await described(site)
        XCTAssertEqual(found["IMG_0001.JPG"], Described(
            title: "Sidecar title", description: "Embedded words", person: "Ana Lima", place: "Porto, Portugal",
            region: "Portugal", favorite: true, tags: ["bridge", "river"]))
        XCTAssertEqual(found["IMG_0002.JPG"]?.title, "Darktable title")
        XCTAssertEqual(found["IMG_0002.JPG"]?.favorite, false, "4 stars is not 5")
        XCTAssertEqual(found["IMG_0003.JPG"]?.title, "The catalog's title")
        XCTAssertEqual(found["IMG_0003.JPG"]?.description, "Sidecar words", "what the catalog does not say comes from the sidecar")
        XCTAssertEqual(found["IMG_0003.JPG"]?.place, "Nairobi, Kenya")

        // Editing a sidecar alone is seen by the next build; so is the rating setting.
        try await Task.sleep(nanoseconds: 20_000_000)
        try ExifTool.write([("XMP-dc:Title", "Edited in Lightroom")], to: site.content.appendingPathComponent("IMG_0001.xmp"))
        try site.write(Data(#"{"favoriteRating": 4}"#.utf8), to: "folio.json")
        let second = try await site.build()
        XCTAssertTrue(second.succeeded, second.issues.description)
        found = try await described(site)
        XCTAssertEqual(found["IMG_0001.JPG"]?.title, "Edited in Lightroom")
        XCTAssertEqual(found["IMG_0002.JPG"]?.favorite, true, "4 stars with favoriteRating 4")
    }

    /// The lens as a camera writes it (EXIF LensModel) and as Lightroom writes it in a sidecar
    /// (`aux:Lens`, over the file's): on the photo's page and found by search.
    func testTheLensIsReadShownAndFound() async throws {
        let site = try TestSite()
        let camera = try photo(site, "camera.jpg")
        try ExifTool.write([("EXIF:Make", "FUJIFILM"), ("EXIF:Model", "X-T4"), ("EXIF:LensModel", "XF23mmF1.4 R")], to: camera)
        let edited = try photo(site, "edited.jpg", seed: 2)
        try ExifTool.write([("EXIF:LensModel", "XF35mmF2 R WR")], to: edited)
        try sidecar(of: edited, at: "edited.xmp", in: site, [("XMP-aux:Lens", "Fujinon 35mm f/2")])
        _ = try photo(site, "none.jpg", seed: 3)
        let report = try await site.build()
        XCTAssertEqual(report.issues, [])
        let lenses = try await site.database.writer.read { db in
            try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT source, lens FROM photo").map {
                (String(($0["source"] as String).dropFirst("content:".count)), $0["lens"] as String?)
            })
        }
        XCTAssertEqual(lenses, ["camera.jpg": "XF23mmF1.4 R", "edited.jpg": "Fujinon 35mm f/2", "none.jpg": nil])
        let page = try site.read("photos/\(try site.identifier("camera.jpg")).html")
        XCTAssertTrue(page.contains("Lens") && page.contains("XF23mmF1.4 R"), "the photo page shows the lens")
        XCTAssertFalse(try site.read("photos/\(try site.identifier("none.jpg")).html").contains(">Lens<"), "no lens, no line for it")
        // Search finds a photo by a word of its lens: the word's postings name it.
        let word = "fujinon"
        let postings = try LocalFileAccess().files(under: site.publicFolder).filter { $0.hasPrefix("search/data/t-") }
        let holding = try postings.filter { try site.read($0).contains("\"\(word)\"") }
        XCTAssertEqual(holding.count, 1, "the word \(word) is in the search index: \(postings)")
    }

    func testBrokenOrHostileXMPIsReportedAndThePhotoStillPublished() async throws {
        let site = try TestSite()
        _ = try photo(site, "laughs.jpg")
        let laughs = """
            <?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>&d;&d;&d;&d;</dc:title></rdf:Description></rdf:RDF></x:xmpmeta>
            """
        try site.write(Data(laughs.utf8), to: "content/laughs.xmp")
        _ = try photo(site, "cut.jpg", seed: 2)
        try site.write(Data(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Descr"#.utf8),
                       to: "content/cut.xmp")
        let report = try await site.build()
        XCTAssertTrue(report.succeeded)
        XCTAssertEqual(report.photos, 2)
        XCTAssertEqual(report.issues.map(\.description).sorted(), [
            "warning: content/cut.xmp: not readable XMP (line 1: it ends before its elements close); ignored",
            "warning: content/laughs.xmp: XMP with a document type declaration (XMP has none; entities could expand without end); ignored",
        ])
        let found = try await described(site)
        XCTAssertEqual(found["laughs.jpg"]?.title, "laughs")
    }

    /// Apple Photos ends the XMP packet it embeds with a NUL (sigal's `iptcTest/1.jpg`, written by
    /// Photos 3.0): exiftool's packet, with that NUL put after it in the JPEG's APP1.
    func testAnXMPPacketEndingInANULAsApplePhotosWritesItIsRead() async throws {
        let site = try TestSite()
        let url = try photo(site, "photos.jpg")
        try ExifTool.write([("XMP-dc:Title", "Written by Photos"), ("XMP-dc:Description", "A packet that ends in a NUL")], to: url)
        var bytes = [UInt8](try Data(contentsOf: url))
        let prefix = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
        // The APP1 segment holding XMP: FF E1, a big-endian length (itself included), the prefix.
        func isXMPSegment(at index: Int) -> Bool {
            guard bytes[index] == 0xFF, bytes[index + 1] == 0xE1 else { return false }
            return Array(bytes[(index + 4)..<(index + 4 + prefix.count)]) == prefix
        }
        let start = try XCTUnwrap((2..<(bytes.count - 4 - prefix.count)).first(where: isXMPSegment))
        let length = (Int(bytes[start + 2]) << 8) | Int(bytes[start + 3])
        XCTAssertNotEqual(bytes[start + 2 + length - 1], 0, "exiftool's own packet has no NUL")
        bytes.insert(0, at: start + 2 + length)
        bytes[start + 2] = UInt8((length + 1) >> 8)
        bytes[start + 3] = UInt8((length + 1) & 0xFF)
        try Data(bytes).write(to: url)

        let report = try await site.build()
        XCTAssertEqual(report.issues, [], "read, not refused")
        let found = try await described(site)
        XCTAssertEqual(found["photos.jpg"]?.title, "Written by Photos")
        XCTAssertEqual(found["photos.jpg"]?.description, "A packet that ends in a NUL")
        // Padding of NULs and blanks after the packet, as some writers leave in a fixed-size segment.
        let packet = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:format="image/jpeg"/></rdf:RDF></x:xmpmeta>"#
        XCTAssertNoThrow(try XMPReader.read(Data(packet.utf8) + Data([0, 0x20, 0x0A, 0, 0])).get())
        XCTAssertThrowsError(try XMPReader.read(Data(packet.utf8) + Data([0]) + Data("<more/>".utf8)).get(), "only padding at the end is passed over")
    }

    func testAProcessingInstructionWithNothingInItIsRefusedBeforeParsing() {
        // Found by the metadata fuzzer: `<?xpacket?>` crashed Foundation's parser (a null C string).
        let packet = "<?xpacket begin='\u{FEFF}' id='W5M0MpCehiHzreSzNTczkc9d'?>\n<x:xmpmeta xmlns:x='adobe:ns:meta/'>\n<?xpacket?>\n</x:xmpmeta>"
        XCTAssertEqual(XMPReader.read(Data(packet.utf8)), .failure(.malformed("line 3: a processing instruction with nothing in it")))
        XCTAssertEqual(XMPReader.emptyProcessingInstruction(in: Data("<a><?pi \n\t ?></a>".utf8)), 1, "blanks are nothing")
        XCTAssertEqual(XMPReader.emptyProcessingInstruction(in: Data("<a>\n<?pi".utf8)), 2, "nor is an end")
        XCTAssertNil(XMPReader.emptyProcessingInstruction(in: Data("<?xpacket begin='' id='x'?><a/><?xpacket end='w'?>".utf8)))
        XCTAssertNil(XMPReader.emptyProcessingInstruction(in: Data("<a>?&gt; <!-- ? --></a>".utf8)))
        // Linear however it is made: a packet of nothing but openings is looked at once.
        XCTAssertNil(XMPReader.emptyProcessingInstruction(in: Data(String(repeating: "<?x a", count: 200_000).utf8)))
        // XMP as photo tools write it still reads.
        let good = "<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?><x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>"
            + "<rdf:Description xmlns:dc='http://purl.org/dc/elements/1.1/'><dc:title><rdf:Alt><rdf:li xml:lang='x-default'>Pier</rdf:li></rdf:Alt></dc:title>"
            + "</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end='w'?>"
        XCTAssertEqual(try? XMPReader.read(Data(good.utf8)).get().title, "Pier")
    }

    func testIIMReaderIsBoundedOnDamagedData() {
        // Every prefix of a real IIM block: read as far as it goes, never past its end.
        var iim = Data([0x1C, 0x01, 0x5A, 0x00, 0x03, 0x1B, 0x25, 0x47])
        for (dataset, text) in [(5, "Title"), (25, "a"), (25, "b"), (120, "Words")] {
            iim += Data([0x1C, 0x02, UInt8(dataset), 0x00, UInt8(text.utf8.count)]) + Data(text.utf8)
        }
        XCTAssertEqual(IPTCReader.datasets(iim), PhotoDescription(title: "Title", description: "Words", keywords: ["a", "b"]))
        for length in 0..<iim.count { _ = IPTCReader.datasets(iim.prefix(length)) }
        // A length that claims more than there is.
        XCTAssertNil(IPTCReader.datasets(Data([0x1C, 0x02, 0x05, 0x80, 0x04, 0xFF, 0xFF, 0xFF, 0xFF, 0x41])))
    }
}

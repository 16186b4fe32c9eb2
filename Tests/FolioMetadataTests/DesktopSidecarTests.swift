import FolioCore
import FolioImaging
@testable import FolioMetadata
import FolioTestSupport
import Foundation
import GRDB
import XCTest

/// What desktop managers write in XMP beyond titles and stars, as exiftool writes it for them:
/// Lightroom's hierarchical keywords, colour labels, and the MWG face regions of Lightroom,
/// digiKam, Picasa and Apple Photos as who is in the photo.
final class DesktopSidecarTests: XCTestCase {
    func sidecar(_ tags: [String]) throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-xmp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("IMG_1.xmp")
        try ExifTool.run(["-q", "-o", file.path] + tags)
        return try Data(contentsOf: file)
    }

    func testRegionsLabelsAndHierarchicalKeywordsAsExiftoolWritesThem() throws {
        let data = try sidecar([
            "-XMP-mwg-rs:RegionInfo={AppliedToDimensions={W=4000,H=3000,Unit=pixel},RegionList=[{Name=Ada Lovelace,Type=Face,"
                + "Area={X=0.5,Y=0.5,W=0.1,H=0.1,Unit=normalized}},{Name=Rex,Type=Pet},{Name=Focus point,Type=Focus}]}",
            "-XMP-lr:HierarchicalSubject=Places|France|Paris", "-XMP-lr:HierarchicalSubject=People|Ada",
            "-XMP-xmp:Label=Red", "-XMP-xmp:Rating=3",
        ])
        let found = try XMPReader.read(data).get()
        XCTAssertEqual(found.people, ["Ada Lovelace", "Rex"], "faces and pets, not a focus point")
        XCTAssertEqual(found.keywords, ["Paris", "Ada"], "the last word of each path")
        XCTAssertEqual(found.label, "Red")
        XCTAssertTrue(found.isFavorite(by: FavoriteRule(rating: 5, label: "red")), "a label in any case")
        XCTAssertFalse(found.isFavorite(by: FavoriteRule(rating: 5)))
        XCTAssertTrue(found.isFavorite(by: FavoriteRule(rating: 3)))
        XCTAssertFalse(found.isFavorite(by: FavoriteRule(rating: 0)), "0 stars: no rating makes one")
    }

    /// The flat keyword list, when there is one, is Lightroom's own choice of what to export.
    func testFlatKeywordsComeFirst() throws {
        let data = try sidecar(["-XMP-lr:HierarchicalSubject=Places|France|Paris", "-XMP-dc:Subject=Paris", "-XMP-dc:Subject=Seine"])
        XCTAssertEqual(try XMPReader.read(data).get().keywords, ["Paris", "Seine"])
    }

    /// Lightroom and Picasa write a region's name and type as attributes of an rdf:Description.
    func testRegionsAsAttributes() throws {
        let data = Data(#"""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/"
              xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#">
             <mwg-rs:Regions rdf:parseType="Resource"><mwg-rs:RegionList><rdf:Bag>
              <rdf:li><rdf:Description mwg-rs:Name="Grace Hopper" mwg-rs:Type="Face">
                <mwg-rs:Area stArea:h="0.05" stArea:w="0.03" stArea:x="0.2" stArea:y="0.3" stArea:unit="normalized"/>
              </rdf:Description></rdf:li>
              <rdf:li mwg-rs:Name="Ada"/>
             </rdf:Bag></mwg-rs:RegionList></mwg-rs:Regions>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """#.utf8)
        XCTAssertEqual(try XMPReader.read(data).get().people, ["Grace Hopper", "Ada"])
    }

    /// darktable's sidecar of a RAW+JPEG pair is named after the RAW (`IMG_1.CR2.xmp`), and each
    /// duplicate's after it (`IMG_1_01.CR2.xmp`): the first describes the published JPEG, the
    /// others are part of the pair; none is a skipped file. A colour label makes a favorite when
    /// the site says which, and the faces are on the photo's page.
    func testADarktablePairsSidecarDescribesItsJPEG() async throws {
        let site = try TestSite()
        var sample = SamplePhoto(width: 240, height: 180, seed: 7)
        sample.taken = Date(timeIntervalSince1970: 1_600_000_000)
        try site.write(try sample.jpeg(), to: "content/trip/IMG_1.JPG")
        try site.write(Data("II*\u{0}not really a raw".utf8), to: "content/trip/IMG_1.CR2")
        try site.write(try sidecar(["-XMP-dc:Title=Harbour at dawn", "-XMP-xmp:Label=Red",
                                    "-XMP-mwg-rs:RegionInfo={RegionList=[{Name=Ada Lovelace,Type=Face}]}"]), to: "content/trip/IMG_1.CR2.xmp")
        try site.write(try sidecar(["-XMP-dc:Title=Another edit"]), to: "content/trip/IMG_1_01.CR2.xmp")
        try site.write(Data(#"{"favoriteLabel": "Red"}"#.utf8), to: "folio.json")
        let report = try await site.build()
        XCTAssertEqual(report.issues, [])
        XCTAssertEqual(report.skippedLines, ["1 companion file beside its photo, not imported: 1 .cr2 (RAW)"])
        let row = try site.database.writer.read { db in try Row.fetchOne(db, sql: "SELECT identifier, title, favorite, pictured FROM photo") }
        XCTAssertEqual(row?["title"], "Harbour at dawn")
        XCTAssertEqual(row?["favorite"], true, "labelled Red")
        XCTAssertEqual(row?["pictured"], #"["Ada Lovelace"]"#)
        let page = try site.read("photos/\(row?["identifier"] as String? ?? "").html")
        XCTAssertTrue(page.contains("Ada Lovelace"))
    }

    /// A date and a place set in Lightroom or digiKam are in the sidecar, as exiftool writes
    /// them: the sidecar's come before the file's EXIF (a photographer's correction).
    func testASidecarsDateAndPlaceComeBeforeTheFiles() async throws {
        let data = try sidecar(["-XMP-exif:DateTimeOriginal=2019:07:14 18:02:11+02:00",
                                "-XMP-exif:GPSLatitude=48.858370", "-XMP-exif:GPSLatitudeRef=N",
                                "-XMP-exif:GPSLongitude=2.294481", "-XMP-exif:GPSLongitudeRef=E"])
        let found = try XMPReader.read(data).get()
        XCTAssertEqual(found.taken, LocalDateTime.date(from: "2019:07:14 18:02:11"), "the wall clock's time, as EXIF's")
        XCTAssertEqual(try XCTUnwrap(found.latitude), 48.85837, accuracy: 0.00001)
        XCTAssertEqual(try XCTUnwrap(found.longitude), 2.294481, accuracy: 0.00001)

        let site = try TestSite()
        var sample = SamplePhoto(width: 240, height: 180, seed: 9)
        sample.taken = Date(timeIntervalSince1970: 1_600_000_000)
        try site.write(try sample.jpeg(), to: "content/IMG_7.jpg")
        try site.write(data, to: "content/IMG_7.jpg.xmp")
        try await site.build()
        let row = try site.database.writer.read { db in try Row.fetchOne(db, sql: "SELECT taken, latitude, placeId FROM photo") }
        XCTAssertEqual(row?["taken"] as Date?, LocalDateTime.date(from: "2019:07:14 18:02:11"))
        XCTAssertNotNil(row?["placeId"] as Int64?, "placed by the sidecar's GPS")
    }

    /// Lightroom and digiKam turn a photo (a RAW above all) in its sidecar, leaving the file as it
    /// is: the sidecar's `tiff:Orientation` is the photo's. Turned back, the site is again what a
    /// fresh build makes, the turned renditions never taken for the file's own.
    func testASidecarsTurnIsThePhotosAndTurningBackIsAFreshBuilds() async throws {
        XCTAssertEqual(try XMPReader.read(try sidecar(["-XMP-tiff:Orientation#=6"])).get().orientation, 6)
        let site = try TestSite()
        let photo = try SamplePhoto(width: 240, height: 180, seed: 11).jpeg()
        try site.write(photo, to: "content/IMG_8.jpg")
        try site.write(try sidecar(["-XMP-dc:Title=Turned", "-XMP-tiff:Orientation#=6"]), to: "content/IMG_8.xmp")
        try await site.build()
        let sizes = { try site.database.writer.read { db in try Row.fetchOne(db, sql: "SELECT width, height, orientation FROM photo") } }
        let turned = try sizes()
        XCTAssertEqual([turned?["width"], turned?["height"], turned?["orientation"]] as [Int?], [180, 240, 6])
        let turnedFiles = try site.publishedFiles()

        try site.write(try sidecar(["-XMP-dc:Title=Turned"]), to: "content/IMG_8.xmp")
        try await site.build()
        let back = try sizes()
        XCTAssertEqual([back?["width"], back?["height"], back?["orientation"]] as [Int?], [240, 180, 1])
        let fresh = try TestSite()
        try fresh.write(photo, to: "content/IMG_8.jpg")
        try fresh.write(try sidecar(["-XMP-dc:Title=Turned"]), to: "content/IMG_8.xmp")
        try await fresh.build()
        // The renditions byte for byte (the pages carry each file's own time of upload).
        let media = { (files: [String: Data]) in files.filter { $0.key.hasPrefix("media/") } }
        let incremental = media(try site.publishedFiles())
        XCTAssertEqual(incremental, media(try fresh.publishedFiles()))
        XCTAssertTrue(Set(media(turnedFiles).keys).isDisjoint(with: incremental.keys), "the turned renditions are named apart from the file's own")
    }

    /// Lightroom and Photoshop embed XMP in the TIFFs and DNGs they export (tag 700): their
    /// titles, keywords and ratings are the photo's, as a JPEG's embedded XMP is. exiftool writes
    /// them into a real camera's DNG and a TIFF Pillow made.
    func testXMPEmbeddedInADNGOrATIFFIsRead() throws {
        let tags = ["-XMP-dc:Title=Desk at night", "-XMP-dc:Subject=Office", "-XMP-dc:Subject=Night", "-XMP-xmp:Rating=5"]
        let dng = try Data(contentsOf: TestSite.repository.appendingPathComponent("Tests/Fixtures/RAW/canon_eos_6d.dng"))
        let tiff = try PhotoTools.photo(from: TestSite.repository.appendingPathComponent("content/cc0/rocket.jpg"),
                                        width: 120, height: 80, format: .tiff)
        for (data, format, fileExtension) in [(dng, ImageFormat.raw, "dng"), (tiff, .tiff, "tif")] {
            let (found, problem) = EmbeddedDescription.read(try PhotoTools.exiftool(tags, on: data, fileExtension: fileExtension), format: format)
            XCTAssertNil(problem, fileExtension)
            XCTAssertEqual(found.title, "Desk at night", fileExtension)
            XCTAssertEqual(found.keywords, ["Office", "Night"], fileExtension)
            XCTAssertEqual(found.rating, 5, fileExtension)
        }
        // The DNG as Adobe Camera Raw wrote it: its XMP names the lens.
        XCTAssertEqual(EmbeddedDescription.read(dng, format: .raw).description.lens, "EF24-105mm f/4L IS USM")
    }

    func testXMPDatesAndCoordinatesAsWritten() {
        XCTAssertEqual(XMPReader.wallTime("2023-10-06"), LocalDateTime.date(from: "2023:10:06 00:00:00"))
        XCTAssertEqual(XMPReader.wallTime("2023-10-06T08:30"), LocalDateTime.date(from: "2023:10:06 08:30:00"))
        XCTAssertEqual(XMPReader.wallTime("2023-10-06T08:30:29.57Z"), LocalDateTime.date(from: "2023:10:06 08:30:29"))
        XCTAssertNil(XMPReader.wallTime("2023"))
        for odd in ["T", "", "-", "--", "2023--06", "T12:00", "99999999999999999999-1-1"] {
            XCTAssertNil(XMPReader.wallTime(odd), odd)
        }
        XCTAssertNil(XMPReader.wallTime("2023-02-30"))
        XCTAssertEqual(XMPReader.coordinate("48,51.5N", limit: 90, negative: "S"), 48 + 51.5 / 60)
        XCTAssertEqual(XMPReader.coordinate("33,51,0S", limit: 90, negative: "S"), -(33 + 51.0 / 60))
        XCTAssertNil(XMPReader.coordinate("200,0W", limit: 180, negative: "W"))
        XCTAssertNil(XMPReader.coordinate("north", limit: 90, negative: "S"))
    }
}

@testable import FolioContent
@testable import FolioCore
import FolioTestSupport
import Foundation
import XCTest

/// A folder as a phone, a camera and a scanner fill it: HEIC and TIFF photos beside JPEGs, a Live
/// Photo's video, a RAW+JPEG pair, a RAW alone, and files that are no photos at all, built into a
/// whole site.
final class PhotoFormatsBuildTests: XCTestCase {
    private func cameraFolder() throws -> TestSite {
        let site = try TestSite()
        let tags = PhotoTools.cameraTags(taken: "2022:07:01 10:00:00", make: "Apple", model: "iPhone 12",
                                         latitude: 48.8584, longitude: 2.2945)
        var phone = SamplePhoto(width: 320, height: 240, seed: 7)
        phone.orientation = 6  // held upright: stored on its side, turned by EXIF
        let heic = try PhotoTools.heic(fromJPEG: try PhotoTools.exiftool(tags, on: try phone.jpeg(), fileExtension: "jpg"))
        try site.write(heic, to: "content/phone/IMG_0001.HEIC")
        let scan = try PhotoTools.exiftool(PhotoTools.cameraTags(taken: "1987:03:04 05:06:07"),
                                           on: try Canvas(width: 200, height: 150).encoded(as: .tiff, quality: 100),
                                           fileExtension: "tif")
        try site.write(scan, to: "content/scans/grandma.tif")
        try site.photo("camera/DSC_0002.JPG")
        try site.write(Data("raw sensor data".utf8), to: "content/camera/DSC_0002.NEF")
        // A RAW alone is a photo of its own: a real camera's (Tests/Fixtures/RAW), with darktable's
        // sidecar (named after the RAW) giving its title.
        try site.write(try Data(contentsOf: TestSite.repository.appendingPathComponent("Tests/Fixtures/RAW/canon_eos_6d.dng")),
                       to: "content/camera/DSC_0003.DNG")
        try site.write(try PhotoTools.exiftool(["-XMP-dc:Title=Desk at night"], on: Data(), fileExtension: "xmp"),
                       to: "content/camera/DSC_0003.DNG.xmp")
        try site.write(Data("%PDF-1.4".utf8), to: "content/notes/itinerary.pdf")
        try site.write(Data("hello".utf8), to: "content/README")
        return site
    }

    func testHEICAndTIFFArePublishedAndTheRestIsSaidOnce() async throws {
        let site = try cameraFolder()
        let report = try await site.build()
        XCTAssertTrue(report.succeeded, report.issues.description)
        XCTAssertEqual(report.issues.map(\.description), [], "companions and other files are no errors or warnings")
        XCTAssertEqual(report.photos, 4)
        XCTAssertEqual(report.skippedLines, [
            "skipped 2 files: 1 .pdf (document), 1 without an extension (not a photo)",
            "1 companion file beside its photo, not imported: 1 .nef (RAW)",
        ])
        XCTAssertEqual(report.skipped.filter { $0.companionOf != nil }.map { [$0.path, $0.companionOf ?? ""] }, [
            ["camera/DSC_0002.NEF", "camera/DSC_0002.JPG"],
        ])

        // The HEIC: its EXIF in the model and on its page, upright, published as JPEG only.
        let database = try site.database
        let phone = try XCTUnwrap(database.photo(identifier: try site.identifier("phone/IMG_0001.HEIC")))
        XCTAssertEqual([phone.width, phone.height], [320, 240])
        XCTAssertEqual(try XCTUnwrap(phone.latitude), 48.8584, accuracy: 1e-4)
        let page = try site.read("photos/\(try site.identifier("phone/IMG_0001.HEIC")).html")
        XCTAssertTrue(page.contains("Apple iPhone 12"), "the camera from the HEIC's EXIF")
        let scan = try XCTUnwrap(database.photo(identifier: try site.identifier("scans/grandma.tif")))
        XCTAssertEqual([scan.width, scan.height], [200, 150])
        // The lone RAW: a kind of its own, its camera's facts on its page.
        let raw = try XCTUnwrap(database.photo(identifier: try site.identifier("camera/DSC_0003.DNG")))
        XCTAssertEqual(raw.kind, .raw)
        XCTAssertEqual([raw.width, raw.height], [1224, 816])
        let rawPage = try site.read("photos/\(try site.identifier("camera/DSC_0003.DNG")).html")
        XCTAssertEqual(raw.title, "Desk at night", "titled by its sidecar")
        for fact in ["Canon EOS 6D", "EF24-105mm f/4L IS USM", "1/60 s · f/5.6 · ISO 1000 · 65 mm", "Camera RAW (DNG)", "6 June 2019"] {
            XCTAssertTrue(rawPage.contains(fact), "the RAW's page says \(fact)")
        }

        let checks = PublicTreeChecks(root: site.publicFolder)
        XCTAssertEqual(try checks.problems(), [])
        let images = try FileManager.default.subpathsOfDirectory(atPath: site.publicFolder.path)
            .filter { ["jpg", "heic", "heif", "tif", "tiff", "mov", "nef", "dng"].contains(RelativePath($0).lowercasedExtension) }
        XCTAssertFalse(images.isEmpty)
        XCTAssertEqual(Set(images.map { RelativePath($0).lowercasedExtension }), ["jpg"], "only JPEG renditions are published")

        // Unchanged, the next build says the same of the same files.
        let again = try await site.build()
        XCTAssertTrue(again.upToDate)
        XCTAssertEqual(again.skippedLines, report.skippedLines)
    }

    func testAFolderOfPhotosOnlySaysNothingMore() async throws {
        let site = try TestSite.threePhotos()
        let report = try await site.build()
        XCTAssertEqual(report.skippedLines, [])
    }

    func testCatalogNamingADocumentIsAnErrorThatNamesTheFormatsFolioReads() throws {
        let site = try TestSite()
        try site.write(Data("%PDF-1.4".utf8), to: "content/notes.pdf")
        try site.catalog("c.plist", [["path": "notes.pdf", "name": "Notes"]])
        let inventory = try ContentLoader(contentRoot: site.content).load()
        XCTAssertEqual(inventory.issues.map(\.description), [
            "error: content/c.plist, record 0 (notes.pdf): not an image, RAW or video file "
                + "(expected .jpg, .png, .gif, .webp, .avif, .heic, .tif, .dng, .cr2, .nef, .mp4, .mov, .webm…)",
        ])
        XCTAssertEqual(inventory.skipped, [SkippedFile(path: "notes.pdf", kind: .document)])
    }

    func testCompanionsAndSidecarsMatchTheirPhotoWhateverTheCase() throws {
        let site = try TestSite()
        try site.photo("a/IMG_7.jpg")
        for name in ["IMG_7.mov", "img_7.CR3", "IMG_7.xmp", "IMG_7.jpg.xmp", "IMG_8.xmp", "b/IMG_7.mov"] {
            try site.write(Data("x".utf8), to: "content/a/\(name)".replacingOccurrences(of: "a/b/", with: "b/"))
        }
        let inventory = try ContentLoader(contentRoot: site.content).load()
        // The photo's own sidecars are part of it (read as its metadata), not skipped; a video
        // of its name is its Live Photo clip, and a video alone is a photo of its own.
        XCTAssertEqual(inventory.skipped.map { "\($0.path) (\($0.kind.rawValue)) \($0.companionOf ?? "-")" }, [
            "a/IMG_8.xmp (sidecar of no photo) -",
            "a/img_7.CR3 (RAW) a/IMG_7.jpg",
        ])
        XCTAssertEqual(inventory.entries.map { "\($0.path) \($0.clip?.path ?? "-")" }.sorted(), [
            "a/IMG_7.jpg a/IMG_7.mov", "b/IMG_7.mov -",
        ])
    }
}

@testable import FolioImaging
import FolioTestSupport
import Foundation
import XCTest

/// A real camera's RAW (`Tests/Fixtures/RAW`: a Canon EOS 6D's, as a DNG) read, drawn from its
/// preview and developed as rawpy, LibRaw in another build, develops it; damaged RAWs refused
/// with a reason.
final class RAWDecodeTests: XCTestCase {
    private let processor = ImageProcessor()
    private static let fixtures = TestSite.repository.appendingPathComponent("Tests/Fixtures/RAW")
    private let dng = try! Data(contentsOf: fixtures.appendingPathComponent("canon_eos_6d.dng"))
    /// Levels of 255 per channel, averaged: the two LibRaw releases differ by 1.6 on red in this
    /// file (0.2 and 0.0 on the others), through a JPEG rendition by up to 2.
    private let tolerance = 3.0

    private func assertClose(
        _ decoded: PixelBuffer, _ reference: PixelBuffer, _ label: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        PhotoTools.assertClose(decoded, reference, tolerance: tolerance, label, file: file, line: line)
    }

    private func screen(_ width: Int) -> RenditionRequest {
        RenditionRequest(name: "screen", width: width, height: width, fit: .inside, format: .jpeg, quality: 100)
    }

    func testADNGIsARAWWithItsCamerasFacts() throws {
        XCTAssertEqual(ImageFormat(sniffing: dng), .raw)
        let metadata = try processor.metadata(of: dng)
        XCTAssertEqual(metadata.format, .raw)
        XCTAssertEqual([metadata.width, metadata.height, metadata.orientation], [1224, 816, 1])
        XCTAssertEqual(metadata.camera, "Canon EOS 6D")
        XCTAssertEqual(metadata.lens, "EF24-105mm f/4L IS USM")
        XCTAssertEqual(metadata.exposure, "1/60 s · f/5.6 · ISO 1000 · 65 mm")
        XCTAssertEqual(metadata.colour, .sRGB)
        let taken = try XCTUnwrap(metadata.taken)
        XCTAssertEqual(ISO8601DateFormatter().string(from: taken), "2019-06-06T07:29:51Z", "the camera's wall time, as for any photo")

        // What LibRaw reads itself, for RAWs whose EXIF is no TIFF structure (CR3, RAF, ORF,
        // RW2), says the same as the DNG's EXIF.
        let facts = try RAWDecoder(dng).facts()
        let fromEXIF = try XCTUnwrap(ImageHeader.read(dng).exif.flatMap { ExifReader(block: $0)?.fields })
        XCTAssertEqual(facts.exif.camera, fromEXIF.camera)
        XCTAssertEqual(facts.exif.lensModel, fromEXIF.lensModel)
        XCTAssertEqual(facts.exif.taken, fromEXIF.taken)
        XCTAssertEqual(facts.exif.exposure, fromEXIF.exposure)
    }

    func testARAWLargerThanItsPreviewIsDevelopedAsRawpyDevelopsIt() throws {
        let metadata = try processor.metadata(of: dng)
        let run = try processor.makeRenditions(of: dng, metadata: metadata, requests: [screen(1224)])
        XCTAssertEqual([run.decodedWidth, run.decodedHeight], [1224, 816], "developed: the 1024-pixel preview is too small")
        let rendition = try XCTUnwrap(run.renditions.first)
        assertClose(try PhotoTools.pillowPixels(of: rendition.bytes), try PhotoTools.rawpyPixels(of: dng, fileExtension: "dng"), "developed")
    }

    func testARAWTurnedByItsOrientationIsTurnedOnce() throws {
        // exiftool sets the Orientation a camera held upright writes; LibRaw reads it as its flip.
        let turned = try PhotoTools.exiftool(["-n", "-Orientation=6"], on: dng, fileExtension: "dng")
        let metadata = try processor.metadata(of: turned)
        XCTAssertEqual([metadata.width, metadata.height, metadata.orientation], [816, 1224, 6])
        let run = try processor.makeRenditions(of: turned, metadata: metadata, requests: [screen(1224)])
        let rendition = try XCTUnwrap(run.renditions.first)
        XCTAssertEqual([rendition.width, rendition.height], [816, 1224])
        assertClose(try PhotoTools.pillowPixels(of: rendition.bytes), try PhotoTools.rawpyPixels(of: turned, fileExtension: "dng"), "turned")
        // From its preview too, turned the same way (the preview is stored as the sensor is).
        let small = try processor.makeRenditions(of: turned, metadata: metadata, requests: [screen(1000)])
        XCTAssertEqual([small.decodedWidth, small.decodedHeight], [683, 1024])
        let preview = try PhotoTools.pillowPixels(of: try PhotoTools.embeddedPreview(of: turned, fileExtension: "dng"))
        let reference = try PhotoTools.pillowPixels(
            of: try processor.encode(preview.oriented(.rotatedClockwise).resampled(toWidth: 667, height: 1000), as: .jpeg, quality: 100))
        assertClose(try PhotoTools.pillowPixels(of: try XCTUnwrap(small.renditions.first).bytes), reference, "turned preview")
    }

    func testRenditionsThePreviewCoversAreDrawnFromIt() throws {
        let metadata = try processor.metadata(of: dng)
        let run = try processor.makeRenditions(of: dng, metadata: metadata, requests: [screen(1000), screen(500)])
        XCTAssertEqual([run.decodedWidth, run.decodedHeight], [1024, 683], "the camera's own 1024-pixel development")
        // Against the preview as exiftool extracts it, decoded by Pillow and resampled by Folio.
        let preview = try PhotoTools.pillowPixels(of: try PhotoTools.embeddedPreview(of: dng, fileExtension: "dng"))
        let largest = try XCTUnwrap(run.renditions.first)
        XCTAssertEqual([largest.width, largest.height], [1000, 667], "sized from the RAW's 1224 x 816, not the preview's 1024 x 683")
        let reference = try PhotoTools.pillowPixels(
            of: try processor.encode(preview.resampled(toWidth: 1000, height: 667), as: .jpeg, quality: 100))
        assertClose(try PhotoTools.pillowPixels(of: largest.bytes), reference, "from the preview")
    }

    func testAPreviewAsLargeAsThePictureGivesItsTilesToo() throws {
        // The DNG with a full-size preview in place of its own, as many cameras embed one (exiftool
        // writes it): deep zoom's tiles come from it too, with no development. A negative of the
        // picture, so the two cannot be taken for each other.
        let developed = try PhotoTools.rawpyPixels(of: dng, fileExtension: "dng")
        let negative = PixelBuffer(width: developed.width, height: developed.height, words: developed.words.map { ~$0 & 0xFF_FFFF })
        let full = try processor.encode(negative, as: .jpeg, quality: 95)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-raw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try full.write(to: folder.appendingPathComponent("full.jpg"))
        let raw = try PhotoTools.exiftool(["-PreviewImage<=\(folder.appendingPathComponent("full.jpg").path)"], on: dng, fileExtension: "dng")
        let metadata = try processor.metadata(of: raw)
        var tiles: [Tile] = []
        let run = try processor.makeRenditions(of: raw, metadata: metadata, requests: [screen(1000)],
                                               tiles: TileRequest(coveredUpTo: 1000)) { tiles.append($0) }
        XCTAssertFalse(tiles.isEmpty, "a picture larger than its largest rendition is tiled")
        XCTAssertEqual([run.decodedWidth, run.decodedHeight], [1224, 816])
        // Its pixels are the preview's, within JPEG's loss of them.
        let rendition = try XCTUnwrap(run.renditions.first)
        let reference = try PhotoTools.pillowPixels(
            of: try processor.encode(try PhotoTools.pillowPixels(of: full).resampled(toWidth: 1000, height: 667), as: .jpeg, quality: 100))
        assertClose(try PhotoTools.pillowPixels(of: rendition.bytes), reference, "tiles and renditions from the full-size preview")
    }

    func testDamagedRAWsAreRefusedWithAReason() throws {
        // Cut short at several places: refused, never a crash.
        for length in [16, 512, 4096, 65_536, 200_000, 300_000, 390_000, dng.count - 1000] {
            let cut = dng.prefix(length)
            XCTAssertThrowsError(try {
                let metadata = try processor.metadata(of: cut)
                _ = try processor.renditions(of: cut, metadata: metadata, requests: [screen(1224)])
            }(), "cut at \(length)") { error in
                let reason = (error as? ImagingError)?.reason ?? "\(error)"
                XCTAssertTrue(reason.contains("RAW") || reason.contains("TIFF") || reason.contains("not an image"), "cut at \(length): \(reason)")
            }
        }
        // Exiv2's: a CR3 whose pixels were cut out, and two files found by fuzzing.
        let expected = [
            "Canon-R6-pruned.CR3": "corrupt or truncated RAW data (LibRaw does not read this camera's files (Unsupported file format or not RAW file))",
            "issue_839_poc.rw2": "corrupt or truncated RAW data (LibRaw does not read this camera's files (Unsupported file format or not RAW file))",
            "issue_857_poc.raf": "not an image (unknown format)",
        ]
        for (name, reason) in expected {
            let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("damaged/\(name)"))
            XCTAssertThrowsError(try processor.metadata(of: data), name) { error in
                XCTAssertEqual((error as? ImagingError)?.reason, reason, name)
            }
        }
    }

    func testEachMakersRAWIsToldByItsStructureAndReadByLibRaw() throws {
        // exiftool's RAWs, their pixels cut out: the structure each camera wrote. What LibRaw
        // or their EXIF say of each camera, as a page shows it; nil where LibRaw reads no more of it.
        let cameras: [String: String?] = [
            "CanonRaw.cr2": nil, "CanonRaw.cr3": "Canon EOS M50", "CanonRaw.crw": "Canon EOS 300D",
            "DNG.dng": "Canon EOS 350D DIGITAL", "FujiFilm.raf": "Fujifilm S5Pro", "Minolta.mrw": "Minolta DiMAGE A2",
            "Nikon.nef": "NIKON CORPORATION NIKON D70", "Panasonic.rw2": "Panasonic DMC-LX3", "PhaseOne.iiq": "Leaf Credo 40", "Sigma.x3f": nil,
        ]
        for (name, camera) in cameras {
            let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("structure/\(name)"))
            XCTAssertEqual(ImageFormat(sniffing: data), .raw, name)
            switch Result(catching: { try processor.metadata(of: data) }) {
            case .success(let metadata): XCTAssertEqual(metadata.camera, camera, name)
            case .failure(let error):
                XCTAssertNil(camera, "\(name): \(error)")
                XCTAssertTrue((error as? ImagingError)?.reason.hasPrefix("corrupt or truncated RAW data") == true, "\(name): \(error)")
            }
        }
    }

    func testTIFFsThatAreNoRAWsStayTIFFs() throws {
        let photo = TestSite.repository.appendingPathComponent("content/cc0/rocket.jpg")
        let tiff = try PhotoTools.photo(from: photo, width: 120, height: 80, format: .tiff)
        XCTAssertEqual(ImageFormat(sniffing: tiff), .tiff)
        let tagged = try PhotoTools.exiftool(["-Make=Canon", "-Model=Canon EOS 6D"], on: tiff, fileExtension: "tif")
        XCTAssertEqual(ImageFormat(sniffing: tagged), .tiff, "a camera's name alone makes no RAW")
    }
}

import CExif
@testable import FolioCore
@testable import FolioImaging
@testable import FolioSite
import FolioTestSupport
import Foundation
import XCTest


final class ImagingMetadataTests: XCTestCase {
    private let processor = ImageProcessor()

    func testJPEGSizeAndFormatComeFromTheHeader() throws {
        let metadata = try processor.metadata(of: ImagingFixtures.jpeg(width: 320, height: 200))
        XCTAssertEqual(metadata, ImageMetadata(format: .jpeg, width: 320, height: 200))
    }

    func testPNGSizeFromIHDR() throws {
        let png = try ImagingFixtures.image(width: 123, height: 45).encoded(as: .png, quality: 100)
        let metadata = try processor.metadata(of: png)
        XCTAssertEqual(metadata.format, .png)
        XCTAssertEqual([metadata.width, metadata.height], [123, 45])
    }

    func testGIFSizeFromLogicalScreen() throws {
        let gif = try ImagingFixtures.image(width: 77, height: 99).encoded(as: .gif, quality: 100)
        let metadata = try processor.metadata(of: gif)
        XCTAssertEqual(metadata.format, .gif)
        XCTAssertEqual([metadata.width, metadata.height], [77, 99])
    }

    func testLossyWebPSizeFromVP8Frame() throws {
        let webp = try ImagingFixtures.image(width: 130, height: 70).encoded(as: .webp, quality: 80)
        XCTAssertTrue(webp.dropFirst(12).starts(with: Data("VP8 ".utf8)))
        let metadata = try processor.metadata(of: webp)
        XCTAssertEqual(metadata.format, .webp)
        XCTAssertEqual([metadata.width, metadata.height], [130, 70])
    }

    func testLosslessWebPSizeFromVP8L() throws {
        let webp = try ImagingFixtures.image(width: 131, height: 71).encoded(as: .webp, quality: 101)  // gdWebpLossless
        XCTAssertTrue(webp.dropFirst(12).starts(with: Data("VP8L".utf8)))
        let metadata = try processor.metadata(of: webp)
        XCTAssertEqual([metadata.width, metadata.height], [131, 71])
    }

    func testExtendedWebPSizeAndExifFromVP8X() throws {
        let simple = try ImagingFixtures.image(width: 64, height: 48).encoded(as: .webp, quality: 80)
        let exif = ExifWriter().ascii(EXIF_TAG_ARTIST, "Ansel").short(EXIF_TAG_ORIENTATION, 8).block()
        let webp = ImagingFixtures.webpWithExif(exif, simple: simple, width: 64, height: 48)
        let metadata = try processor.metadata(of: webp)
        XCTAssertEqual(metadata.format, .webp)
        XCTAssertEqual(metadata.artist, "Ansel")
        XCTAssertEqual(metadata.orientation, 8)
        XCTAssertEqual([metadata.width, metadata.height], [48, 64], "orientation 8 swaps the axes")
        // And libwebp accepts the file as built.
        XCTAssertEqual(try processor.renditions(of: webp, metadata: metadata, requests: [
            RenditionRequest(name: "s", width: 100, height: 100, fit: .inside, format: .jpeg, quality: 80),
        ]).first?.width, 48)
    }

    func testPNGExifChunkIsRead() throws {
        let png = try ImagingFixtures.image(width: 40, height: 30).encoded(as: .png, quality: 100)
        let exif = ExifWriter(bigEndian: true).ascii(EXIF_TAG_MAKE, "Leica").ascii(EXIF_TAG_MODEL, "M6").block()
        let metadata = try processor.metadata(of: ImagingFixtures.insertingExif(exif, intoPNG: png))
        XCTAssertEqual(metadata.camera, "Leica M6")
        XCTAssertEqual([metadata.width, metadata.height], [40, 30])
    }

    func testFormatIsToldByBytesNotByName() throws {
        let png = try ImagingFixtures.image(width: 10, height: 10).encoded(as: .png, quality: 100)
        XCTAssertEqual(ImageFormat(sniffing: png), .png)
        XCTAssertEqual(ImageFormat(sniffing: try ImagingFixtures.jpeg(width: 10, height: 10)), .jpeg)
        XCTAssertNil(ImageFormat(sniffing: Data("<html>not a photo</html>".utf8)))
    }

    func testAVIFSizeFromIspeWhenLibgdCanWriteAVIF() throws {
        let avif: Data
        do {
            avif = try ImagingFixtures.image(width: 66, height: 34).encoded(as: .avif, quality: 60)
        } catch {
            throw XCTSkip("this libgd was built without AVIF support")
        }
        let metadata = try processor.metadata(of: avif)
        XCTAssertEqual(metadata.format, .avif)
        XCTAssertEqual([metadata.width, metadata.height], [66, 34])
        let rendition = try processor.renditions(of: avif, metadata: metadata, requests: [
            RenditionRequest(name: "s", width: 33, height: 33, fit: .inside, format: .jpeg, quality: 80),
        ])
        XCTAssertEqual([rendition[0].width, rendition[0].height], [33, 17])
    }

    func testExifDateCameraArtistExposureAndGPS() throws {
        let exif = ExifWriter()
            .ascii(EXIF_TAG_MAKE, "Canon")
            .ascii(EXIF_TAG_MODEL, "Canon EOS R5")
            .ascii(EXIF_TAG_ARTIST, "  Ada Lovelace  ")
            .ascii(EXIF_TAG_DATE_TIME, "2020:01:01 00:00:00")
            .ascii(EXIF_TAG_DATE_TIME_ORIGINAL, "2019:07:14 18:30:05", ifd: EXIF_IFD_EXIF)
            .rationals(EXIF_TAG_EXPOSURE_TIME, [(10, 2500)])
            .rationals(EXIF_TAG_FNUMBER, [(28, 10)])
            .short(EXIF_TAG_ISO_SPEED_RATINGS, 100, ifd: EXIF_IFD_EXIF)
            .rationals(EXIF_TAG_FOCAL_LENGTH, [(35, 1)])
            .ascii(ExifWriter.gps(EXIF_TAG_GPS_LATITUDE_REF), "N", ifd: EXIF_IFD_GPS)
            .rationals(ExifWriter.gps(EXIF_TAG_GPS_LATITUDE), [(37, 1), (26, 1), (3036, 100)], ifd: EXIF_IFD_GPS)
            .ascii(ExifWriter.gps(EXIF_TAG_GPS_LONGITUDE_REF), "E", ifd: EXIF_IFD_GPS)
            .rationals(ExifWriter.gps(EXIF_TAG_GPS_LONGITUDE), [(122, 1), (8, 1), (30, 1)], ifd: EXIF_IFD_GPS)
            .block()
        let metadata = try processor.metadata(of: ImagingFixtures.jpeg(width: 64, height: 48, exif: exif))
        XCTAssertEqual(metadata.taken, Date(timeIntervalSince1970: 1_563_129_005), "2019-07-14 18:30:05 UTC")
        XCTAssertEqual(metadata.camera, "Canon EOS R5")
        XCTAssertEqual(metadata.artist, "Ada Lovelace")
        XCTAssertEqual(metadata.exposure, "1/250 s · f/2.8 · ISO 100 · 35 mm")
        XCTAssertEqual(try XCTUnwrap(metadata.latitude), 37 + 26 / 60 + 30.36 / 3600, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(metadata.longitude), 122 + 8 / 60 + 30 / 3600, accuracy: 1e-9)
        XCTAssertEqual(metadata.orientation, 1)
    }

    func testSouthAndWestAreNegativeInBigEndianExif() throws {
        let exif = ExifWriter(bigEndian: true)
            .ascii(ExifWriter.gps(EXIF_TAG_GPS_LATITUDE_REF), "S", ifd: EXIF_IFD_GPS)
            .rationals(ExifWriter.gps(EXIF_TAG_GPS_LATITUDE), [(33, 1), (51, 1), (0, 1)], ifd: EXIF_IFD_GPS)
            .ascii(ExifWriter.gps(EXIF_TAG_GPS_LONGITUDE_REF), "W", ifd: EXIF_IFD_GPS)
            .rationals(ExifWriter.gps(EXIF_TAG_GPS_LONGITUDE), [(70, 1), (39, 1), (36, 1)], ifd: EXIF_IFD_GPS)
            .block()
        let metadata = try processor.metadata(of: ImagingFixtures.jpeg(width: 16, height: 16, exif: exif))
        XCTAssertEqual(try XCTUnwrap(metadata.latitude), -(33 + 51.0 / 60), accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(metadata.longitude), -(70 + 39.0 / 60 + 36.0 / 3600), accuracy: 1e-9)
    }

    func testGPSWithoutAFixIsIgnored() throws {
        let exif = ExifWriter()
            .ascii(ExifWriter.gps(EXIF_TAG_GPS_STATUS), "V", ifd: EXIF_IFD_GPS)
            .rationals(ExifWriter.gps(EXIF_TAG_GPS_LATITUDE), [(0, 1), (0, 1), (0, 1)], ifd: EXIF_IFD_GPS)
            .rationals(ExifWriter.gps(EXIF_TAG_GPS_LONGITUDE), [(0, 1), (0, 1), (0, 1)], ifd: EXIF_IFD_GPS)
            .block()
        let metadata = try processor.metadata(of: ImagingFixtures.jpeg(width: 16, height: 16, exif: exif))
        XCTAssertNil(metadata.latitude)
        XCTAssertNil(metadata.longitude)
    }

    func testDateTimeIsTheFallbackAndMakeIsPrefixedWhenMissingFromModel() throws {
        let exif = ExifWriter()
            .ascii(EXIF_TAG_MAKE, "FUJIFILM")
            .ascii(EXIF_TAG_MODEL, "X100V")
            .ascii(EXIF_TAG_DATE_TIME, "2001:02:03 04:05:06")
            .rationals(EXIF_TAG_EXPOSURE_TIME, [(2, 1)])
            .block()
        let metadata = try processor.metadata(of: ImagingFixtures.jpeg(width: 16, height: 16, exif: exif))
        XCTAssertEqual(metadata.taken, Date(timeIntervalSince1970: 981_173_106), "2001-02-03 04:05:06 UTC")
        XCTAssertEqual(metadata.camera, "FUJIFILM X100V")
        XCTAssertEqual(metadata.exposure, "2 s")
        XCTAssertNil(metadata.artist)
    }

    func testUnsetClockAndBlankArtistAreNil() throws {
        let exif = ExifWriter()
            .ascii(EXIF_TAG_DATE_TIME_ORIGINAL, "0000:00:00 00:00:00", ifd: EXIF_IFD_EXIF)
            .ascii(EXIF_TAG_ARTIST, "    ")
            .block()
        let metadata = try processor.metadata(of: ImagingFixtures.jpeg(width: 16, height: 16, exif: exif))
        XCTAssertNil(metadata.taken)
        XCTAssertNil(metadata.artist)
    }

    func testExifWithoutDatesGetsNoInventedDate() throws {
        // libexif's default "follow the specification" would add DateTime = now on load.
        let exif = ExifWriter().ascii(EXIF_TAG_MODEL, "Pinhole").block()
        let metadata = try processor.metadata(of: ImagingFixtures.jpeg(width: 16, height: 16, exif: exif))
        XCTAssertEqual(metadata.camera, "Pinhole")
        XCTAssertNil(metadata.taken)
    }

    func testExifFoundBehindAnXMPSegment() throws {
        let exif = ExifWriter().ascii(EXIF_TAG_ARTIST, "Vivian").block()
        let xmpPayload = Data("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8)
        let xmp = Data([0xFF, 0xE1, UInt8((xmpPayload.count + 2) >> 8), UInt8((xmpPayload.count + 2) & 0xFF)]) + xmpPayload
        let jpeg = try ImagingFixtures.jpeg(width: 16, height: 16, exif: exif)
        let withXMPFirst = jpeg.prefix(2) + xmp + jpeg.dropFirst(2)
        XCTAssertEqual(try processor.metadata(of: withXMPFirst).artist, "Vivian")
    }

    func testOrientationFiveToEightSwapsTheSize() throws {
        for orientation in 1...8 {
            let exif = ExifWriter().short(EXIF_TAG_ORIENTATION, orientation).block()
            let metadata = try processor.metadata(of: ImagingFixtures.jpeg(width: 300, height: 200, exif: exif))
            XCTAssertEqual(metadata.orientation, orientation)
            let expected = orientation >= 5 ? [200, 300] : [300, 200]
            XCTAssertEqual([metadata.width, metadata.height], expected, "orientation \(orientation)")
        }
    }

    func testOutOfRangeOrientationReadsAsUpright() throws {
        let exif = ExifWriter().short(EXIF_TAG_ORIENTATION, 42).block()
        let metadata = try processor.metadata(of: ImagingFixtures.jpeg(width: 30, height: 20, exif: exif))
        XCTAssertEqual(metadata.orientation, 1)
        XCTAssertEqual([metadata.width, metadata.height], [30, 20])
    }

    func testMetadataReadsNoPixels() throws {
        // The scan data is destroyed: a decode would fail, the header read does not notice.
        var jpeg = try ImagingFixtures.jpeg(width: 200, height: 100)
        let scan = try XCTUnwrap(jpeg.lastRange(of: Data([0xFF, 0xDA])))
        jpeg = jpeg.prefix(scan.upperBound + 12) + Data(repeating: 0x00, count: 40)
        let metadata = try processor.metadata(of: jpeg)
        XCTAssertEqual([metadata.width, metadata.height], [200, 100])
        XCTAssertThrowsError(try processor.renditions(of: jpeg, metadata: metadata, requests: [
            RenditionRequest(name: "t", width: 50, height: 50, fit: .inside, format: .jpeg, quality: 80),
        ]))
    }

    func testExifDateParsing() {
        XCTAssertEqual(LocalDateTime.date(from: "1970:01:01 00:00:00"), Date(timeIntervalSince1970: 0))
        XCTAssertEqual(LocalDateTime.date(from: "2024-02-29 23:59:59"), Date(timeIntervalSince1970: 1_709_251_199))
        XCTAssertNil(LocalDateTime.date(from: "2023:02:29 12:00:00"), "not a leap year")
        XCTAssertNil(LocalDateTime.date(from: "    :  :     :  :  "))
    }
}

import CExif
@testable import FolioImaging
import FolioTestSupport
import Foundation
import XCTest


final class ImagingErrorTests: XCTestCase {
    private let processor = ImageProcessor()
    private let thumb = RenditionRequest(name: "thumb", width: 64, height: 64, fit: .inside, format: .jpeg, quality: 80)

    private func reason(_ body: () throws -> Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as ImagingError {
            return error.reason
        } catch {
            return "unexpected \(error)"
        }
    }

    /// Why `data` makes no rendition, read first as a build does: its metadata, then the renditions.
    private func renditionReason(_ data: Data) -> String? {
        reason {
            try processor.renditions(of: data, metadata: try processor.metadata(of: data), requests: [thumb])
        }
    }

    func testAFileThatIsNoLongerWhatTheImportReadIsRefused() throws {
        // The build decodes with the facts the import kept; a file replaced in between has other ones.
        for format in [ImageFormat.jpeg, .png] {
            let data = try ImagingFixtures.image(width: 40, height: 30).encoded(as: format, quality: 90)
            let stale = ImageMetadata(format: format, width: 80, height: 60)
            XCTAssertEqual(reason { try processor.renditions(of: data, metadata: stale, requests: [thumb]) },
                           "changed while it was being built (80x60 pixels before, 40x30 now); build again", format.rawValue)
        }
    }

    func testEmptyAndGarbageAreNotImages() {
        XCTAssertEqual(reason { try processor.metadata(of: Data()) }, "not an image (empty file)")
        XCTAssertEqual(reason { try processor.metadata(of: Data("GIF8".utf8)) }, "not an image (unknown format)")
        var generator = SystemRandomNumberGenerator()
        let garbage = Data((0..<4096).map { _ in UInt8.random(in: 0...0xFE, using: &generator) })
        XCTAssertEqual(reason { try processor.metadata(of: garbage) }, "not an image (unknown format)")
    }

    func testGarbageBehindARealSignatureIsCorrupt() {
        let signatures: [(Data, String)] = [
            (Data([0xFF, 0xD8, 0xFF, 0xE0]), "JPEG"),
            (Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "PNG"),
            (Data("GIF89a".utf8), "GIF"),
            (Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), "WEBP"),
        ]
        for (signature, name) in signatures {
            let data = signature + Data(repeating: 0x41, count: 3)
            let message = reason { try processor.metadata(of: data) }
            XCTAssertTrue(message?.hasPrefix("corrupt or truncated \(name) data") == true, "\(name): \(message ?? "no error")")
        }
    }

    func testTruncatedJPEGThrowsInsteadOfReturningGreyRows() throws {
        let jpeg = try ImagingFixtures.image(width: 400, height: 300, rectangles: [(0, 0, 400, 150, ImagingFixtures.red)])
            .encoded(as: .jpeg, quality: 90)
        let truncated = jpeg.prefix(jpeg.count * 6 / 10)
        XCTAssertNoThrow(try processor.metadata(of: truncated), "the header is intact")
        let message = renditionReason(truncated)
        XCTAssertTrue(message?.hasPrefix("corrupt or truncated JPEG data") == true, message ?? "no error")
        // Missing only the end-of-image marker is still a truncation libjpeg-turbo warns about.
        XCTAssertNotNil(renditionReason(jpeg.dropLast(2) + Data([0x00])))
    }

    func testTruncatedPNGGIFAndWebPThrow() throws {
        let image = try ImagingFixtures.image(width: 300, height: 200, rectangles: (0..<20).map { index in
            (index * 15, index * 10, 9, 90, (index * 12, 255 - index * 12, index * 40 % 256))
        })
        let avif = (try? image.encoded(as: .avif, quality: 60)) != nil ? [ImageFormat.avif] : []
        for format in [ImageFormat.png, .gif, .webp] + avif {
            let data = try image.encoded(as: format, quality: 90)
            XCTAssertNil(renditionReason(data), "\(format.rawValue) intact")
            let message = renditionReason(data.prefix(data.count / 2))
            XCTAssertTrue(message?.hasPrefix("corrupt or truncated \(format.rawValue.uppercased()) data") == true,
                          "\(format.rawValue): \(message ?? "no error")")
        }
    }

    func testDecodersStayQuietOnStderr() throws {
        // An ancillary chunk with a bad CRC: libpng warns about it on stderr by itself, because
        // libgd installs no warning handler. The control decode proves the fixture is noisy.
        let png = try ImagingFixtures.image(width: 32, height: 32).encoded(as: .png, quality: 100)
        var chunk = ImagingFixtures.pngChunk("tEXt", Data("Comment\u{0}hello".utf8))
        chunk[chunk.count - 1] ^= 0xFF
        let noisy = png.prefix(33) + chunk + png.dropFirst(33)
        let control = ImagingFixtures.standardError { _ = try? GDImage.decode(noisy, format: .png) }
        XCTAssertTrue(control.contains("CRC"), "control: \(control)")

        let output = try ImagingFixtures.standardError {
            XCTAssertEqual(try processor.renditions(of: noisy, metadata: processor.metadata(of: noisy), requests: [thumb]).count, 1)
            XCTAssertNotNil(renditionReason(png.prefix(png.count / 2)))
            XCTAssertNotNil(renditionReason(try ImagingFixtures.jpeg(width: 64, height: 64).prefix(300)))
            XCTAssertNil(try? GDImage.decode(Data("GIF89a....".utf8), format: .gif))
        }
        XCTAssertEqual(output, "")
    }

    func testPixelLimitIsCheckedBeforeAnyDecode() throws {
        // A JPEG whose frame header claims 60000x60000 and whose scan is garbage: if the limit
        // were checked after decoding, the error would be about corrupt data instead.
        var jpeg = try ImagingFixtures.jpeg(width: 16, height: 16)
        let sof = try XCTUnwrap(jpeg.range(of: Data([0xFF, 0xC0])) ?? jpeg.range(of: Data([0xFF, 0xC2])))
        let sizeOffset = sof.lowerBound + 5  // marker, length, precision, then height and width
        jpeg.replaceSubrange(sizeOffset..<(sizeOffset + 4), with: [0xEA, 0x60, 0xEA, 0x60])
        let sos = try XCTUnwrap(jpeg.range(of: Data([0xFF, 0xDA])))
        let bomb = jpeg.prefix(sos.upperBound + 20) + Data(repeating: 0x55, count: 100)
        let expected = "60000x60000 pixels is over the limit of 100000000"
        XCTAssertEqual(reason { try processor.metadata(of: bomb) }, expected)
        XCTAssertEqual(renditionReason(bomb), expected)

        // PNG: IHDR says 50000x40000; the rest of the file is a few bytes.
        var png = try ImagingFixtures.image(width: 8, height: 8).encoded(as: .png, quality: 100)
        png.replaceSubrange(16..<24, with: ImagingFixtures.bigEndian32(50_000) + ImagingFixtures.bigEndian32(40_000))
        // PNG and GIF are decoded whole: the lower limit of such formats applies.
        let whole = "over the limit of 40000000 for images decoded whole (fullDecodePixelLimit)"
        XCTAssertEqual(renditionReason(png.prefix(64)), "50000x40000 pixels is \(whole)")

        // GIF: a 65535x65535 logical screen.
        var gif = try ImagingFixtures.image(width: 8, height: 8).encoded(as: .gif, quality: 100)
        gif.replaceSubrange(6..<10, with: [0xFF, 0xFF, 0xFF, 0xFF])
        XCTAssertEqual(renditionReason(gif), "65535x65535 pixels is \(whole)")
    }

    func testACustomPixelLimitApplies() throws {
        let small = ImageProcessor(pixelLimit: 1000)
        let jpeg = try ImagingFixtures.jpeg(width: 40, height: 25)
        XCTAssertNoThrow(try small.metadata(of: jpeg), "exactly at the limit")
        let big = try ImagingFixtures.jpeg(width: 40, height: 26)
        XCTAssertEqual(reason { try ImageProcessor(pixelLimit: 1000).metadata(of: big) }, "40x26 pixels is over the limit of 1000")
    }

    func testInvalidRequestsAreRefusedWithTheirName() throws {
        let jpeg = try ImagingFixtures.jpeg(width: 40, height: 30)
        let metadata = try processor.metadata(of: jpeg)
        let bad = RenditionRequest(name: "thumb", width: 64, height: 64, fit: .inside, format: .webp, quality: 0)
        XCTAssertEqual(reason { try processor.renditions(of: jpeg, metadata: metadata, requests: [bad]) },
                       "invalid rendition request 'thumb' (quality must be 1...100)")
        let empty = RenditionRequest(name: "screen", width: 0, height: 64, fit: .inside, format: .jpeg, quality: 80)
        XCTAssertEqual(reason { try processor.renditions(of: jpeg, metadata: metadata, requests: [empty]) },
                       "invalid rendition request 'screen' (width must be positive)")
        XCTAssertEqual(try processor.renditions(of: jpeg, metadata: metadata, requests: []).count, 0)
    }

    func testDamagedFilesThrowOrRenderButNeverCrash() throws {
        let image = try ImagingFixtures.image(width: 96, height: 64, rectangles: [(10, 10, 40, 30, ImagingFixtures.red)])
        let exif = ExifWriter().ascii(EXIF_TAG_ARTIST, "Someone").short(EXIF_TAG_ORIENTATION, 6).block()
        let originals = [
            ImagingFixtures.insertingExif(exif, into: try image.encoded(as: .jpeg, quality: 90)),
            try image.encoded(as: .png, quality: 100), try image.encoded(as: .gif, quality: 100),
            try image.encoded(as: .webp, quality: 80),
        ]
        var generator = SplitMix64(42)
        var outcomes = (rendered: 0, refused: 0)
        let output = ImagingFixtures.standardError {
            for original in originals {
                for round in 0..<60 {
                    var damaged = original
                    if round % 3 == 0 {
                        damaged = damaged.prefix(Int.random(in: 1..<damaged.count, using: &generator))
                    }
                    for _ in 0..<(1 + round % 4) {
                        let index = damaged.startIndex + Int.random(in: 0..<damaged.count, using: &generator)
                        damaged[index] = UInt8.random(in: 0...255, using: &generator)
                    }
                    if renditionReason(damaged) == nil {
                        outcomes.rendered += 1
                    } else {
                        outcomes.refused += 1
                    }
                    _ = try? processor.metadata(of: damaged)
                }
            }
        }
        XCTAssertEqual(output, "", "no C library may print about damaged files")
        XCTAssertGreaterThan(outcomes.refused, 0)
        XCTAssertEqual(outcomes.rendered + outcomes.refused, originals.count * 60)
    }

    func testErrorsDescribeThemselvesByTheirReason() {
        let error = ImagingError(reason: "corrupt or truncated JPEG data")
        XCTAssertEqual("\(error)", "corrupt or truncated JPEG data")
        XCTAssertEqual(error, ImagingError.corrupt(.jpeg))
    }
}

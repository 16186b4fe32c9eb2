import CExif
import CJPEG
@testable import FolioCore
@testable import FolioImaging
@testable import FolioModel
import FolioTestSupport
import Foundation
import XCTest


final class ImagingRenditionTests: XCTestCase {
    private let processor = ImageProcessor()

    private func inside(_ name: String, _ width: Int, _ height: Int, format: EncodedFormat = .jpeg, quality: Int = 85) -> RenditionRequest {
        RenditionRequest(name: name, width: width, height: height, fit: .inside, format: format, quality: quality)
    }

    private func square(_ name: String, _ side: Int, format: EncodedFormat = .jpeg) -> RenditionRequest {
        RenditionRequest(name: name, width: side, height: side, fit: .squareCrop, format: format, quality: 85)
    }

    private func run(_ data: Data, _ requests: [RenditionRequest], reuse: Bool = true) throws -> ImageProcessor.RenditionRun {
        let metadata = try processor.metadata(of: data)
        return try processor.makeRenditions(of: data, metadata: metadata, requests: requests, reuseRenditions: reuse)
    }

    // MARK: Shrink-on-load

    func testShrinkOnLoadPicksTheSmallestScaleThatStillCoversTheLargestRendition() throws {
        let jpeg = try ImagingFixtures.jpeg(width: 1600, height: 1200)
        // 400x300 is exactly 1/4; 1/8 (200x150) would be too small.
        let quarter = try run(jpeg, [inside("thumb", 400, 400)])
        XCTAssertEqual(quarter.decodeScale, ScalingFactor(num: 1, denom: 4))
        XCTAssertEqual([quarter.decodedWidth, quarter.decodedHeight], [400, 300])
        // 500 wide needs 1/2 (800x600): 1/4 gives only 400, and 3/8 is slower to decode than 1/2.
        let half = try run(jpeg, [inside("thumb", 400, 400), inside("screen", 500, 500)])
        XCTAssertEqual(half.decodeScale, ScalingFactor(num: 1, denom: 2))
        XCTAssertEqual([half.decodedWidth, half.decodedHeight], [800, 600])
        XCTAssertEqual(half.renditions.map { [$0.width, $0.height] }, [[400, 300], [500, 375]])
        // Asking for more than the photo has decodes at full size, never above.
        let full = try run(jpeg, [inside("huge", 4000, 4000)])
        XCTAssertEqual(full.decodeScale, .one)
        XCTAssertEqual([full.renditions[0].width, full.renditions[0].height], [1600, 1200])
    }

    func testShrinkOnLoadAccountsForTheOrientationAxisSwap() throws {
        // Stored 1600x800, shown 800x1600: a 400x400 box needs 200x400 upright, so the stored
        // width (which becomes the height) must reach 400: 1/4. Ignoring the swap would pick 1/2.
        let exif = ExifWriter().short(EXIF_TAG_ORIENTATION, 6).block()
        let jpeg = try ImagingFixtures.jpeg(width: 1600, height: 800, exif: exif)
        let result = try run(jpeg, [inside("thumb", 400, 400)])
        XCTAssertEqual(result.decodeScale, ScalingFactor(num: 1, denom: 4))
        XCTAssertEqual([result.decodedWidth, result.decodedHeight], [200, 400])
        XCTAssertEqual([result.renditions[0].width, result.renditions[0].height], [200, 400])
    }

    func testShrinkOnLoadForASquareCropNeedsTheShortSide() throws {
        let jpeg = try ImagingFixtures.jpeg(width: 1600, height: 1200)
        // A 350 square needs a short side of 350: 1/2 (600), as 1/4 gives 300.
        XCTAssertEqual(try run(jpeg, [square("thumb", 350)]).decodeScale, ScalingFactor(num: 1, denom: 2))
        // Fitting inside 350x350 needs only 350x263: 1/4 (400x300) will do.
        XCTAssertEqual(try run(jpeg, [inside("thumb", 350, 350)]).decodeScale, ScalingFactor(num: 1, denom: 4))
    }

    func testDecodeScaleChoiceIsPureArithmetic() {
        let plan = RenditionPlan(geometries: [RenditionGeometry(width: 400, height: 300, cropsToSquare: false)])
        let scale = plan.decodeScale(storedWidth: 4000, storedHeight: 3000, orientation: .up, factors: TurboJPEGDecoder.scalingFactors)
        XCTAssertEqual(scale, ScalingFactor(num: 1, denom: 8), "4000/8 = 500 >= 400")
        XCTAssertEqual(Set(TurboJPEGDecoder.scalingFactors), [ScalingFactor(num: 1, denom: 1), ScalingFactor(num: 1, denom: 2),
                                                              ScalingFactor(num: 1, denom: 4), ScalingFactor(num: 1, denom: 8)],
                       "only the factors with SIMD inverse DCTs")
    }

    // MARK: Resampling

    /// The resampler against bilinear interpolation worked out in floating point, on noise (the
    /// hardest case for a rounding slip), at sizes that take every path: odd widths (the SIMD
    /// loop's tail), one-pixel rows and columns, and the pass-through of an exact source row.
    func testBilinearMatchesAFloatingPointReference() {
        var random = SplitMix64(42)
        for (from, to) in [((400, 300), (320, 240)), ((301, 7), (173, 5)), ((1, 40), (1, 23)), ((40, 1), (23, 1)), ((9, 9), (5, 5))] {
            let source = PixelBuffer(width: from.0, height: from.1) { pixels in
                for i in 0..<(from.0 * from.1) { pixels[i] = UInt32(truncatingIfNeeded: random.next()) }
            }
            let result = source.resampled(toWidth: to.0, height: to.1)
            XCTAssertEqual([result.width, result.height], [to.0, to.1])
            func position(_ i: Int, _ from: Int, _ to: Int) -> (base: Int, fraction: Double) {
                let centre = max(0, min(Double(from - 1), (Double(i) + 0.5) * Double(from) / Double(to) - 0.5))
                let base = min(Int(centre), max(from - 2, 0))
                return (base, centre - Double(base))
            }
            var worst = 0
            for y in 0..<to.1 {
                let (row, fy) = position(y, from.1, to.1)
                for x in 0..<to.0 {
                    let (column, fx) = position(x, from.0, to.0)
                    for shift: UInt32 in [0, 8, 16] {
                        func value(_ x: Int, _ y: Int) -> Double {
                            Double(source.words[min(y, from.1 - 1) * from.0 + min(x, from.0 - 1)] >> shift & 0xFF)
                        }
                        let top = value(column, row) * (1 - fx) + value(column + 1, row) * fx
                        let bottom = value(column, row + 1) * (1 - fx) + value(column + 1, row + 1) * fx
                        let expected = top * (1 - fy) + bottom * fy
                        let actual = Int(result.words[y * to.0 + x] >> shift & 0xFF)
                        worst = max(worst, abs(actual - Int(expected.rounded())))
                    }
                }
            }
            XCTAssertLessThanOrEqual(worst, 2, "\(from) to \(to): weights in 1/256 and two roundings, nothing more")
        }
    }

    // MARK: Geometry

    func testInsideKeepsTheAspectRatioAndNeverUpscales() throws {
        let jpeg = try ImagingFixtures.jpeg(width: 1600, height: 1200)
        let result = try run(jpeg, [inside("wide", 400, 1000), inside("tall", 1000, 150), inside("big", 3000, 3000)])
        XCTAssertEqual(result.renditions.map { [$0.width, $0.height] }, [[400, 300], [200, 150], [1600, 1200]])
        let small = try ImagingFixtures.image(width: 100, height: 50).encoded(as: .png, quality: 100)
        XCTAssertEqual(try run(small, [inside("screen", 400, 400)]).renditions.map { [$0.width, $0.height] }, [[100, 50]])
    }

    func testSquareCropIsSquareAndCentred() throws {
        // Thirds across: red | green | blue. The centred square is all green.
        let wide = try ImagingFixtures.image(width: 600, height: 200, rectangles: [
            (0, 0, 200, 200, ImagingFixtures.red), (200, 0, 200, 200, ImagingFixtures.green),
            (400, 0, 200, 200, ImagingFixtures.blue),
        ]).encoded(as: .jpeg, quality: 95)
        let tall = try ImagingFixtures.image(width: 200, height: 600, rectangles: [
            (0, 0, 200, 200, ImagingFixtures.red), (0, 200, 200, 200, ImagingFixtures.green),
            (0, 400, 200, 200, ImagingFixtures.blue),
        ]).encoded(as: .png, quality: 100)
        for data in [wide, tall] {
            let rendition = try run(data, [square("thumb", 100)]).renditions[0]
            XCTAssertEqual([rendition.width, rendition.height], [100, 100])
            let image = try ImagingFixtures.decode(rendition.bytes)
            for (x, y) in [(3, 3), (96, 3), (3, 96), (96, 96), (50, 50)] {
                ImagingFixtures.assertColour(image, x: x, y: y, is: ImagingFixtures.green)
            }
        }
    }

    func testSquareCropOfASmallPhotoIsItsShortSide() throws {
        let png = try ImagingFixtures.image(width: 80, height: 60).encoded(as: .png, quality: 100)
        let rendition = try run(png, [square("thumb", 100)]).renditions[0]
        XCTAssertEqual([rendition.width, rendition.height], [60, 60])
    }

    func testResultsComeInRequestOrder() throws {
        let jpeg = try ImagingFixtures.jpeg(width: 800, height: 600)
        let requests = [square("thumb", 50), inside("screen", 400, 400), inside("small", 100, 100, format: .webp)]
        let renditions = try processor.renditions(of: jpeg, metadata: processor.metadata(of: jpeg), requests: requests)
        XCTAssertEqual(renditions.map(\.request), requests)
        XCTAssertEqual(renditions.map { [$0.width, $0.height] }, [[50, 50], [400, 300], [100, 75]])
    }

    // MARK: Reuse of renditions

    func testSmallRenditionsAreMadeFromTheLargestAndLookTheSame() throws {
        // A detailed photo-like fixture: a real seed photo when available, else stripes.
        let jpeg = try ImagingFixtures.image(width: 2000, height: 1500, rectangles: (0..<100).map { index in
            (index * 20, (index * 37) % 1400, 7, 100, (index * 50 % 256, index * 90 % 256, index * 130 % 256))
        }).encoded(as: .jpeg, quality: 92)
        let requests = [inside("screen", 1600, 1600), inside("thumb", 400, 400), square("square", 300)]
        let reused = try run(jpeg, requests)
        XCTAssertEqual(reused.sources, [nil, 0, 0], "thumb and square come from the 1600px screen rendition")
        let direct = try run(jpeg, requests, reuse: false)
        XCTAssertEqual(direct.sources, [nil, nil, nil])
        for index in 1...2 {
            let a = try ImagingFixtures.decode(reused.renditions[index].bytes)
            let b = try ImagingFixtures.decode(direct.renditions[index].bytes)
            XCTAssertEqual([a.width, a.height], [b.width, b.height])
            var total = 0
            for y in 0..<a.height {
                for x in 0..<a.width {
                    let p = a.colour(x: x, y: y), q = b.colour(x: x, y: y)
                    total += abs(p.red - q.red) + abs(p.green - q.green) + abs(p.blue - q.blue)
                }
            }
            let meanDifference = Double(total) / Double(a.width * a.height * 3)
            XCTAssertLessThan(meanDifference, 2.0, "\(requests[index].name): reusing must be no worse")
        }
    }

    func testARenditionIsNotMadeFromOneLessThanTwiceItsSize() throws {
        let jpeg = try ImagingFixtures.jpeg(width: 1000, height: 1000)
        let result = try run(jpeg, [inside("a", 600, 600), inside("b", 400, 400), inside("c", 200, 200)])
        XCTAssertEqual(result.sources, [nil, nil, 1], "600 is not 2x 400; 400 is the smallest at 2x 200")
    }

    // MARK: Encoding

    func testJPEGRenditionsAreDCFirstProgressiveWithTheRequestedQuality() throws {
        let photo = try ImagingFixtures.image(width: 600, height: 400, rectangles: (0..<30).map { index in
            (index * 20, index * 13, 11, 200, (index * 80 % 256, 255 - index * 8, index * 8))
        }).encoded(as: .png, quality: 100)
        let requests = [inside("high", 600, 600, quality: 95), inside("low", 600, 600, quality: 30), inside("thumb", 300, 300),
                        inside("just over", 400, 400)]
        let all = try run(photo, requests).renditions
        // 300×200 is a thumbnail, whole at once: one scan, its tables optimised for it.
        let thumb = try XCTUnwrap(all.first { $0.request.name == "thumb" })
        XCTAssertEqual([thumb.width, thumb.height], [300, 200])
        XCTAssertTrue(ImagingFixtures.jpegMarkers(thumb.bytes).contains(0xC0), "SOF0: one sequential scan")
        XCTAssertFalse(ImagingFixtures.jpegMarkers(thumb.bytes).contains(0xC2), "not progressive")
        XCTAssertEqual(ImagingFixtures.jpegScans(thumb.bytes).map(\.components), [3])
        let renditions = all.filter { $0.request.name != "thumb" }
        for rendition in renditions {
            XCTAssertTrue(rendition.bytes.starts(with: [0xFF, 0xD8, 0xFF]))
            let markers = ImagingFixtures.jpegMarkers(rendition.bytes)
            XCTAssertTrue(markers.contains(0xC2), "SOF2: progressive")
            XCTAssertFalse(markers.contains(0xC0), "no baseline frame")
            let scans = ImagingFixtures.jpegScans(rendition.bytes)
            XCTAssertEqual(scans.map(\.components), [3, 1, 1, 1], "the DC of all components, then one scan each")
            XCTAssertEqual(scans.map(\.start), [0, 1, 1, 1])
            XCTAssertEqual(scans.map(\.end), [0, 63, 63, 63])
        }
        XCTAssertGreaterThan(renditions[0].bytes.count, renditions[1].bytes.count * 3 / 2)
    }

    func testDCFirstAndOneScanAreLosslessRearrangementsOfBaselineAndSmaller() throws {
        let pixels = try ImagingFixtures.decode(SamplePhoto(width: 640, height: 480, seed: 7).jpeg())
        let baseline = try JPEGEncoder.encode(pixels, quality: 82, layout: .baseline)
        let dcFirst = try JPEGEncoder.encode(pixels, quality: 82, layout: .dcFirst)
        // One scan with optimised tables: the same pixels as both, smaller than the standard tables.
        let oneScan = try JPEGEncoder.encode(pixels, quality: 82, layout: .oneScan)
        XCTAssertEqual(ImagingFixtures.jpegScans(oneScan).count, 1)
        XCTAssertLessThan(oneScan.count, baseline.count, "its own tables beat the standard ones")
        XCTAssertTrue(try TurboJPEGDecoder().decode(oneScan, scale: .one).words == TurboJPEGDecoder().decode(baseline, scale: .one).words)
        XCTAssertTrue(ImagingFixtures.jpegMarkers(baseline).contains(0xC0), "SOF0: baseline")
        XCTAssertEqual(ImagingFixtures.jpegScans(baseline).count, 1)
        XCTAssertLessThan(dcFirst.count, baseline.count, "optimised Huffman tables beat the standard ones")
        // Same quantised coefficients, only ordered and coded differently: the very same pixels.
        let decoder = try TurboJPEGDecoder()
        let fromBaseline = try decoder.decode(baseline, scale: .one), fromDCFirst = try decoder.decode(dcFirst, scale: .one)
        XCTAssertEqual([fromDCFirst.width, fromDCFirst.height], [640, 480])
        XCTAssertTrue(fromBaseline.words.map { $0 & 0xFF_FFFF } == fromDCFirst.words.map { $0 & 0xFF_FFFF })
        // And close to what went in.
        var error = 0
        for (before, after) in zip(pixels.words, fromDCFirst.words) {
            let green = (Int(before >> 8 & 0xFF), Int(after >> 8 & 0xFF))
            error += abs(green.0 - green.1)
        }
        XCTAssertLessThan(Double(error) / Double(pixels.words.count), 4, "mean green error under 4 levels")
    }

    /// The baseline file read back and written again with tables optimised from its symbols.
    func reoptimised(_ baseline: Data) -> Data? {
        baseline.withUnsafeBytes { bytes -> Data? in
            var size = 0
            guard let output = folio_huffman_optimise(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &size) else { return nil }
            defer { free(output) }
            return Data(bytes: output, count: size)
        }
    }

    /// One scan is written with the standard tables, read back, and written again with tables
    /// optimised from its symbols: the very file libjpeg's own optimisation writes, for photos
    /// of every size a thumbnail has (one pixel up), every quality, noise, flat colour, and a
    /// colour profile.
    func testOneScanIsLibjpegsOwnOptimisedFileByteForByte() throws {
        var images: [(String, PixelBuffer)] = []
        for name in ["hubble_deep_field.jpg", "retina.jpg", "rocket.jpg"] {
            let photo = try ImageProcessor().pixels(of: Data(contentsOf: TestSite.repository.appendingPathComponent("content/cc0/\(name)")))
            for width in [1, 7, 16, 17, 120, 160, 300] {
                let height = max(1, photo.height * width / photo.width)
                images.append(("\(name) at \(width)x\(height)", photo.resampled(toWidth: width, height: height)))
            }
        }
        images.append(("a library photo", try ImagingFixtures.decode(SamplePhoto(width: 160, height: 120, seed: 11).jpeg())))
        images.append(("flat grey", PixelBuffer(width: 33, height: 17) { $0.initialize(repeating: 0x808080, count: 33 * 17) }))
        var random = SplitMix64(21)
        let noise = (0..<(64 * 48)).map { _ in UInt32(truncatingIfNeeded: random.next()) & 0xFF_FFFF }
        images.append(("noise", PixelBuffer(width: 64, height: 48) { $0.initialize(from: noise, count: noise.count) }))
        var compared = 0
        for (name, image) in images {
            for quality in [1, 30, 82, 95, 100] {
                let baseline = try JPEGEncoder.encode(image, quality: quality, layout: .baseline)
                let libjpeg = try JPEGEncoder.encode(image, quality: quality, layout: .oneScanByLibjpeg)
                let optimised = try XCTUnwrap(reoptimised(baseline), "\(name) q\(quality): read back")
                XCTAssertEqual(optimised, libjpeg, "\(name) q\(quality): \(optimised.count) bytes, libjpeg's \(libjpeg.count)")
                XCTAssertEqual(try JPEGEncoder.encode(image, quality: quality, layout: .oneScan), libjpeg, "\(name) q\(quality)")
                compared += 1
            }
        }
        XCTAssertEqual(compared, 24 * 5)
        let profile = Data((0..<3_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let small = images[4].1
        XCTAssertEqual(try JPEGEncoder.encode(small, quality: 82, layout: .oneScan, profile: profile),
                       try JPEGEncoder.encode(small, quality: 82, layout: .oneScanByLibjpeg, profile: profile))
        XCTAssertNotNil(reoptimised(try JPEGEncoder.encode(small, quality: 82, layout: .baseline, profile: profile)))
    }

    /// What it cannot read back it refuses (and the encoder has libjpeg optimise): any file cut
    /// short or with a byte changed, a progressive one, none; never a crash.
    func testAFileItCannotReadBackIsRefusedNeverACrash() throws {
        let image = try ImagingFixtures.decode(SamplePhoto(width: 48, height: 40, seed: 5).jpeg())
        let baseline = try JPEGEncoder.encode(image, quality: 82, layout: .baseline)
        XCTAssertNil(reoptimised(Data()))
        XCTAssertNil(reoptimised(try JPEGEncoder.encode(image, quality: 82, layout: .dcFirst)), "progressive")
        for length in 0..<baseline.count - 2 {
            XCTAssertNil(reoptimised(baseline.prefix(length)), "cut to \(length) bytes")
        }
        var random = SplitMix64(8)
        var refused = 0
        for _ in 0..<3_000 {
            var damaged = baseline
            let at = Int(random.next() % UInt64(damaged.count))
            damaged[at] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            if let rewritten = reoptimised(damaged) {
                XCTAssertEqual(Array(rewritten.prefix(2)), [0xFF, 0xD8])
            } else {
                refused += 1
            }
        }
        XCTAssertGreaterThan(refused, 100, "damage is found")
    }

    func testAJPEGThatOutgrowsItsFirstBufferIsWholeAndRight() throws {
        // The encoder's buffer starts at a quarter byte per pixel and doubles; at quality 100 a
        // real photo takes several bytes a pixel. The rest of the file once landed at the wrong
        // offset, and a quality-100 rendition came out in blocks of wrong colour.
        let photo = try Data(contentsOf: TestSite.repository.appendingPathComponent("content/cc0/rocket.jpg"))
        let pixels = try ImageProcessor().pixels(of: photo)
        for layout in [JPEGEncoder.Layout.baseline, .dcFirst, .oneScan] {
            let jpeg = try JPEGEncoder.encode(pixels, quality: 100, layout: layout)
            XCTAssertGreaterThan(jpeg.count, 2 * (pixels.width * pixels.height / 4 + 4096), "\(layout): the buffer grew twice")
            let decoded = try TurboJPEGDecoder().decode(jpeg, scale: .one)
            let errors = try XCTUnwrap(PhotoTools.meanError(pixels, decoded))
            // 4:2:0 alone costs this photo's blues 3 levels; a misplaced tail cost 9 and more.
            XCTAssertTrue(errors.allSatisfy { $0 < 4 }, "\(layout): mean error per channel \(errors)")
        }
    }

    func testAnEncoderErrorIsReportedNotFatal() throws {
        let tooWide = PixelBuffer(width: 70_000, height: 1) { $0.initialize(repeating: 0x336699, count: 70_000) }
        XCTAssertThrowsError(try JPEGEncoder.encode(tooWide, quality: 80, layout: .dcFirst)) { error in
            XCTAssertTrue("\(error)".contains("70000x1"), "\(error)")
            XCTAssertTrue("\(error)".contains("65500"), "libjpeg's own reason: \(error)")
        }
        // The process goes on encoding.
        XCTAssertNoThrow(try JPEGEncoder.encode(PixelBuffer(width: 8, height: 8) { $0.initialize(repeating: 0, count: 64) },
                                                quality: 80, layout: .baseline))
    }

    func testWebPOutputIsRIFFWebP() throws {
        let jpeg = try ImagingFixtures.jpeg(width: 300, height: 200)
        let renditions = try run(jpeg, [inside("a", 150, 150, format: .webp, quality: 90), inside("b", 150, 150, format: .webp, quality: 10)]).renditions
        for rendition in renditions {
            XCTAssertEqual(Array(rendition.bytes.prefix(4)), Array("RIFF".utf8))
            XCTAssertEqual(Array(rendition.bytes.dropFirst(8).prefix(4)), Array("WEBP".utf8))
            XCTAssertEqual(try processor.metadata(of: rendition.bytes), ImageMetadata(format: .webp, width: 150, height: 100))
        }
        XCTAssertEqual(EncodedFormat.webp.fileExtension, "webp")
        XCTAssertEqual(EncodedFormat.jpeg.fileExtension, "jpg")
    }

    func testPublishedFilesCarryNoExifOrGPS() throws {
        let exif = ExifWriter()
            .ascii(EXIF_TAG_ARTIST, "Private Person")
            .short(EXIF_TAG_ORIENTATION, 3)
            .ascii(ExifWriter.gps(EXIF_TAG_GPS_LATITUDE_REF), "N", ifd: EXIF_IFD_GPS)
            .rationals(ExifWriter.gps(EXIF_TAG_GPS_LATITUDE), [(48, 1), (51, 1), (29, 1)], ifd: EXIF_IFD_GPS)
            .block()
        let jpeg = try ImagingFixtures.jpeg(width: 320, height: 240, exif: exif)
        XCTAssertTrue(ImagingFixtures.jpegMarkers(jpeg).contains(0xE1), "the source does carry EXIF")
        XCTAssertNotNil(try processor.metadata(of: jpeg).latitude)
        let renditions = try run(jpeg, [inside("screen", 200, 200), inside("webp", 200, 200, format: .webp)]).renditions
        let published = renditions[0].bytes
        XCTAssertFalse(ImagingFixtures.jpegMarkers(published).contains(0xE1), "no APP1 segment")
        XCTAssertFalse(ImagingFixtures.jpegMarkers(published).contains(0xFE), "no comment segment")
        XCTAssertNil(published.range(of: Data("gd-jpeg".utf8)))
        XCTAssertNil(published.range(of: Data("Exif".utf8)))
        XCTAssertNil(renditions[1].bytes.range(of: Data("EXIF".utf8)))
        XCTAssertNil(renditions[1].bytes.range(of: Data("Private Person".utf8)))
        let reread = try processor.metadata(of: published)
        XCTAssertNil(reread.latitude)
        XCTAssertNil(reread.artist)
        XCTAssertEqual(reread.orientation, 1, "upright pixels, so no orientation left to apply")
    }

    // MARK: Sources other than plain JPEG

    func testPNGGIFAndWebPSourcesRender() throws {
        let image = try ImagingFixtures.image(width: 240, height: 160, rectangles: [(0, 0, 60, 60, ImagingFixtures.red)])
        for format in [ImageFormat.png, .gif, .webp] {
            let data = try image.encoded(as: format, quality: 95)
            let rendition = try run(data, [inside("t", 120, 120)]).renditions[0]
            XCTAssertEqual([rendition.width, rendition.height], [120, 80], format.rawValue)
            ImagingFixtures.assertColour(try ImagingFixtures.decode(rendition.bytes), x: 10, y: 10, is: ImagingFixtures.red, format.rawValue)
        }
    }

    func testTransparencyIsFlattenedOntoWhite() throws {
        let png = try ImagingFixtures.halfTransparentPNG(width: 100, height: 100, right: ImagingFixtures.blue)
        let rendition = try run(png, [inside("t", 100, 100)]).renditions[0]
        let output = try ImagingFixtures.decode(rendition.bytes)
        ImagingFixtures.assertColour(output, x: 20, y: 50, is: (255, 255, 255), tolerance: 8)
        ImagingFixtures.assertColour(output, x: 80, y: 50, is: ImagingFixtures.blue)
    }

    func testCMYKJPEGDecodesWithAdobeInvertedInks() throws {
        let jpeg = try ImagingFixtures.cmykJPEG(width: 64, height: 48, cyan: 255, magenta: 0, yellow: 0, black: 0)
        let rendition = try run(jpeg, [inside("t", 32, 32)]).renditions[0]
        XCTAssertEqual([rendition.width, rendition.height], [32, 24])
        ImagingFixtures.assertColour(try ImagingFixtures.decode(rendition.bytes), x: 16, y: 12, is: (0, 255, 255), tolerance: 12)
    }

    func testGreyscaleJPEGDecodes() throws {
        let jpeg = try ImagingFixtures.greyJPEG(width: 40, height: 20, level: 200)
        let rendition = try run(jpeg, [inside("t", 20, 20)]).renditions[0]
        XCTAssertEqual([rendition.width, rendition.height], [20, 10])
        ImagingFixtures.assertColour(try ImagingFixtures.decode(rendition.bytes), x: 10, y: 5, is: (200, 200, 200), tolerance: 4)
    }
}

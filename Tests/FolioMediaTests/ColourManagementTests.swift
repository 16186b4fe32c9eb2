@testable import FolioCore
@testable import FolioImaging
@testable import FolioMedia
import FolioTestSupport
import Foundation
import XCTest


/// Colour-managed renditions, with real profiles from Debian's packages (colord-data's Adobe RGB,
/// ghostscript's CMYK and grey) and reference conversions by Little CMS's own tools (transicc,
/// jpgicc, of liblcms2-utils), judged by CIEDE2000.
final class ColourManagementTests: XCTestCase {
    static let icc = URL(fileURLWithPath: "/usr/share/color/icc")
    static let adobeRGB = icc.appendingPathComponent("colord/AdobeRGB1998.icc")
    static let cmykProfile = icc.appendingPathComponent("ghostscript/default_cmyk.icc")
    static let greyProfile = icc.appendingPathComponent("ghostscript/ps_gray.icc")
    static let sRGBProfile = icc.appendingPathComponent("colord/sRGB.icc")

    /// Saturated and subtle colours, a skin tone, greys: 4 x 2 patches of 64 pixels.
    static let patches: [Canvas.Colour] = [
        (200, 40, 40), (40, 160, 60), (30, 60, 190), (230, 200, 60),
        (210, 160, 130), (128, 128, 128), (20, 20, 20), (240, 240, 240),
    ]
    static let patchSize = 64

    let processor = ImageProcessor()
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-colour-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: The metric

    /// Table 1 of Sharma, Wu and Dalal, "The CIEDE2000 color-difference formula: implementation
    /// notes, supplementary test data, and mathematical observations" (2005): all 34 pairs.
    func testDeltaE2000MatchesThePublishedTestData() {
        let pairs: [(CIELab, CIELab, Double)] = [
            ((50.0000, 2.6772, -79.7751), (50.0000, 0.0000, -82.7485), 2.0425),
            ((50.0000, 3.1571, -77.2803), (50.0000, 0.0000, -82.7485), 2.8615),
            ((50.0000, 2.8361, -74.0200), (50.0000, 0.0000, -82.7485), 3.4412),
            ((50.0000, -1.3802, -84.2814), (50.0000, 0.0000, -82.7485), 1.0000),
            ((50.0000, -1.1848, -84.8006), (50.0000, 0.0000, -82.7485), 1.0000),
            ((50.0000, -0.9009, -85.5211), (50.0000, 0.0000, -82.7485), 1.0000),
            ((50.0000, 0.0000, 0.0000), (50.0000, -1.0000, 2.0000), 2.3669),
            ((50.0000, -1.0000, 2.0000), (50.0000, 0.0000, 0.0000), 2.3669),
            ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0009), 7.1792),
            ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0010), 7.1792),
            ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0011), 7.2195),
            ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0012), 7.2195),
            ((50.0000, -0.0010, 2.4900), (50.0000, 0.0009, -2.4900), 4.8045),
            ((50.0000, -0.0010, 2.4900), (50.0000, 0.0010, -2.4900), 4.8045),
            ((50.0000, -0.0010, 2.4900), (50.0000, 0.0011, -2.4900), 4.7461),
            ((50.0000, 2.5000, 0.0000), (50.0000, 0.0000, -2.5000), 4.3065),
            ((50.0000, 2.5000, 0.0000), (73.0000, 25.0000, -18.0000), 27.1492),
            ((50.0000, 2.5000, 0.0000), (61.0000, -5.0000, 29.0000), 22.8977),
            ((50.0000, 2.5000, 0.0000), (56.0000, -27.0000, -3.0000), 31.9030),
            ((50.0000, 2.5000, 0.0000), (58.0000, 24.0000, 15.0000), 19.4535),
            ((50.0000, 2.5000, 0.0000), (50.0000, 3.1736, 0.5854), 1.0000),
            ((50.0000, 2.5000, 0.0000), (50.0000, 3.2972, 0.0000), 1.0000),
            ((50.0000, 2.5000, 0.0000), (50.0000, 1.8634, 0.5757), 1.0000),
            ((50.0000, 2.5000, 0.0000), (50.0000, 3.2592, 0.3350), 1.0000),
            ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
            ((63.0109, -31.0961, -5.8663), (62.8187, -29.7946, -4.0864), 1.2630),
            ((61.2901, 3.7196, -5.3901), (61.4292, 2.2480, -4.9620), 1.8731),
            ((35.0831, -44.1164, 3.7933), (35.0232, -40.0716, 1.5901), 1.8645),
            ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
            ((36.4612, 47.8580, 18.3852), (36.2715, 50.5065, 21.2231), 1.4146),
            ((90.8027, -2.0831, 1.4410), (91.1528, -1.6435, 0.0447), 1.4441),
            ((90.9257, -0.5406, -0.9208), (88.6381, -0.8985, -0.7239), 1.5381),
            ((6.7747, -0.2908, -2.4247), (5.8714, -0.0985, -2.2286), 0.6377),
            ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
        ].map { (CIELab(L: $0.0.0, a: $0.0.1, b: $0.0.2), CIELab(L: $0.1.0, a: $0.1.1, b: $0.1.2), $0.2) }
        XCTAssertEqual(pairs.count, 34)
        for (index, (first, second, expected)) in pairs.enumerated() {
            XCTAssertEqual(first.difference2000(to: second), expected, accuracy: 0.0001, "pair \(index + 1)")
            XCTAssertEqual(second.difference2000(to: first), expected, accuracy: 0.0001, "pair \(index + 1), swapped")
        }
        XCTAssertEqual(CIELab(sRGB: 255, 255, 255).L, 100, accuracy: 0.01)
        XCTAssertEqual(CIELab(sRGB: 119, 119, 119).L, 50, accuracy: 0.1)
    }

    // MARK: Converted to sRGB

    /// The issue's photo: a saturated red of (200, 40, 40) in Adobe RGB, and the rest of the chart.
    func testAdobeRGBChartIsConvertedToSRGB() throws {
        let jpeg = ICCProfileEmbedding.jpeg(try chart(), profile: try Data(contentsOf: Self.adobeRGB))
        let metadata = try processor.metadata(of: jpeg)
        XCTAssertEqual(metadata.colour, .rgbProfile)
        XCTAssertNil(metadata.colourProblem)
        try assertConverted(jpeg, profile: Self.adobeRGB)
    }

    func testDisplayP3ChartIsConvertedToSRGB() throws {
        let profile = ImageProcessor.displayP3Profile
        XCTAssertLessThan(profile.count, 1024, "a compact profile")
        let file = folder.appendingPathComponent("p3.icc")
        try profile.write(to: file)
        let jpeg = ICCProfileEmbedding.jpeg(try chart(), profile: profile)
        XCTAssertEqual(try processor.metadata(of: jpeg).colour, .rgbProfile)
        try assertConverted(jpeg, profile: file)
    }

    /// A camera set to Adobe RGB embeds no profile: EXIF ColorSpace "uncalibrated" and the
    /// interoperability index "R03" say it.
    func testAdobeRGBByExifAloneIsConverted() throws {
        let file = folder.appendingPathComponent("camera.jpg")
        try chart().write(to: file)
        try ExifTool.write([("ExifIFD:ColorSpace", "Uncalibrated"), ("InteropIFD:InteropIndex", "R03")], to: file)
        let jpeg = try Data(contentsOf: file)
        XCTAssertEqual(try processor.metadata(of: jpeg).colour, .adobeRGB)
        try assertConverted(jpeg, profile: Self.adobeRGB)

        try ExifTool.write([("ExifIFD:ColorSpace", "sRGB"), ("InteropIFD:InteropIndex", "R98")], to: file)
        XCTAssertEqual(try processor.metadata(of: Data(contentsOf: file)).colour, .sRGB, "an sRGB camera file")
    }

    /// PNG's iCCP is zlib-compressed: exiftool writes it as Photoshop would.
    func testPNGProfileIsInflatedAndApplied() throws {
        let file = folder.appendingPathComponent("chart.png")
        try chartCanvas().encoded(as: .png, quality: 100).write(to: file)
        try ExifTool.run(["-overwrite_original", "-q", "-ICC_Profile<=\(Self.adobeRGB.path)", file.path])
        let png = try Data(contentsOf: file)
        XCTAssertNotNil(png.range(of: Data("iCCP".utf8)))
        XCTAssertEqual(try processor.metadata(of: png).colour, .rgbProfile)
        try assertConverted(png, profile: Self.adobeRGB)
    }

    /// AVIF carries a profile in a `colr` box; libheif's heif-enc writes the PNG's there.
    func testAVIFProfileIsRead() throws {
        let png = folder.appendingPathComponent("chart.png"), avif = folder.appendingPathComponent("chart.avif")
        try chartCanvas().encoded(as: .png, quality: 100).write(to: png)
        try ExifTool.run(["-overwrite_original", "-q", "-ICC_Profile<=\(Self.adobeRGB.path)", png.path])
        try run("/usr/bin/heif-enc", ["-A", "-q", "95", png.path, "-o", avif.path])
        let data = try Data(contentsOf: avif)
        XCTAssertEqual(ICCProfileReader.read(data, format: .avif), .profile(try Data(contentsOf: Self.adobeRGB)))
        XCTAssertEqual(try processor.metadata(of: data).colour, .rgbProfile)
        // Converted: the red patch comes out redder than its Adobe RGB numbers say.
        let made = patchMeans(try render(data, metadata: processor.metadata(of: data)))
        let numbers = patchMeans(try processor.pixels(of: data))
        XCTAssertGreaterThan(made[0].0, numbers[0].0 + 20)
        assertClose(made, try transicc(numbers, from: Self.adobeRGB), within: 2)
    }

    // MARK: sRGB untouched

    func testSRGBTaggedFileComesOutBitForBitAsAnUntaggedOne() throws {
        let plain = try chart()
        let tagged = ICCProfileEmbedding.jpeg(plain, profile: try Data(contentsOf: Self.sRGBProfile))
        let metadata = try processor.metadata(of: tagged)
        XCTAssertEqual(metadata.colour, .sRGB, "an sRGB profile is sRGB, whatever it is called")
        let requests = [RenditionRequest(name: "s", width: 200, height: 200, fit: .inside, format: .jpeg, quality: 90),
                        RenditionRequest(name: "t", width: 64, height: 64, fit: .squareCrop, format: .webp, quality: 80)]
        for setting in ColourSetting.allCases {
            let processor = ImageProcessor(colour: setting)
            XCTAssertEqual(try processor.renditions(of: tagged, metadata: metadata, requests: requests).map(\.bytes),
                           try processor.renditions(of: plain, metadata: processor.metadata(of: plain), requests: requests).map(\.bytes))
        }
    }

    // MARK: CMYK and grey

    /// A print export: jpgicc separates the chart into ghostscript's CMYK, Adobe-inverted as
    /// Photoshop writes it, with the profile embedded; jpgicc again is the reference back to sRGB.
    func testCMYKWithItsProfileIsConvertedThroughIt() throws {
        let source = folder.appendingPathComponent("chart.jpg"), cmyk = folder.appendingPathComponent("cmyk.jpg")
        try chart().write(to: source)
        try run("/usr/bin/jpgicc", ["-o\(Self.cmykProfile.path)", "-e", "-t0", "-b", "-q98", source.path, cmyk.path])
        let data = try Data(contentsOf: cmyk)
        let metadata = try processor.metadata(of: data)
        XCTAssertEqual(metadata.colour, .cmykProfile)
        let reference = folder.appendingPathComponent("back.jpg")
        try run("/usr/bin/jpgicc", ["-t0", "-b", "-q100", cmyk.path, reference.path])
        let expected = patchMeans(try processor.pixels(of: Data(contentsOf: reference)))
        let made = patchMeans(try render(data, metadata: metadata))
        assertClose(made, expected, within: 2)
        // Not inverted, not garbled: the red patch is still red.
        XCTAssertGreaterThan(made[0].0, made[0].1 + 100)
    }

    func testCMYKWithoutAProfileComesOutRightNotInverted() throws {
        let source = folder.appendingPathComponent("chart.jpg"), cmyk = folder.appendingPathComponent("cmyk.jpg")
        try chart().write(to: source)
        try run("/usr/bin/jpgicc", ["-o\(Self.cmykProfile.path)", "-t0", "-b", "-q98", source.path, cmyk.path])
        let data = try Data(contentsOf: cmyk)
        let metadata = try processor.metadata(of: data)
        XCTAssertEqual(metadata.colour, .cmyk)
        let made = patchMeans(try render(data, metadata: metadata))
        let original = Self.patches.map { (Double($0.red), Double($0.green), Double($0.blue)) }
        // Plain inks are not the print profile: near, not exact; but every patch keeps its hue.
        for (index, (got, want)) in zip(made, original).enumerated() {
            let difference = lab(got).difference2000(to: lab(want))
            XCTAssertLessThan(difference, 25, "patch \(index): \(got) for \(want)")
        }
        XCTAssertGreaterThan(made[0].0, made[0].1 + 60, "red stays red")
        XCTAssertGreaterThan(made[2].2, made[2].0 + 60, "blue stays blue")
        XCTAssertLessThan(made[6].0, 90, "the dark patch stays dark")
    }

    func testGreyWithAProfileIsConvertedAndWithoutIsUntouched() throws {
        let source = folder.appendingPathComponent("chart.jpg"), grey = folder.appendingPathComponent("grey.jpg")
        try chart().write(to: source)
        try run("/usr/bin/jpgicc", ["-o\(Self.greyProfile.path)", "-e", "-t0", "-b", "-q98", source.path, grey.path])
        let data = try Data(contentsOf: grey)
        let metadata = try processor.metadata(of: data)
        XCTAssertEqual(metadata.colour, .greyProfile)
        let reference = folder.appendingPathComponent("back.jpg")
        try run("/usr/bin/jpgicc", ["-t0", "-b", "-q100", grey.path, reference.path])
        let expected = patchMeans(try processor.pixels(of: Data(contentsOf: reference)))
        let made = patchMeans(try render(data, metadata: metadata))
        assertClose(made, expected, within: 2)
        let raw = patchMeans(try processor.pixels(of: data))
        XCTAssertGreaterThan(lab(made[5]).difference2000(to: lab(raw[5])), 5, "the profile's curve was applied")

        let untagged = folder.appendingPathComponent("untagged.jpg")
        try run("/usr/bin/jpgicc", ["-o\(Self.greyProfile.path)", "-t0", "-b", "-q98", source.path, untagged.path])
        let plain = try Data(contentsOf: untagged)
        let plainMetadata = try processor.metadata(of: plain)
        XCTAssertEqual(plainMetadata.colour, .sRGB)
        assertClose(patchMeans(try render(plain, metadata: plainMetadata)), patchMeans(try processor.pixels(of: plain)), within: 0.5)
    }

    // MARK: Broken profiles

    func testBrokenProfilesAreReportedAndThePhotoIsTakenAsSRGB() throws {
        let plain = try chart()
        let profile = try Data(contentsOf: Self.adobeRGB)
        let half = profile.count / 2
        let cases: [(String, Data, String)] = [
            ("cut short", ICCProfileEmbedding.jpeg(plain, profile: profile.prefix(half)), "cut short"),
            ("a chunk missing", ICCProfileEmbedding.jpeg(plain, profile: profile, chunks: [(1, 2, profile.prefix(half))]),
             "missing chunk 2 of 2"),
            ("a chunk twice", ICCProfileEmbedding.jpeg(plain, profile: profile, chunks: [(1, 2, profile.prefix(half)), (1, 2, profile.prefix(half))]),
             "chunk 1 twice"),
            ("garbage", ICCProfileEmbedding.jpeg(plain, profile: Data(repeating: 0x41, count: 600)), "cut short"),
            ("not a profile", ICCProfileEmbedding.jpeg(plain, profile: Data([0, 0, 2, 0]) + Data(repeating: 7, count: 508)),
             "cannot be read"),
            ("a grey profile on RGB", ICCProfileEmbedding.jpeg(plain, profile: try Data(contentsOf: Self.greyProfile)),
             "for grey, its pixels are RGB"),
        ]
        let request = RenditionRequest(name: "s", width: 256, height: 256, fit: .inside, format: .jpeg, quality: 90)
        let expected = try processor.renditions(of: plain, metadata: processor.metadata(of: plain), requests: [request]).map(\.bytes)
        for (name, jpeg, problem) in cases {
            let metadata = try processor.metadata(of: jpeg)
            XCTAssertEqual(metadata.colour, .sRGB, name)
            XCTAssertTrue(metadata.colourProblem?.contains(problem) == true, "\(name): \(metadata.colourProblem ?? "no problem")")
            XCTAssertTrue(metadata.colourProblem?.hasSuffix("its colours are taken as sRGB") == true, name)
            XCTAssertEqual(try processor.renditions(of: jpeg, metadata: metadata, requests: [request]).map(\.bytes), expected, name)
        }
    }

    func testBrokenPNGProfileIsReported() throws {
        var png = try chartCanvas().encoded(as: .png, quality: 100)
        // An iCCP chunk whose zlib stream is junk, with a right CRC: it must fail at inflating.
        let body = Data("junk".utf8) + [0, 0] + Data([0x78, 0x9C, 0xFF, 0xFF, 0xFF, 0x00])
        let typeAndBody = Data("iCCP".utf8) + body
        var chunk = Data([0, 0, 0, UInt8(body.count)]) + typeAndBody
        let crc = CRC32.checksum(typeAndBody)
        chunk += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        png.insert(contentsOf: chunk, at: 33)  // after the signature and IHDR
        let metadata = try processor.metadata(of: png)
        XCTAssertEqual(metadata.colour, .sRGB)
        XCTAssertTrue(metadata.colourProblem?.contains("does not inflate") == true, metadata.colourProblem ?? "no problem")
    }

    func testInflatingStopsAtItsLimit() throws {
        // 1 MB of zeros deflates to about a kilobyte: a bomb in miniature.
        let file = folder.appendingPathComponent("zeros.png")
        try Canvas(width: 1024, height: 1024, background: (0, 0, 0)).encoded(as: .png, quality: 100).write(to: file)
        let idat = try XCTUnwrap(idat(Data(contentsOf: file)))
        XCTAssertThrowsError(try Inflater.inflate(idat, limit: 100_000)) { XCTAssertEqual($0 as? Inflater.Failure, .tooLarge) }
        XCTAssertGreaterThan(try Inflater.inflate(idat, limit: 8 << 20).count, 1_000_000)
        XCTAssertThrowsError(try Inflater.inflate(idat.prefix(idat.count / 2), limit: 8 << 20))
    }

    /// Through a whole build: the report names the file and says what was done; the photo is published.
    func testABuildReportsABrokenProfileAndPublishesThePhoto() async throws {
        let site = try TestSite()
        let profile = try Data(contentsOf: Self.adobeRGB)
        try site.write(ICCProfileEmbedding.jpeg(try chart(), profile: profile.prefix(1000)), to: "content/broken.jpg")
        try site.write(ICCProfileEmbedding.jpeg(try chart(), profile: profile), to: "content/adobe.jpg")
        let report = try await site.build()
        XCTAssertEqual(report.errors, [])
        XCTAssertEqual(report.warnings.map(\.path), ["content/broken.jpg"])
        XCTAssertTrue(report.warnings.first?.reason.contains("cut short") == true)
        XCTAssertTrue(site.exists("photos/\(try site.identifier("broken.jpg")).html"))
        let colours = try site.database.snapshot().photos.map { ($0.photo.source.text, $0.photo.colour) }
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: colours), ["content:adobe.jpg": .rgbProfile, "content:broken.jpg": .sRGB])
    }

    /// A site switching `colour` remakes the renditions of its wide-gamut photo only, and the
    /// pages then point at the new ones; the old ones go.
    func testSwitchingColourRemakesOnlyThePhotosItChanges() async throws {
        let site = try TestSite()
        try site.write(try chart(), to: "content/plain.jpg")
        try site.write(ICCProfileEmbedding.jpeg(try chart(), profile: try Data(contentsOf: Self.adobeRGB)), to: "content/adobe.jpg")
        let first = try await site.build()
        XCTAssertEqual(first.renditionsMade, 4, "a thumbnail and a screen rendition each (the chart is small)")
        func media() throws -> Set<String> {
            Set(try FileManager.default.contentsOfDirectory(atPath: site.publicFolder.appendingPathComponent("media").path))
        }
        let before = try media()
        try site.write(Data(#"{"colour": "keep"}"#.utf8), to: "folio.json")
        let second = try await site.build()
        XCTAssertEqual(second.errors, [])
        XCTAssertEqual(second.renditionsMade, 2, "the Adobe RGB photo's two")
        let after = try media()
        let checksum = { (path: String) in ContentHash.hex(try Data(contentsOf: site.content.appendingPathComponent(path))).prefix(16) }
        let plain = try checksum("plain.jpg"), adobe = try checksum("adobe.jpg")
        XCTAssertEqual(before.filter { $0.hasPrefix(plain) }, after.filter { $0.hasPrefix(plain) })
        XCTAssertTrue(before.filter { $0.hasPrefix(adobe) }.isDisjoint(with: after.filter { $0.hasPrefix(adobe) }))
        let page = try site.read("photos/\(try site.identifier("adobe.jpg")).html")
        for file in after.filter({ $0.hasPrefix(adobe) }) where file.contains("-screen-") {
            XCTAssertTrue(page.contains(file), "the page shows \(file)")
        }
    }

    // MARK: Keeping wide gamut

    func testKeepEmbedsTheSourceProfileInEveryRenditionAndTile() throws {
        let profile = ImageProcessor.adobeRGBProfile
        let jpeg = ICCProfileEmbedding.jpeg(try chart(), profile: profile)
        let keep = ImageProcessor(colour: .keep)
        let metadata = try keep.metadata(of: jpeg)
        var tiles: [Tile] = []
        let renditions = try keep.renditions(
            of: jpeg, metadata: metadata,
            requests: [RenditionRequest(name: "s", width: 200, height: 200, fit: .inside, format: .jpeg, quality: 95),
                       RenditionRequest(name: "w", width: 200, height: 200, fit: .inside, format: .webp, quality: 95)],
            tiles: TileRequest(coveredUpTo: 100)) { tiles.append($0) }
        XCTAssertFalse(tiles.isEmpty)
        for file in renditions.map(\.bytes) + tiles.map(\.bytes) {
            let format = try XCTUnwrap(ImageFormat(sniffing: file))
            XCTAssertEqual(ICCProfileReader.read(file, format: format), .profile(profile))
        }
        // The pixels are the source's own: Adobe RGB numbers, not converted ones.
        let kept = patchMeans(try processor.pixels(of: renditions[0].bytes), scale: 200.0 / 256)
        assertClose(kept, patchMeans(try processor.pixels(of: jpeg)), within: 1.5)
        // And both decode, with the profile read back as what they are.
        XCTAssertEqual(try keep.metadata(of: renditions[1].bytes).colour, .rgbProfile)
        let webp = try processor.pixels(of: renditions[1].bytes)
        XCTAssertEqual([webp.width, webp.height], [200, 100])
    }

    func testKeepConvertsLargeProfilesAndCMYKToCompactDisplayP3() throws {
        let jpeg = ICCProfileEmbedding.jpeg(try chart(), profile: try Data(contentsOf: Self.adobeRGB))
        let keep = ImageProcessor(colour: .keep)
        let request = RenditionRequest(name: "s", width: 256, height: 256, fit: .inside, format: .jpeg, quality: 95)
        let made = try keep.renditions(of: jpeg, metadata: keep.metadata(of: jpeg), requests: [request])[0].bytes
        XCTAssertEqual(ICCProfileReader.read(made, format: .jpeg), .profile(ImageProcessor.displayP3Profile))
        // Shown through its profile, it is the same colour as the sRGB conversion.
        let p3 = folder.appendingPathComponent("p3.icc")
        try ImageProcessor.displayP3Profile.write(to: p3)
        let shown = try transicc(patchMeans(try processor.pixels(of: made)), from: p3)
        let converted = patchMeans(try processor.pixels(of: processor.renditions(of: jpeg, metadata: processor.metadata(of: jpeg), requests: [request])[0].bytes))
        assertClose(shown, converted, within: 2)
    }

    // MARK: Settings and names

    func testTheColourSettingIsValidated() throws {
        let folder = self.folder!
        func load(_ json: String) throws -> SiteSettings {
            let file = folder.appendingPathComponent("folio.json")
            try Data(json.utf8).write(to: file)
            return try SiteSettings.load(from: file).settings
        }
        XCTAssertEqual(try load("{}").colour, .convert)
        XCTAssertEqual(try load(#"{"colour": "keep"}"#).colour, .keep)
        XCTAssertThrowsError(try load(#"{"colour": "vivid"}"#)) { error in
            XCTAssertTrue("\(error)".contains("'colour' must be \"convert\" or \"keep\""), "\(error)")
        }
        XCTAssertThrowsError(try load(#"{"colour": "keep", "format": "avif"}"#)) { error in
            XCTAssertTrue("\(error)".contains("'colour' \"keep\" needs format"), "\(error)")
        }
    }

    /// File names come from a table made once per set; each is still the hash of its spec, for
    /// every request of the set (twins and transparent ones too) in every colour, and for a
    /// request the table does not hold.
    func testRenditionNamesAreTheHashesOfTheirSpecs() {
        var settings = SiteSettings()
        settings.format = .webp
        for set in [RenditionSet(settings), RenditionSet(settings).keepingTransparency()] {
            var requests = set.withFallbacks(set.thumbnails + set.screens + set.rows)
            var odd = set.screens[0]
            odd.width = 777
            requests.append(odd)
            for request in requests {
                for colour in SourceColour.allCases {
                    let spec = ContentHash.hex(set.spec(request, colour: colour)).prefix(6)
                    XCTAssertEqual(set.fileName(request, checksum: "0123456789abcdef0123", colour: colour),
                                   "media/0123456789abcdef-\(request.name)-\(spec).\(request.format.fileExtension)")
                }
            }
        }
    }

    /// Switching `colour` renames (so remakes) exactly the renditions of photos it changes;
    /// sRGB photos keep the names they had before colour management existed.
    func testRenditionNamesFollowTheColourOnlyWhereItMatters() {
        var settings = SiteSettings()
        let convert = RenditionSet(settings)
        settings.colour = .keep
        let keep = RenditionSet(settings)
        let request = convert.screens[0]
        func name(_ set: RenditionSet, _ colour: SourceColour) -> String { set.fileName(request, checksum: "abc", colour: colour) }
        XCTAssertEqual(convert.spec(request, colour: .sRGB), RenditionSet.spec(request), "as before")
        XCTAssertEqual(name(convert, .sRGB), name(keep, .sRGB))
        XCTAssertEqual(name(convert, .cmyk), name(keep, .cmyk))
        XCTAssertEqual(name(convert, .greyProfile), name(keep, .greyProfile))
        XCTAssertNotEqual(name(convert, .sRGB), name(convert, .rgbProfile))
        for colour in [SourceColour.rgbProfile, .adobeRGB, .cmykProfile] {
            XCTAssertNotEqual(name(convert, colour), name(keep, colour))
        }
        let tiles = TileRequest(coveredUpTo: 1600)
        XCTAssertNotEqual(convert.tilesFolder(tiles, checksum: "abc", colour: .rgbProfile),
                          keep.tilesFolder(tiles, checksum: "abc", colour: .rgbProfile))
        XCTAssertEqual(convert.tilesFolder(tiles, checksum: "abc", colour: .sRGB), keep.tilesFolder(tiles, checksum: "abc", colour: .sRGB))
        XCTAssertTrue(Set(convert.thumbnailSpecs).isSuperset(of: convert.withFallbacks(convert.thumbnails).map(RenditionSet.spec)))
    }

    // MARK: Helpers

    func chartCanvas() -> Canvas {
        var canvas = Canvas(width: 4 * Self.patchSize, height: 2 * Self.patchSize)
        for (index, colour) in Self.patches.enumerated() {
            canvas.fill(x: index % 4 * Self.patchSize, y: index / 4 * Self.patchSize, width: Self.patchSize, height: Self.patchSize, colour)
        }
        return canvas
    }

    func chart() throws -> Data { try chartCanvas().encoded(as: .jpeg, quality: 100) }

    /// The chart through Folio at its own size (256 pixels wide), decoded again.
    func render(_ data: Data, metadata: ImageMetadata, with processor: ImageProcessor? = nil) throws -> PixelBuffer {
        let processor = processor ?? self.processor
        let request = RenditionRequest(name: "s", width: 256, height: 256, fit: .inside, format: .jpeg, quality: 100)
        return try self.processor.pixels(of: processor.renditions(of: data, metadata: metadata, requests: [request])[0].bytes)
    }

    /// Folio's conversion of `data` against transicc's of the same decoded numbers.
    func assertConverted(_ data: Data, profile: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let metadata = try processor.metadata(of: data)
        let source = patchMeans(try processor.pixels(of: data))
        let expected = try transicc(source, from: profile)
        let made = patchMeans(try render(data, metadata: metadata))
        assertClose(made, expected, within: 2, file: file, line: line)
        // A test that could not fail would pass here with the numbers untouched.
        let moved = zip(source, made).map { lab($0).difference2000(to: lab($1)) }.max() ?? 0
        XCTAssertGreaterThan(moved, 3, "the conversion changed the colours", file: file, line: line)
    }

    func assertClose(_ made: [RGB], _ expected: [RGB], within limit: Double, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(made.count, expected.count, file: file, line: line)
        for (index, (got, want)) in zip(made, expected).enumerated() {
            let difference = lab(got).difference2000(to: lab(want))
            XCTAssertLessThan(difference, limit, "patch \(index): \(got) against \(want)", file: file, line: line)
        }
    }

    typealias RGB = (Double, Double, Double)

    func lab(_ colour: RGB) -> CIELab { CIELab(sRGB: colour.0, colour.1, colour.2) }

    /// The mean colour of the middle of each patch (24 x 24 pixels, away from JPEG's edges).
    func patchMeans(_ pixels: PixelBuffer, scale: Double = 1) -> [RGB] {
        Self.patches.indices.map { index in
            let size = Double(Self.patchSize) * scale
            let centreX = Int((Double(index % 4) + 0.5) * size), centreY = Int((Double(index / 4) + 0.5) * size)
            let half = Int(size * 0.19)
            var sum = (0.0, 0.0, 0.0), count = 0.0
            for y in (centreY - half)..<(centreY + half) {
                for x in (centreX - half)..<(centreX + half) {
                    let word = pixels.words[y * pixels.width + x]
                    sum.0 += Double(word >> 16 & 0xFF)
                    sum.1 += Double(word >> 8 & 0xFF)
                    sum.2 += Double(word & 0xFF)
                    count += 1
                }
            }
            return (sum.0 / count, sum.1 / count, sum.2 / count)
        }
    }

    /// Little CMS's own calculator, in floating point: `colours` from `profile` to sRGB,
    /// perceptual with black-point compensation, clipped to what 8 bits hold.
    func transicc(_ colours: [RGB], from profile: URL) throws -> [RGB] {
        let input = colours.map { "\($0.0) \($0.1) \($0.2)" }.joined(separator: "\n") + "\n"
        let output = try run("/usr/bin/transicc", ["-i\(profile.path)", "-o*sRGB", "-t0", "-b", "-n"], input: input)
        let rows = output.split(separator: "\n").suffix(colours.count).map { line in
            line.split(separator: " ").compactMap { Double($0) }.map { min(max($0, 0), 255) }
        }
        XCTAssertEqual(rows.count, colours.count)
        return rows.map { ($0[0], $0[1], $0[2]) }
    }

    /// The image data of a PNG, for tests of inflating.
    func idat(_ png: Data) -> Data? {
        var offset = 8, found = Data()
        while offset + 8 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            if type == "IDAT" { found += png[offset + 8..<offset + 8 + length] }
            offset += 12 + length
        }
        return found.isEmpty ? nil : found
    }

    @discardableResult
    func run(_ tool: String, _ arguments: [String], input: String = "") throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let printed = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "\(tool) \(arguments) exited with \(process.terminationStatus)", code: 1)
        }
        return String(decoding: printed, as: UTF8.self)
    }
}

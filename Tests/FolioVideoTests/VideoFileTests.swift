import CSystem
@testable import FolioCore
@testable import FolioImaging
import FolioTestSupport
@testable import FolioVideo
import Foundation
import XCTest

/// The one owner of FFmpeg's libraries, on clips the ffmpeg command line made as phones write
/// them and on sigal's sample video: what the container says, the poster, the web video.
final class VideoFileTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Videos")
    /// sigal's own sample (tests/sample/pictures/video), public domain: Theora and Vorbis in Ogg.
    static let sigalVideo = fixtures.appendingPathComponent("example video.ogv")

    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-video-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func file(_ data: Data, _ name: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    func testTheContainerSaysWhenWhereHowLongAndWhat() throws {
        let clip = try VideoTools.clip(seconds: 2, tags: [
            "creation_time": "2021-07-04T10:20:30.000000Z", "location": "+48.8584+002.2945/", "title": "Tour Eiffel",
        ])
        let video = try VideoFile(url: try file(clip, "eiffel.mp4")).metadata
        XCTAssertEqual([video.width, video.height, video.rotation], [320, 240, 0])
        XCTAssertEqual(video.duration, 2, accuracy: 0.1)
        XCTAssertEqual(video.taken, LocalDateTime.date(from: "2021-07-04 10:20:30"))
        XCTAssertEqual(try XCTUnwrap(video.latitude), 48.8584, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(video.longitude), 2.2945, accuracy: 1e-6)
        XCTAssertEqual(video.title, "Tour Eiffel")
        XCTAssertEqual(video.videoCodec, "h264")
        XCTAssertEqual(video.audioCodec, "aac")
        // The same bytes in memory read the same.
        XCTAssertEqual(try VideoFile(data: clip).metadata, video)
    }

    /// An iPhone's keys: its local creation date over the UTC `creation_time`, its place, its make and model.
    func testApplesQuickTimeKeysAreRead() throws {
        let clip = try VideoTools.clip(seconds: 1, audio: false, tags: [
            "com.apple.quicktime.creationdate": "2019-06-15T10:11:12+0200", "creation_time": "2019-06-15T08:11:12Z",
            "com.apple.quicktime.location.ISO6709": "-33.8568+151.2153+005.000/",
            "com.apple.quicktime.make": "Apple", "com.apple.quicktime.model": "iPhone 12",
        ], fileExtension: "mov")
        let video = try VideoFile(url: try file(clip, "IMG_0100.MOV")).metadata
        XCTAssertEqual(video.taken, LocalDateTime.date(from: "2019-06-15 10:11:12"), "the local time, as a photo's EXIF date")
        XCTAssertEqual(try XCTUnwrap(video.latitude), -33.8568, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(video.longitude), 151.2153, accuracy: 1e-6)
        XCTAssertEqual(video.camera, "Apple iPhone 12")
    }

    func testISO6709PointsAsPhonesWriteThem() {
        XCTAssertEqual(ISO6709.coordinates("+48.8584+002.2945+035.000/")?.latitude, 48.8584)
        XCTAssertEqual(ISO6709.coordinates("-33.8568+151.2153/")?.longitude, 151.2153)
        XCTAssertEqual(ISO6709.coordinates("-33.8568-070.6483/")?.longitude, -70.6483)
        XCTAssertNil(ISO6709.coordinates("+00.0000+000.0000/"), "no fix is not Null Island")
        XCTAssertNil(ISO6709.coordinates("+95.0000+002.0000/"), "off the globe")
        XCTAssertNil(ISO6709.coordinates("+4851+00217/"), "sexagesimal forms are not read")
        XCTAssertNil(ISO6709.coordinates("Paris"))
        XCTAssertNil(ISO6709.coordinates(""))
    }

    /// A phone's portrait clip in HEVC, stored landscape and turned by its display matrix, that
    /// opens on a second of black: its poster is upright and a picture, as ffmpeg shows that frame.
    func testThePosterIsUprightAndNotTheBlackOpening() throws {
        let clip = try VideoTools.clip(codec: .hevc, seconds: 1, audio: false, blackSeconds: 1, rotation: 90, fileExtension: "mov")
        let video = try VideoFile(url: try file(clip, "IMG_0001.MOV"))
        XCTAssertEqual([video.metadata.width, video.metadata.height], [240, 320])
        XCTAssertTrue([90, 270].contains(video.metadata.rotation), "a quarter turn; which way, the frame ffmpeg shows says")
        XCTAssertEqual(video.metadata.videoCodec, "hevc")
        XCTAssertNil(video.metadata.audioCodec)
        let poster = try video.poster()
        XCTAssertEqual([poster.width, poster.height], [240, 320])
        XCTAssertGreaterThan(VideoFile.lumaSpread(poster), 30, "a picture, not the black opening")
        // The first frame after the black one second at 25 frames a second, as ffmpeg turns it.
        let reference = try ImageProcessor().pixels(of: try VideoTools.frame(25, of: clip, fileExtension: "mov"))
        XCTAssertEqual([reference.width, reference.height], [240, 320])
        XCTAssertLessThan(Self.meanDifference(poster, reference), 6)
    }

    func testAClipOfOneFrameAndOneWithoutSoundHaveTheirPoster() throws {
        let single = try VideoFile(url: try file(try VideoTools.clip(seconds: 1, frames: 1, audio: false), "one.mp4"))
        XCTAssertEqual([try single.poster().width, try single.poster().height], [320, 240])
        let out = folder.appendingPathComponent("one-web.mp4")
        try single.writeRendition(to: out, maxHeight: 1080, threads: 1)
        let probe = try VideoTools.probe(out)
        XCTAssertEqual(probe["video.codec_name"], "h264")
        XCTAssertEqual(probe["video.nb_frames"], "1")
        XCTAssertNil(probe["audio.codec_name"])
    }

    /// H.264 and AAC within the size are remuxed, not encoded again; nothing of the original's
    /// place, date or title goes with them.
    func testAPlayableVideoIsRemuxedWithoutItsMetadata() throws {
        let clip = try VideoTools.clip(tags: ["creation_time": "2021-07-04T10:20:30Z", "location": "+48.8584+002.2945/", "title": "Secret"])
        let video = try VideoFile(url: try file(clip, "clip.mp4"))
        XCTAssertTrue(video.playsOnTheWeb(maxHeight: 1080))
        let out = folder.appendingPathComponent("web.mp4")
        XCTAssertEqual(try video.writeRendition(to: out, maxHeight: 1080, threads: 1), .remuxed)
        let probe = try VideoTools.probe(out)
        XCTAssertEqual([probe["video.codec_name"], probe["audio.codec_name"]], ["h264", "aac"])
        XCTAssertEqual([probe["video.width"], probe["video.height"]], ["320", "240"])
        let published = try Data(contentsOf: out)
        for secret in ["Secret", "+48.8584", "2021-07-04"] {
            XCTAssertNil(published.range(of: Data(secret.utf8)), "\(secret) is not published")
        }
        XCTAssertTrue(probe.keys.filter { $0.hasPrefix("format.TAG:") && ($0.contains("location") || $0.contains("title")) }.isEmpty)
        // The index comes first (faststart): a browser plays before the whole file is in.
        let moov = try XCTUnwrap(published.range(of: Data("moov".utf8))), mdat = try XCTUnwrap(published.range(of: Data("mdat".utf8)))
        XCTAssertLessThan(moov.lowerBound, mdat.lowerBound)
    }

    /// HEVC, a portrait matrix and more than the maximum: encoded to H.264/AAC at the maximum
    /// short side, still turned by its matrix.
    func testAnOtherVideoIsEncodedDownToTheMaximumAndStaysUpright() throws {
        let clip = try VideoTools.clip(codec: .hevc, width: 640, height: 480, seconds: 1, rotation: 90, fileExtension: "mov")
        let video = try VideoFile(url: try file(clip, "IMG_2.MOV"))
        XCTAssertFalse(video.playsOnTheWeb(maxHeight: 1080))
        let out = folder.appendingPathComponent("web.mp4")
        XCTAssertEqual(try video.writeRendition(to: out, maxHeight: 240, threads: 2), .transcoded)
        let probe = try VideoTools.probe(out)
        XCTAssertEqual([probe["video.codec_name"], probe["video.pix_fmt"], probe["audio.codec_name"]], ["h264", "yuv420p", "aac"])
        XCTAssertEqual([probe["video.width"], probe["video.height"]], ["320", "240"], "stored landscape, short side 240")
        XCTAssertEqual(probe["video.rotation"], try VideoTools.probe(try file(clip, "IMG_2.MOV"))["video.rotation"],
                       "played turned as the original is")
        XCTAssertNotNil(probe["video.rotation"])
        XCTAssertEqual(Double(probe["format.duration"] ?? "") ?? 0, 1, accuracy: 0.15)
        let web = try VideoFile(url: out)
        XCTAssertEqual([web.metadata.width, web.metadata.height], [240, 320])
    }

    /// A shard on a machine of 2 cores and a build on one of 16 make the same web video.
    func testTheWebVideoIsTheSameBytesWhateverTheThreads() throws {
        let video = try VideoFile(url: try file(try VideoTools.clip(codec: .hevc, seconds: 1), "clip.mov"))
        let one = folder.appendingPathComponent("one.mp4"), many = folder.appendingPathComponent("many.mp4")
        try video.writeRendition(to: one, maxHeight: 1080, threads: 1)
        try video.writeRendition(to: many, maxHeight: 1080, threads: 8)
        XCTAssertEqual(try Data(contentsOf: one), try Data(contentsOf: many))
    }

    /// The web video is the same bytes whatever the process's memory held before: glibc fills
    /// each fresh block with a chosen byte, as a long-running process hands out what earlier work
    /// left. A frame 15 macroblocks wide leaves x264's AVX-512 macroblock-tree pass a last group
    /// of eight that runs past the row, into its buffers' padding; the encoder is made
    /// CPU-independent so that pass is x264's own C, which stops at the edge.
    func testTheWebVideoIsTheSameBytesWhateverTheMemoryHeld() throws {
        try XCTSkipIf(folio_perturb_memory(0) != 0, "only glibc's allocator fills what it hands out")
        let video = try VideoFile(url: try file(try VideoTools.clip(codec: .hevc, width: 240, height: 320, seconds: 1, audio: false), "clip.mov"))
        var made: [Int32: Data] = [:]
        for byte: Int32 in [0, 0x01, 0x55, 0xAA] {
            let out = folder.appendingPathComponent("web-\(byte).mp4")
            XCTAssertEqual(folio_perturb_memory(byte), 0)
            defer { folio_perturb_memory(0) }
            try video.writeRendition(to: out, maxHeight: 1080, threads: 2)
            made[byte] = try Data(contentsOf: out)
        }
        for byte: Int32 in [0x01, 0x55, 0xAA] {
            XCTAssertEqual(made[byte], made[0], "fresh memory filled with \(0xFF ^ byte)")
        }
    }

    /// A camcorder's anamorphic frame (240x240 stored, its pixels 4:3) is shown, postered and
    /// published 320x240 with square pixels.
    func testAnAnamorphicFrameIsAsWideAsItIsShown() throws {
        let clip = try VideoTools.clip(width: 240, height: 240, seconds: 1, audio: false, pixelAspect: "4/3", fileExtension: "mts")
        let video = try VideoFile(url: try file(clip, "00001.MTS"))
        XCTAssertEqual([video.metadata.width, video.metadata.height], [320, 240])
        XCTAssertEqual([try video.poster().width, try video.poster().height], [320, 240])
        XCTAssertFalse(video.playsOnTheWeb(maxHeight: 1080), "encoded again with square pixels")
        let out = folder.appendingPathComponent("web.mp4")
        try video.writeRendition(to: out, maxHeight: 1080, threads: 1)
        let probe = try VideoTools.probe(out)
        XCTAssertEqual([probe["video.width"], probe["video.height"]], ["320", "240"])
        XCTAssertEqual(probe["video.sample_aspect_ratio"], "1:1")
    }

    func testSigalsSampleOGVIsReadAndPublishedAsH264() throws {
        let video = try VideoFile(url: Self.sigalVideo)
        XCTAssertEqual([video.metadata.width, video.metadata.height], [240, 98])
        XCTAssertEqual(video.metadata.videoCodec, "theora")
        XCTAssertEqual(video.metadata.audioCodec, "vorbis")
        XCTAssertEqual(video.metadata.duration, 10, accuracy: 0.1)
        XCTAssertGreaterThan(VideoFile.lumaSpread(try video.poster()), 12)
        let out = folder.appendingPathComponent("web.mp4")
        XCTAssertEqual(try video.writeRendition(to: out, maxHeight: 1080, threads: 2), .transcoded)
        let probe = try VideoTools.probe(out)
        XCTAssertEqual([probe["video.codec_name"], probe["audio.codec_name"]], ["h264", "aac"])
        XCTAssertEqual([probe["video.width"], probe["video.height"]], ["240", "98"])
        XCTAssertEqual(Double(probe["format.duration"] ?? "") ?? 0, 10, accuracy: 0.2)
    }

    /// Damage and bombs are refused with a reason, never a crash.
    func testDamagedVideosAndBombsAreRefusedWithAReason() throws {
        let clip = try VideoTools.clip(seconds: 1)
        func reason(_ body: () throws -> Void) -> String {
            do {
                try body()
                return "no error"
            } catch let error as ImagingError {
                return error.reason
            } catch {
                return "\(error)"
            }
        }
        // Cut before its index: nothing to play.
        XCTAssertTrue(reason { _ = try VideoFile(data: clip.prefix(clip.count / 2)) }.hasPrefix("not a video Folio can read"),
                      reason { _ = try VideoFile(data: clip.prefix(clip.count / 2)) })
        XCTAssertEqual(reason { _ = try VideoFile(data: Data()) }, "not a video (empty file)")
        XCTAssertTrue(reason { _ = try VideoFile(data: Data(repeating: 0x41, count: 10_000)) }.hasPrefix("not a video Folio can read"))
        // Lists that would have FFmpeg open other files (a playlist, a concat script, an image
        // sequence's pattern) are not containers Folio reads: nothing outside the file is opened.
        for list in ["#EXTM3U\n#EXTINF:1,\nfile:///etc/passwd\n", "ffconcat version 1.0\nfile '/etc/passwd'\n"] {
            XCTAssertTrue(reason { _ = try VideoFile(url: try file(Data(list.utf8), "list.mp4")) }.hasPrefix("not a video Folio can read"),
                          reason { _ = try VideoFile(url: try file(Data(list.utf8), "list.mp4")) })
        }
        // A frame larger than the site allows is refused before any frame is decoded.
        XCTAssertEqual(reason { _ = try VideoFile(data: clip, pixelLimit: 10_000) }, "320x240 pixels is over the limit of 10000")
        // A Matroska header that claims 65535 pixels a side.
        let mkv = try VideoTools.clip(codec: .ffv1, seconds: 1, audio: false, fileExtension: "mkv")
        var bomb = mkv
        let width = try XCTUnwrap(bomb.range(of: Data([0xB0, 0x82, 0x01, 0x40])), "PixelWidth 320")
        bomb.replaceSubrange(width, with: [0xB0, 0x82, 0xFF, 0xFF])
        XCTAssertTrue(reason { _ = try VideoFile(data: bomb) }.contains("over the limit"), reason { _ = try VideoFile(data: bomb) })
        // One that claims to last a million hours.
        var long = mkv
        let duration = try XCTUnwrap(long.range(of: Data([0x44, 0x89, 0x88])), "Segment Duration, an 8-byte float")
        let hours: Double = 1e6 * 3600 * 1000
        long.replaceSubrange(duration.upperBound..<(duration.upperBound + 8), with: withUnsafeBytes(of: hours.bitPattern.bigEndian) { Data($0) })
        XCTAssertTrue(reason { _ = try VideoFile(data: long) }.contains("over the limit of 6"), reason { _ = try VideoFile(data: long) })
    }

    /// The mean difference of two pictures' channels (0-255), pixel for pixel.
    static func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        var total = 0
        for (p, q) in zip(a.words, b.words) {
            for shift in [0, 8, 16] as [UInt32] {
                total += abs(Int((p >> shift) & 0xFF) - Int((q >> shift) & 0xFF))
            }
        }
        return Double(total) / Double(a.words.count * 3)
    }
}

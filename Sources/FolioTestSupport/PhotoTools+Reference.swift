import FolioImaging
import Foundation
import XCTest

extension PhotoTools {
    /// Formats Pillow writes a photo in for `photo(from:width:height:format:)`.
    public enum PillowFormat: String, Sendable, CaseIterable {
        case png = "PNG", webp = "WEBP", tiff = "TIFF", avif = "AVIF"
    }

    /// A real photo file (`source`, any format Pillow reads) cropped to fill `width` x `height`
    /// and resampled (Lanczos), written by Pillow as `format` at quality 90 where it has one. What
    /// the reference comparisons start from: sizes a phone's crop or an export gives, not only
    /// multiples of 8 or 64. The source's colour profile goes with it only if `keepProfile`: a
    /// decoder is compared on its pixel values, colour management separately.
    public static func photo(
        from source: URL, width: Int, height: Int, format: PillowFormat, keepProfile: Bool = false
    ) throws -> Data {
        try inTemporaryFolder { folder in
            let output = folder.appendingPathComponent("photo.\(format.rawValue.lowercased())")
            try python("""
                import sys
                from PIL import Image, ImageOps
                source, output, width, height, kind, keep = sys.argv[1:7]
                original = Image.open(source)
                profile = original.info.get("icc_profile") if keep == "keep" else None
                image = ImageOps.fit(original.convert("RGB"), (int(width), int(height)), Image.LANCZOS)
                image.info.pop("icc_profile", None)
                options = {"quality": 90} if kind in ("WEBP", "AVIF") else {}
                if profile:
                    options["icc_profile"] = profile
                image.save(output, kind, **options)
                """, [source.path, output.path, "\(width)", "\(height)", format.rawValue, keepProfile ? "keep" : "strip"])
            return try Data(contentsOf: output)
        }
    }

    /// The file (PNG, WebP, TIFF, AVIF, JPEG...) decoded by Pillow, whose decoders are the
    /// formats' own libraries in other builds than the ones Folio links: the reference Folio's
    /// decode is compared with. Transparency, if any, is composed onto white, as Folio's
    /// decode does for what it does not publish with alpha.
    /// With `toSRGB`, converted from its embedded profile to sRGB by Pillow's Little CMS.
    public static func pillowPixels(of data: Data, toSRGB: Bool = false) throws -> PixelBuffer {
        try inTemporaryFolder { folder in
            let input = folder.appendingPathComponent("input"), output = folder.appendingPathComponent("pixels.rgb")
            try data.write(to: input)
            return try rawRGB(input, output, folder, toSRGB: toSRGB)
        }
    }

    /// A cut-out, as a designer exports one: the photo cropped to `width` x `height`, its left
    /// third fully transparent, the rest opaque, written by Pillow as PNG or WebP (lossless);
    /// with the photo's colour profile if `keepProfile`.
    public static func cutOut(from source: URL, width: Int, height: Int, format: PillowFormat, keepProfile: Bool = false) throws -> Data {
        try inTemporaryFolder { folder in
            let output = folder.appendingPathComponent("cut-out.\(format.rawValue.lowercased())")
            try python("""
                import sys
                from PIL import Image, ImageOps
                source, output, width, height, kind, keep = sys.argv[1:7]
                original = Image.open(source)
                image = ImageOps.fit(original.convert("RGB"), (int(width), int(height)), Image.LANCZOS)
                image.info.pop("icc_profile", None)
                alpha = Image.new("L", image.size, 255)
                alpha.paste(0, (0, 0, int(width) // 3, int(height)))
                image.putalpha(alpha)
                options = {"lossless": True} if kind == "WEBP" else {}
                if keep == "keep" and original.info.get("icc_profile"):
                    options["icc_profile"] = original.info["icc_profile"]
                image.save(output, kind, **options)
                """, [source.path, output.path, "\(width)", "\(height)", format.rawValue, keepProfile ? "keep" : "strip"])
            return try Data(contentsOf: output)
        }
    }

    /// An animated GIF of the photo, as a phone's or a web tool's export: `frames` frames of
    /// it, cropped to `width` x `height`, each lit differently, a tenth of a second apiece,
    /// looping, with a comment (the kind of text a published file should not carry).
    public static func animatedGIF(from source: URL, width: Int, height: Int, frames: Int, comment: String) throws -> Data {
        try animation(from: source, width: width, height: height, frames: frames, format: "GIF", comment: comment)
    }

    /// The same as an animated WebP (lossy), carrying EXIF (a camera make, `comment`) instead.
    public static func animatedWebP(from source: URL, width: Int, height: Int, frames: Int, comment: String) throws -> Data {
        try animation(from: source, width: width, height: height, frames: frames, format: "WEBP", comment: comment)
    }

    private static func animation(from source: URL, width: Int, height: Int, frames: Int, format: String, comment: String) throws -> Data {
        try inTemporaryFolder { folder in
            let output = folder.appendingPathComponent("animation.\(format.lowercased())")
            try python("""
                import sys
                from PIL import Image, ImageEnhance, ImageOps
                source, output, width, height, count, kind, comment = sys.argv[1:8]
                image = ImageOps.fit(Image.open(source).convert("RGB"), (int(width), int(height)), Image.LANCZOS)
                frames = [ImageEnhance.Brightness(image).enhance(0.6 + 0.3 * i) for i in range(int(count))]
                if kind == "GIF":
                    extra = {"comment": comment.encode()}
                else:
                    exif = Image.Exif()
                    exif[0x010F] = comment
                    extra = {"exif": exif, "quality": 90}
                frames[0].save(output, kind, save_all=True, append_images=frames[1:], duration=100, loop=0, **extra)
                """, [source.path, output.path, "\(width)", "\(height)", "\(frames)", format, comment])
            return try Data(contentsOf: output)
        }
    }

    /// What Pillow finds in an image file: its frames (1 for a still), a GIF's comment or the
    /// camera make in its EXIF, and its loop count.
    public static func frames(of data: Data) throws -> (count: Int, comment: String?, loop: Int?) {
        try inTemporaryFolder { folder in
            let input = folder.appendingPathComponent("input"), output = folder.appendingPathComponent("frames.txt")
            try data.write(to: input)
            try python("""
                import sys
                from PIL import Image
                source, output = sys.argv[1:3]
                image = Image.open(source)
                count = getattr(image, "n_frames", 1)
                comment = image.info.get("comment") or image.getexif().get(0x010F, "").encode()
                loop = image.info.get("loop")
                for index in range(count):
                    image.seek(index)
                    image.load()
                open(output, "w").write("%d\\n%s\\n%s" % (count, comment.decode() if comment else "", "" if loop is None else loop))
                """, [input.path, output.path])
            let lines = try String(contentsOf: output, encoding: .utf8).components(separatedBy: "\n")
            guard lines.count == 3, let count = Int(lines[0]) else { throw ToolError(description: "Pillow said \(lines)") }
            return (count, lines[1].isEmpty ? nil : lines[1], Int(lines[2]))
        }
    }

    /// The file decoded by Pillow as straight RGBA (opaque formats get alpha 255): what a browser
    /// composes onto the page. Each word is 0xAARRGGBB.
    public static func pillowRGBA(of data: Data) throws -> (width: Int, height: Int, words: [UInt32]) {
        try inTemporaryFolder { folder in
            let input = folder.appendingPathComponent("input"), output = folder.appendingPathComponent("pixels.rgba")
            let size = folder.appendingPathComponent("size.txt")
            try data.write(to: input)
            try python("""
                import sys
                from PIL import Image
                source, output, size = sys.argv[1:4]
                image = Image.open(source).convert("RGBA")
                open(output, "wb").write(image.tobytes())
                open(size, "w").write("%d %d" % image.size)
                """, [input.path, output.path, size.path])
            let sides = try String(contentsOf: size, encoding: .utf8).split(separator: " ").compactMap { Int($0) }
            let bytes = [UInt8](try Data(contentsOf: output))
            guard sides.count == 2, bytes.count == sides[0] * sides[1] * 4 else {
                throw ToolError(description: "Pillow wrote \(bytes.count) bytes for a \(sides) image")
            }
            let words = (0..<(sides[0] * sides[1])).map { (i: Int) -> UInt32 in
                let red = UInt32(bytes[4 * i]), green = UInt32(bytes[4 * i + 1]), blue = UInt32(bytes[4 * i + 2])
                return UInt32(bytes[4 * i + 3]) << 24 | red << 16 | green << 8 | blue
            }
            return (sides[0], sides[1], words)
        }
    }

    /// The HEIC decoded by libheif's own `heif-convert` (which applies the file's turn, mirror
    /// and crop), as Pillow reads the PNG it writes; with `toSRGB`, converted from the profile
    /// heif-convert carries over to sRGB by Pillow's Little CMS, as a published rendition is.
    public static func heifConvertPixels(of heic: Data, toSRGB: Bool = false) throws -> PixelBuffer {
        try inTemporaryFolder { folder in
            let input = folder.appendingPathComponent("photo.heic"), png = folder.appendingPathComponent("decoded.png")
            try heic.write(to: input)
            try run("heif-convert", ["--quiet", input.path, png.path])
            return try rawRGB(png, folder.appendingPathComponent("pixels.rgb"), folder, toSRGB: toSRGB)
        }
    }

    /// A PNG made with Pillow from the photo, turned into a HEIC by heif-enc: no EXIF, no turn;
    /// the photo's colour profile only if `keepProfile` (heif-enc copies it into `colr`).
    public static func heic(from source: URL, width: Int, height: Int, quality: Int = 90, keepProfile: Bool = false) throws -> Data {
        try heic(fromPNG: try photo(from: source, width: width, height: height, format: .png, keepProfile: keepProfile),
                 quality: quality)
    }

    /// The PNG as a HEIC by heif-enc; its alpha, if any, as the HEIC's alpha image.
    public static func heic(fromPNG png: Data, quality: Int = 90) throws -> Data {
        try heifEnc(png, named: "photo.png", quality: quality)
    }

    /// The mean absolute difference of each channel (red, green, blue) between two images of
    /// one size, in levels of 255; nil when their sizes differ.
    public static func meanError(_ a: PixelBuffer, _ b: PixelBuffer) -> [Double]? {
        guard a.width == b.width, a.height == b.height, !a.words.isEmpty else { return nil }
        var sums = [0, 0, 0]
        for (p, q) in zip(a.words, b.words) {
            for (channel, shift) in [16, 8, 0].enumerated() {
                sums[channel] += abs(Int(p >> UInt32(shift) & 0xFF) - Int(q >> UInt32(shift) & 0xFF))
            }
        }
        return sums.map { Double($0) / Double(a.words.count) }
    }

    /// Fails unless two images have one size and differ by at most `tolerance` levels of 255 per
    /// channel, averaged over the picture: what a decode is held to against a reference decoder.
    public static func assertClose(
        _ decoded: PixelBuffer, _ reference: PixelBuffer, tolerance: Double, _ label: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual([decoded.width, decoded.height], [reference.width, reference.height], label, file: file, line: line)
        guard let errors = meanError(decoded, reference) else { return }
        XCTAssertTrue(errors.allSatisfy { $0 <= tolerance },
                      "\(label): mean error per channel \(errors.map { String(format: "%.2f", $0) })", file: file, line: line)
    }

    private static func rawRGB(_ input: URL, _ output: URL, _ folder: URL, toSRGB: Bool) throws -> PixelBuffer {
        let size = folder.appendingPathComponent("size.txt")
        try python("""
            import io, sys
            from PIL import Image, ImageCms
            source, output, size, convert = sys.argv[1:5]
            original = Image.open(source)
            white = Image.new("RGBA", original.size, (255, 255, 255, 255))
            white.alpha_composite(original.convert("RGBA"))
            image = white.convert("RGB")
            profile = original.info.get("icc_profile")
            if convert == "srgb" and profile:
                image = ImageCms.profileToProfile(image, ImageCms.ImageCmsProfile(io.BytesIO(profile)),
                                                  ImageCms.createProfile("sRGB"), outputMode="RGB")
            open(output, "wb").write(image.tobytes())
            open(size, "w").write("%d %d" % image.size)
            """, [input.path, output.path, size.path, toSRGB ? "srgb" : "as-is"])
        let sides = try String(contentsOf: size, encoding: .utf8).split(separator: " ").compactMap { Int($0) }
        let bytes = [UInt8](try Data(contentsOf: output))
        guard sides.count == 2, bytes.count == sides[0] * sides[1] * 3 else {
            throw ToolError(description: "Pillow wrote \(bytes.count) bytes for a \(sides) image")
        }
        let words = (0..<(sides[0] * sides[1])).map { (i: Int) -> UInt32 in
            let red = UInt32(bytes[3 * i]), green = UInt32(bytes[3 * i + 1]), blue = UInt32(bytes[3 * i + 2])
            return red << 16 | green << 8 | blue
        }
        return PixelBuffer(width: sides[0], height: sides[1], words: words)
    }

    /// python3 with Pillow, which scripts/setup.sh installs (scripts/requirements-test.txt).
    static func python(_ script: String, _ arguments: [String]) throws {
        try run("python3", ["-c", script] + arguments)
    }
}

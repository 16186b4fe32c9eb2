import CGD
import CTurboJPEG
import FolioImaging
import Foundation
import XCTest


/// Real image files for the imaging tests, made with libgd, libjpeg, TurboJPEG and libexif at
/// test time.
package enum ImagingFixtures {
    package static let red = Canvas.red
    package static let green = Canvas.green
    package static let blue = Canvas.blue

    /// A grey picture with optional coloured rectangles on it.
    package static func image(
        width: Int, height: Int,
        rectangles: [(x: Int, y: Int, width: Int, height: Int, colour: Canvas.Colour)] = []
    ) throws -> Canvas {
        var canvas = Canvas(width: width, height: height)
        for rect in rectangles {
            canvas.fill(x: rect.x, y: rect.y, width: rect.width, height: rect.height, rect.colour)
        }
        return canvas
    }

    /// A PNG whose left half is fully transparent and whose right half is opaque `right`: drawn
    /// with libgd itself, since Folio's pixels carry no alpha.
    package static func halfTransparentPNG(width: Int, height: Int, right: Canvas.Colour) throws -> Data {
        let image = try XCTUnwrap(gdImageCreateTrueColor(Int32(width), Int32(height)))
        defer { gdImageDestroy(image) }
        gdImageAlphaBlending(image, 0)
        gdImageSaveAlpha(image, 1)
        gdImageFilledRectangle(image, 0, 0, Int32(width - 1), Int32(height - 1), folio_gd_true_color_alpha(0, 0, 0, 127))
        gdImageFilledRectangle(image, Int32(width / 2), 0, Int32(width - 1), Int32(height - 1),
                               folio_gd_true_color_alpha(Int32(right.red), Int32(right.green), Int32(right.blue), 0))
        var size: Int32 = 0
        let bytes = try XCTUnwrap(gdImagePngPtr(image, &size))
        defer { gdFree(bytes) }
        return Data(bytes: bytes, count: Int(size))
    }

    package static func jpeg(width: Int, height: Int, quality: Int = 90, exif: Data? = nil) throws -> Data {
        let data = try image(width: width, height: height).encoded(as: .jpeg, quality: quality)
        return exif.map { insertingExif($0, into: data) } ?? data
    }

    /// A JPEG with the APP1 segment spliced in right after SOI, where cameras put it.
    package static func insertingExif(_ block: Data, into jpeg: Data) -> Data {
        let length = block.count + 2
        var result = Data([0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)])
        result += block
        result += jpeg.dropFirst(2)
        return result
    }

    /// A PNG with an eXIf chunk (bare TIFF) inserted after IHDR.
    package static func insertingExif(_ block: Data, intoPNG png: Data) -> Data {
        let tiff = block.dropFirst(6)  // eXIf holds no "Exif\0\0" prefix
        let ihdrEnd = 8 + 25
        return png.prefix(ihdrEnd) + pngChunk("eXIf", Data(tiff)) + png.dropFirst(ihdrEnd)
    }

    package static func pngChunk(_ type: String, _ body: Data) -> Data {
        let typed = Data(type.utf8) + body
        return bigEndian32(body.count) + typed + bigEndian32(Int(CRC32.checksum(typed)))
    }

    /// An extended (VP8X) WebP carrying EXIF around the bitstream of a simple lossy WebP.
    package static func webpWithExif(_ block: Data, simple: Data, width: Int, height: Int) -> Data {
        let bitstream = simple.dropFirst(12)  // the "VP8 " chunk, header included
        var vp8x = Data("VP8X".utf8) + littleEndian32(10)
        vp8x += Data([0x08, 0, 0, 0]) + littleEndian24(width - 1) + littleEndian24(height - 1)
        var exifChunk = Data("EXIF".utf8) + littleEndian32(block.count - 6) + block.dropFirst(6)
        if exifChunk.count % 2 == 1 { exifChunk.append(0) }
        let body = Data("WEBP".utf8) + vp8x + bitstream + exifChunk
        return Data("RIFF".utf8) + littleEndian32(body.count) + body
    }

    /// A CMYK JPEG, inks stored inverted as Photoshop does (255 = no ink), filled with one colour.
    package static func cmykJPEG(width: Int, height: Int, cyan: Int, magenta: Int, yellow: Int, black: Int) throws -> Data {
        let pixel = [cyan, magenta, yellow, black].map { UInt8(255 - $0) }
        let pixels = [[UInt8]](repeating: pixel, count: width * height).flatMap { $0 }
        return try turboJPEG(pixels, width: width, height: height, format: TJPF_CMYK, subsampling: TJSAMP_444)
    }

    /// A single-channel JPEG, as scanners and black-and-white exports write.
    package static func greyJPEG(width: Int, height: Int, level: Int) throws -> Data {
        let pixels = [UInt8](repeating: UInt8(level), count: width * height)
        return try turboJPEG(pixels, width: width, height: height, format: TJPF_GRAY, subsampling: TJSAMP_GRAY)
    }

    private static func turboJPEG(_ pixels: [UInt8], width: Int, height: Int, format: TJPF, subsampling: TJSAMP) throws -> Data {
        let handle = try XCTUnwrap(tjInitCompress())
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = tjCompress2(handle, pixels, Int32(width), 0, Int32(height), Int32(format.rawValue),
                                 &output, &size, Int32(subsampling.rawValue), 95, 0)
        defer { tjFree(output) }
        XCTAssertEqual(status, 0)
        return Data(bytes: try XCTUnwrap(output), count: Int(size))
    }

    /// JPEG segments before the image data, by marker: lets tests see what a file carries.
    package static func jpegMarkers(_ data: Data) -> [UInt8] {
        let bytes = [UInt8](data)
        var markers: [UInt8] = []
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            markers.append(marker)
            if marker == 0xDA { break }
            offset += 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
        }
        return markers
    }

    /// Every scan of a JPEG, from its SOS headers: how many components it holds and the band of
    /// DCT coefficients (0 is DC, 1...63 AC). Walks the entropy-coded data between them.
    package static func jpegScans(_ data: Data) -> [(components: Int, start: Int, end: Int)] {
        let bytes = [UInt8](data)
        var scans: [(components: Int, start: Int, end: Int)] = []
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { offset += 1; continue }
            let marker = bytes[offset + 1]
            if marker == 0xD9 { break }
            if marker == 0x00 || marker == 0xFF || (0xD0...0xD7).contains(marker) { offset += 1; continue }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if marker == 0xDA {
                let components = Int(bytes[offset + 4])
                let spectral = offset + 5 + 2 * components
                scans.append((components, Int(bytes[spectral]), Int(bytes[spectral + 1])))
            }
            offset += 2 + length
        }
        return scans
    }

    /// Decoded by libgd (JPEG warnings are errors there): a check independent of the decoder
    /// the build uses.
    package static func decode(_ data: Data) throws -> PixelBuffer {
        try GDImage.decode(data, format: try XCTUnwrap(ImageFormat(sniffing: data))).pixels()
    }

    package static func assertColour(
        _ image: PixelBuffer, x: Int, y: Int, is expected: Canvas.Colour,
        tolerance: Int = 40, _ message: String = "", file: StaticString = #filePath, line: UInt = #line
    ) {
        let actual = image.colour(x: x, y: y)
        let close = abs(actual.red - expected.red) <= tolerance && abs(actual.green - expected.green) <= tolerance
            && abs(actual.blue - expected.blue) <= tolerance
        XCTAssertTrue(close, "pixel (\(x), \(y)) is \(actual), expected \(expected). \(message)", file: file, line: line)
    }

    /// What the process wrote to stderr (fd 2, where C libraries print) while `body` ran.
    /// A file rather than a pipe, so a chatty library cannot fill a pipe and hang the test.
    package static func standardError(during body: () throws -> Void) rethrows -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("folio-stderr-\(UUID().uuidString)")
        let capture = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { try? FileManager.default.removeItem(at: url) }
        fflush(nil)
        let saved = dup(STDERR_FILENO)
        dup2(capture, STDERR_FILENO)
        close(capture)
        defer {
            fflush(nil)
            dup2(saved, STDERR_FILENO)
            close(saved)
        }
        try body()
        fflush(nil)
        return (try? String(contentsOf: url, encoding: .utf8)) ?? "<unreadable>"
    }

    // MARK: Bytes

    package static func bigEndian32(_ value: Int) -> Data {
        Data([UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }

    package static func littleEndian32(_ value: Int) -> Data {
        Data([UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)])
    }

    static func littleEndian24(_ value: Int) -> Data {
        Data([UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)])
    }
}

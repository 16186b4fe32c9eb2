import CJPEG
import Foundation

/// JPEG from a PixelBuffer, through libjpeg's API (libjpeg-turbo's, with SIMD colour conversion
/// and DCT) by way of the small C file in Sources/CJPEG; the only code that calls it. TurboJPEG's
/// own compressor offers one progressive script, ten scans long, and no Huffman optimisation
/// without it; this encoder picks the scans.
enum JPEGEncoder {
    enum Layout {
        /// One scan, standard Huffman tables: the cheapest, for deep-zoom tiles, which are
        /// small, many, and fetched a few at a time.
        case baseline
        /// Progressive with four scans, for everything a visitor opens: the DC of all components
        /// first, so a browser paints a blurred whole picture at once, then each component's detail.
        /// Optimised Huffman tables make files as small as libjpeg's ten-scan script, in less time.
        case dcFirst
        /// One scan, Huffman tables optimised for it: for a small image, which arrives whole
        /// at once, so that painting it blurred first is moot. Written with the standard tables,
        /// then again with tables optimised from its own symbols.
        case oneScan
        /// The same file as `oneScan`, by libjpeg's own optimisation, which is slower.
        /// What `oneScan` falls back to for a file it cannot read back; tests hold it to this.
        case oneScanByLibjpeg
    }

    /// The largest image, in pixels, written in one scan (`oneScan`) rather than DC first: a
    /// thumbnail of up to 300×300 is a packet or two, whole at once, and one scan is as small and
    /// quicker to write. Larger renditions, a screen's, paint blurred first.
    static let oneScanPixels = 300 * 300

    /// How a rendition of `width`×`height` pixels is laid out.
    static func layout(width: Int, height: Int) -> Layout {
        width * height <= oneScanPixels ? .oneScan : .dcFirst
    }

    /// 4:2:0 like every camera; the X byte of each word is ignored. `profile`, an ICC profile,
    /// is written in APP2 chunks, as libjpeg splits it.
    static func encode(_ image: PixelBuffer, quality: Int, layout: Layout, profile: Data? = nil) throws -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        var message = [CChar](repeating: 0, count: 200)
        let profile = profile ?? Data()
        let status = image.words.withUnsafeBytes { pixels in
            profile.withUnsafeBytes { icc in
                folio_jpeg_encode(
                    pixels.bindMemory(to: UInt8.self).baseAddress, Int32(image.width), Int32(image.height),
                    Int32(min(max(quality, 1), 100)), layout.c,
                    icc.bindMemory(to: UInt8.self).baseAddress, UInt32(icc.count),
                    &output, &size, &message, message.count)
            }
        }
        defer { folio_jpeg_free(output) }
        guard status == 0, let output, size > 0 else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImagingError(reason: "could not encode \(image.width)x\(image.height) pixels as JPEG: \(reason)")
        }
        return Data(bytes: output, count: Int(size))
    }
}

extension JPEGEncoder.Layout {
    fileprivate var c: folio_jpeg_layout {
        switch self {
        case .baseline: return FOLIO_JPEG_BASELINE
        case .dcFirst: return FOLIO_JPEG_DC_FIRST
        case .oneScan: return FOLIO_JPEG_ONE_SCAN
        case .oneScanByLibjpeg: return FOLIO_JPEG_ONE_SCAN_BY_LIBJPEG
        }
    }
}

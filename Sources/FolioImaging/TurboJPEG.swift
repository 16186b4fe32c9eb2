import CTurboJPEG
import Foundation

/// libjpeg-turbo's TurboJPEG decompressor, the only code that calls TurboJPEG (encoding goes
/// through libjpeg's API in JPEGEncoder). It owns its tjhandle and destroys it in deinit. One
/// per decode: handles are cheap and not thread-safe.
final class TurboJPEGDecoder {
    private let handle: tjhandle

    init() throws {
        guard let handle = tjInitDecompress() else {
            throw ImagingError(reason: "could not start the JPEG decoder")
        }
        self.handle = handle
    }

    deinit {
        tjDestroy(handle)
    }

    /// The scales Folio decodes at: 1/1, 1/2, 1/4 and 1/8, those of libjpeg-turbo's factors with
    /// SIMD inverse DCTs. Its other factors (3/8, 5/8, 3/4, 7/8) run plain C and were slower than
    /// the next of these up.
    static let scalingFactors: [ScalingFactor] = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count), count > 0 else { return [.one] }
        let offered = (0..<Int(count)).map { ScalingFactor(num: Int(factors[$0].num), denom: Int(factors[$0].denom)) }
        return offered.filter { $0.num == 1 && [1, 2, 4, 8].contains($0.denom) }
    }()

    /// The stored size and colour channels (1 grey, 3 YCbCr or RGB, 4 CMYK or YCCK), from the
    /// frame header alone: no pixel is decoded.
    func header(of data: Data) throws -> (width: Int, height: Int, channels: Int) {
        let header = try readHeader(data)
        let channels = Self.isCMYK(header.colorspace) ? 4 : header.colorspace == Int32(TJCS_GRAY.rawValue) ? 1 : 3
        return (header.width, header.height, channels)
    }

    private static func isCMYK(_ colorspace: Int32) -> Bool {
        colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
    }

    /// Decodes at `scale`. Every warning is an error: libjpeg-turbo "recovers" from a truncated
    /// file by painting the missing rows grey, and Folio would rather report a broken photo
    /// than publish one. `colour` converts the pixels as they come out of the decoder, in the
    /// same buffer, so colour management costs no copy; a CMYK photo's transform must take
    /// inverted CMYK, and without one its inks are converted by themselves.
    package func decode(
        _ data: Data, scale: ScalingFactor, expecting stored: (width: Int, height: Int)? = nil, colour: ColourTransform? = nil
    ) throws -> PixelBuffer {
        let header = try readHeader(data)
        if let stored, stored != (header.width, header.height) {
            throw ImagingError.changed(expected: stored, found: (header.width, header.height))
        }
        let factor = tjscalingfactor(num: Int32(scale.num), denom: Int32(scale.denom))
        let width = Int(folio_tj_scaled(Int32(header.width), factor))
        let height = Int(folio_tj_scaled(Int32(header.height), factor))
        let isCMYK = Self.isCMYK(header.colorspace)
        // A file changed since the import read it may no longer be what the transform expects.
        let colour = colour.flatMap { ($0.layout == .invertedCMYK) == isCMYK ? $0 : nil }
        let pixelFormat = isCMYK ? TJPF_CMYK : TurboJPEGDecoder.nativeXRGB
        let flags = TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS  // LIMITSCANS: no progressive-scan DoS
        return try PixelBuffer(width: width, height: height) { target in
            let bytes = UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt8.self)
            let status = data.withUnsafeBytes { raw in
                tjDecompress2(
                    handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count),
                    bytes, Int32(width), Int32(width * 4), Int32(height), Int32(pixelFormat.rawValue), flags)
            }
            if status != 0 {
                throw ImagingError.corrupt(.jpeg, detail: String(cString: tjGetErrorStr2(handle)))
            }
            if let colour {
                colour.apply(UnsafeMutableRawPointer(target), count: width * height)
            } else if isCMYK {
                TurboJPEGDecoder.convertInvertedCMYK(UnsafeMutableRawPointer(target), pixels: width * height)
            }
        }
    }

    /// The TurboJPEG layout whose 32-bit words read 0x??RRGGBB natively, as PixelBuffer keeps them.
    static let nativeXRGB: TJPF = UInt32(1).littleEndian == 1 ? TJPF_BGRX : TJPF_XRGB

    private func readHeader(_ data: Data) throws -> (width: Int, height: Int, colorspace: Int32) {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = data.withUnsafeBytes { raw in
            tjDecompressHeader3(
                handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count),
                &width, &height, &subsampling, &colorspace)
        }
        guard status == 0, width > 0, height > 0 else {
            throw ImagingError.corrupt(.jpeg, detail: String(cString: tjGetErrorStr2(handle)))
        }
        return (Int(width), Int(height), colorspace)
    }

    /// CMYK JPEGs come from Photoshop, which stores the inks inverted (Adobe convention), so
    /// 255 means no ink. Converted in place, four bytes in, one 0x00RRGGBB word out. For CMYK
    /// without a profile: ideal inks, which is what browsers show such a file as.
    private static func convertInvertedCMYK(_ buffer: UnsafeMutableRawPointer, pixels: Int) {
        for offset in stride(from: 0, to: pixels * 4, by: 4) {
            func ink(_ index: Int) -> UInt32 { UInt32(buffer.load(fromByteOffset: offset + index, as: UInt8.self)) }
            let k = ink(3)
            let word = (ink(0) * k / 255) << 16 | (ink(1) * k / 255) << 8 | (ink(2) * k / 255)
            buffer.storeBytes(of: word, toByteOffset: offset, as: UInt32.self)
        }
    }
}

import CTurboJPEG
import Foundation

/// libjpeg-turbo's TurboJPEG decompressor; with TurboJPEGEncoder below, the only code that calls
/// TurboJPEG. It owns its tjhandle and destroys it in deinit. One per decode: handles are cheap
/// and not thread-safe.
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

    /// The scales libjpeg-turbo can decode at (2/1 down to 1/8).
    static let scalingFactors: [ScalingFactor] = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count), count > 0 else { return [.one] }
        return (0..<Int(count)).map { ScalingFactor(num: Int(factors[$0].num), denom: Int(factors[$0].denom)) }
    }()

    /// The stored size, from the frame header alone: no pixel is decoded.
    func header(of data: Data) throws -> (width: Int, height: Int) {
        let header = try readHeader(data)
        return (header.width, header.height)
    }

    /// Decodes at `scale`. Every warning is an error: libjpeg-turbo "recovers" from a truncated
    /// file by painting the missing rows grey, and Folio would rather report a broken photo
    /// than publish one.
    func decode(_ data: Data, scale: ScalingFactor) throws -> PixelBuffer {
        let header = try readHeader(data)
        let factor = tjscalingfactor(num: Int32(scale.num), denom: Int32(scale.denom))
        let width = Int(folio_tj_scaled(Int32(header.width), factor))
        let height = Int(folio_tj_scaled(Int32(header.height), factor))
        let isCMYK = header.colorspace == Int32(TJCS_CMYK.rawValue) || header.colorspace == Int32(TJCS_YCCK.rawValue)
        let bytesPerRow = width * 4
        var image = PixelBuffer(width: width, height: height)
        let pixelFormat = isCMYK ? TJPF_CMYK : TurboJPEGDecoder.nativeXRGB
        let flags = TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS  // LIMITSCANS: no progressive-scan DoS
        let status = image.words.withUnsafeMutableBytes { buffer in
            data.withUnsafeBytes { raw in
                tjDecompress2(
                    handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count),
                    buffer.bindMemory(to: UInt8.self).baseAddress, Int32(width), Int32(bytesPerRow), Int32(height),
                    Int32(pixelFormat.rawValue), flags)
            }
        }
        if status != 0 {
            throw ImagingError.corrupt(.jpeg, detail: String(cString: tjGetErrorStr2(handle)))
        }
        image.words.withUnsafeMutableBytes { buffer in
            if isCMYK {
                TurboJPEGDecoder.convertInvertedCMYK(buffer.baseAddress!, pixels: width * height)
            } else {
                // X is filled with 0xFF; pixels keep that byte zero.
                for i in 0..<(width * height) {
                    buffer.storeBytes(of: buffer.load(fromByteOffset: i * 4, as: UInt32.self) & 0x00FF_FFFF,
                                      toByteOffset: i * 4, as: UInt32.self)
                }
            }
        }
        return image
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
    /// 255 means no ink. Converted in place, four bytes in, one 0x00RRGGBB word out.
    private static func convertInvertedCMYK(_ buffer: UnsafeMutableRawPointer, pixels: Int) {
        for offset in stride(from: 0, to: pixels * 4, by: 4) {
            func ink(_ index: Int) -> UInt32 { UInt32(buffer.load(fromByteOffset: offset + index, as: UInt8.self)) }
            let k = ink(3)
            let word = (ink(0) * k / 255) << 16 | (ink(1) * k / 255) << 8 | (ink(2) * k / 255)
            buffer.storeBytes(of: word, toByteOffset: offset, as: UInt32.self)
        }
    }
}

/// libjpeg-turbo's TurboJPEG compressor: JPEG straight from a PixelBuffer, with SIMD colour
/// conversion, several times faster than going through libgd. Owns its tjhandle.
final class TurboJPEGEncoder {
    private let handle: tjhandle

    init() throws {
        guard let handle = tjInitCompress() else {
            throw ImagingError(reason: "could not start the JPEG encoder")
        }
        self.handle = handle
    }

    deinit {
        tjDestroy(handle)
    }

    /// 4:2:0 like every camera; progressive for what visitors download (a rough picture at once,
    /// and a fifth smaller), baseline for small tiles where that buys nothing.
    func encode(_ image: PixelBuffer, quality: Int, progressive: Bool) throws -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let flags = progressive ? TJFLAG_PROGRESSIVE : 0
        let status = image.words.withUnsafeBytes { buffer in
            tjCompress2(
                handle, buffer.bindMemory(to: UInt8.self).baseAddress, Int32(image.width), Int32(image.width * 4),
                Int32(image.height), Int32(TurboJPEGDecoder.nativeXRGB.rawValue), &output, &size,
                Int32(TJSAMP_420.rawValue), Int32(min(max(quality, 1), 100)), flags)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output, size > 0 else {
            throw ImagingError(reason: "could not encode \(image.width)x\(image.height) pixels as JPEG: \(String(cString: tjGetErrorStr2(handle)))")
        }
        return Data(bytes: output, count: Int(size))
    }
}

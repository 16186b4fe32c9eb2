import CHeif
import Foundation

/// Decodes HEIC with libheif; the only Swift type that calls it. libgd 2.3.3's HEIF reader
/// copies libheif's planes as if their rows were packed, shearing every photo whose row is not
/// a multiple of libheif's alignment: here each row is read at libheif's own stride.
/// It owns one libheif context, freed in `deinit`; the image handle and the decoded image live
/// only inside `pixels(limit:)`, released there on every path.
final class HEIFDecoder {
    private let context: OpaquePointer
    /// A copy of the file's bytes that libheif reads from without copying them again: a `Data`'s
    /// own bytes are promised only inside `withUnsafeBytes`, and the context reads them later.
    private let bytes: UnsafeMutableRawBufferPointer

    /// libheif wants heif_init before its first use (it registers its decoders then); the count it
    /// keeps is never brought back to zero, since any task may decode a HEIC at any time.
    private static let initialised: Bool = heif_init(nil).code == heif_error_Ok

    /// Reads the file's structure (no pixels yet); a file libheif cannot parse is corrupt.
    init(_ data: Data) throws {
        guard HEIFDecoder.initialised else { throw ImagingError(reason: "libheif could not start (heif_init failed)") }
        guard !data.isEmpty, let context = heif_context_alloc() else { throw ImagingError.corrupt(.heic) }
        self.context = context
        bytes = .allocate(byteCount: data.count, alignment: 16)
        bytes.copyBytes(from: data)
        try HEIFDecoder.check(heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil))
    }

    deinit {
        heif_context_free(context)
        bytes.deallocate()
    }

    /// The primary image as stored: libheif is asked not to turn, mirror or crop it (no `irot`,
    /// `imir` or `clap`), because Folio turns every format's pixels itself, by the orientation
    /// the header read (`irot` and `imir`, else EXIF): turned here too, a phone's photo would be
    /// turned twice. The `clap` crop, which the header also reads (its size is the photo's), is
    /// cut by the caller. Alpha is composed onto white, as libgd's decode does for the others.
    /// A primary image over `limit` pixels is refused before any of it is decoded: the header's
    /// check read the `ispe` Folio found, this one the image libheif is about to decode.
    func pixels(limit: Int) throws -> PixelBuffer {
        var handle: OpaquePointer?
        try HEIFDecoder.check(heif_context_get_primary_image_handle(context, &handle))
        guard let handle else { throw ImagingError.corrupt(.heic, detail: "no primary image") }
        defer { heif_image_handle_release(handle) }
        let width = Int(heif_image_handle_get_width(handle)), height = Int(heif_image_handle_get_height(handle))
        try ImageHeader(format: .heic, width: width, height: height).checkPixelLimit(limit)

        let hasAlpha = heif_image_handle_has_alpha_channel(handle) != 0
        guard let options = heif_decoding_options_alloc() else { throw ImagingError(reason: "libheif could not allocate its options") }
        defer { heif_decoding_options_free(options) }
        options.pointee.ignore_transformations = 1
        // Ten- and twelve-bit HEICs (HDR from recent phones) published as eight-bit.
        options.pointee.convert_hdr_to_8bit = 1
        var image: OpaquePointer?
        try HEIFDecoder.check(heif_decode_image(
            handle, &image, heif_colorspace_RGB, hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, options))
        guard let image else { throw ImagingError.corrupt(.heic, detail: "libheif returned no image") }
        defer { heif_image_release(image) }

        let decodedWidth = Int(heif_image_get_width(image, heif_channel_interleaved))
        let decodedHeight = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard decodedWidth > 0, decodedHeight > 0,
              let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
              Int(stride) >= decodedWidth * (hasAlpha ? 4 : 3)
        else { throw ImagingError.corrupt(.heic, detail: "libheif returned no usable pixels") }
        return PixelBuffer(width: decodedWidth, height: decodedHeight) { target in
            for y in 0..<decodedHeight {
                // The stride, not the width: the rows libgd's reader sheared.
                let row = plane + y * Int(stride), out = target + y * decodedWidth
                if hasAlpha {
                    for x in 0..<decodedWidth {
                        let pixel = row + x * 4
                        let alpha = UInt32(pixel[3])
                        // c·a + white·(1 − a), rounded.
                        func onWhite(_ channel: UInt8) -> UInt32 { (UInt32(channel) * alpha + 255 * (255 - alpha) + 127) / 255 }
                        out[x] = onWhite(pixel[0]) << 16 | onWhite(pixel[1]) << 8 | onWhite(pixel[2])
                    }
                } else {
                    for x in 0..<decodedWidth {
                        let pixel = row + x * 3
                        out[x] = UInt32(pixel[0]) << 16 | UInt32(pixel[1]) << 8 | UInt32(pixel[2])
                    }
                }
            }
        }
    }

    /// libheif's errors as Folio's: whatever it finds wrong in a file is corruption, in its words;
    /// running out of memory or a missing codec is not the file's fault, and says so.
    private static func check(_ error: heif_error) throws {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        switch error.code {
        case heif_error_Memory_allocation_error:
            throw ImagingError(reason: "libheif ran out of memory (\(message))")
        case heif_error_Unsupported_feature, heif_error_Unsupported_filetype:
            throw ImagingError(reason: "this HEIC uses something libheif cannot decode (\(message))")
        default:
            throw ImagingError.corrupt(.heic, detail: message)
        }
    }
}

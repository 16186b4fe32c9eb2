import CExif
import Foundation

/// Writes EXIF blocks with libexif for test fixtures: "Exif\0\0" and a TIFF structure, ready
/// to splice into a JPEG APP1 segment. Owns its ExifData and releases it in deinit.
final class ImagingExifBuilder {
    private let data: UnsafeMutablePointer<ExifData>
    private let order: ExifByteOrder

    init(bigEndian: Bool = false) {
        data = exif_data_new()
        order = bigEndian ? EXIF_BYTE_ORDER_MOTOROLA : EXIF_BYTE_ORDER_INTEL
        exif_data_set_byte_order(data, order)
        exif_data_set_data_type(data, EXIF_DATA_TYPE_COMPRESSED)
    }

    deinit {
        exif_data_unref(data)
    }

    @discardableResult
    func short(_ tag: ExifTag, _ value: Int, ifd: ExifIfd = EXIF_IFD_0) -> Self {
        add(tag, ifd: ifd, format: EXIF_FORMAT_SHORT, components: 1) { exif_set_short($0, self.order, ExifShort(value)) }
    }

    @discardableResult
    func ascii(_ tag: ExifTag, _ text: String, ifd: ExifIfd = EXIF_IFD_0) -> Self {
        let bytes = Array(text.utf8) + [0]
        return add(tag, ifd: ifd, format: EXIF_FORMAT_ASCII, components: bytes.count) { pointer in
            for (index, byte) in bytes.enumerated() { pointer[index] = byte }
        }
    }

    @discardableResult
    func rationals(_ tag: ExifTag, _ values: [(UInt32, UInt32)], ifd: ExifIfd = EXIF_IFD_EXIF) -> Self {
        add(tag, ifd: ifd, format: EXIF_FORMAT_RATIONAL, components: values.count) { pointer in
            for (index, value) in values.enumerated() {
                exif_set_rational(pointer + index * 8, self.order, ExifRational(numerator: value.0, denominator: value.1))
            }
        }
    }

    /// GPS tags are plain macros in libexif (their numbers overlap the interoperability tags).
    static func gps(_ number: some BinaryInteger) -> ExifTag {
        ExifTag(rawValue: UInt32(number))
    }

    /// The block as exif_data_save_data writes it.
    func block() -> Data {
        var bytes: UnsafeMutablePointer<UInt8>?
        var size: UInt32 = 0
        exif_data_save_data(data, &bytes, &size)
        defer { free(bytes) }
        return bytes.map { Data(bytes: $0, count: Int(size)) } ?? Data()
    }

    private func add(
        _ tag: ExifTag, ifd: ExifIfd, format: ExifFormat, components: Int, write: (UnsafeMutablePointer<UInt8>) -> Void
    ) -> Self {
        let entry = exif_entry_new()!
        let size = Int(exif_format_get_size(format)) * components
        entry.pointee.tag = tag
        entry.pointee.format = format
        entry.pointee.components = UInt(components)
        entry.pointee.size = UInt32(size)
        // libexif frees entry data with its default allocator, which is free().
        entry.pointee.data = calloc(size, 1).assumingMemoryBound(to: UInt8.self)
        write(entry.pointee.data)
        exif_content_add_entry(folio_exif_content(data, ifd), entry)
        exif_entry_unref(entry)
        return self
    }
}

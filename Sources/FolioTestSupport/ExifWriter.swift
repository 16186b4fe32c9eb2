import CExif
import Foundation

/// Writes EXIF blocks with libexif, for sample photos and test fixtures: "Exif\0\0" and a TIFF
/// structure, ready to splice into a JPEG APP1 segment. Owns its ExifData and releases it in
/// deinit. Folio itself only reads EXIF (`ExifReader`); writing it is for making test photos.
public final class ExifWriter {
    private let data: UnsafeMutablePointer<ExifData>
    private let order: ExifByteOrder

    public init(bigEndian: Bool = false) {
        data = exif_data_new()
        order = bigEndian ? EXIF_BYTE_ORDER_MOTOROLA : EXIF_BYTE_ORDER_INTEL
        exif_data_set_byte_order(data, order)
        exif_data_set_data_type(data, EXIF_DATA_TYPE_COMPRESSED)
    }

    deinit {
        exif_data_unref(data)
    }

    @discardableResult
    public func short(_ tag: ExifTag, _ value: Int, ifd: ExifIfd = EXIF_IFD_0) -> Self {
        add(tag, ifd: ifd, format: EXIF_FORMAT_SHORT, components: 1) { exif_set_short($0, self.order, ExifShort(value)) }
    }

    @discardableResult
    public func ascii(_ tag: ExifTag, _ text: String, ifd: ExifIfd = EXIF_IFD_0) -> Self {
        let bytes = Array(text.utf8) + [0]
        return add(tag, ifd: ifd, format: EXIF_FORMAT_ASCII, components: bytes.count) { pointer in
            for (index, byte) in bytes.enumerated() { pointer[index] = byte }
        }
    }

    @discardableResult
    public func rationals(_ tag: ExifTag, _ values: [(UInt32, UInt32)], ifd: ExifIfd = EXIF_IFD_EXIF) -> Self {
        add(tag, ifd: ifd, format: EXIF_FORMAT_RATIONAL, components: values.count) { pointer in
            for (index, value) in values.enumerated() {
                exif_set_rational(pointer + index * 8, self.order, ExifRational(numerator: value.0, denominator: value.1))
            }
        }
    }

    /// GPS tags are plain macros in libexif (their numbers overlap the interoperability tags).
    public static func gps(_ number: some BinaryInteger) -> ExifTag {
        ExifTag(rawValue: UInt32(number))
    }

    /// The block as exif_data_save_data writes it.
    public func block() -> Data {
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

    /// The block a camera writes: orientation, make and model, artist, date taken and GPS.
    public static func cameraBlock(orientation: Int, make: String?, model: String?, artist: String?, taken: Date?,
                            latitude: Double?, longitude: Double?) -> Data {
        let writer = ExifWriter()
        writer.short(EXIF_TAG_ORIENTATION, orientation)
        if let make { writer.ascii(EXIF_TAG_MAKE, make) }
        if let model { writer.ascii(EXIF_TAG_MODEL, model) }
        if let artist { writer.ascii(EXIF_TAG_ARTIST, artist) }
        if let taken {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
            writer.ascii(EXIF_TAG_DATE_TIME_ORIGINAL, formatter.string(from: taken), ifd: EXIF_IFD_EXIF)
        }
        if let latitude, let longitude {
            func dms(_ value: Double) -> [(UInt32, UInt32)] {
                let degrees = abs(value), whole = degrees.rounded(.down), minutes = (degrees - whole) * 60
                return [(UInt32(whole), 1), (UInt32(minutes.rounded(.down)), 1),
                        (UInt32(((minutes - minutes.rounded(.down)) * 60 * 100).rounded()), 100)]
            }
            writer.ascii(gps(1), latitude < 0 ? "S" : "N", ifd: EXIF_IFD_GPS)
            writer.rationals(gps(2), dms(latitude), ifd: EXIF_IFD_GPS)
            writer.ascii(gps(3), longitude < 0 ? "W" : "E", ifd: EXIF_IFD_GPS)
            writer.rationals(gps(4), dms(longitude), ifd: EXIF_IFD_GPS)
        }
        return writer.block()
    }
}

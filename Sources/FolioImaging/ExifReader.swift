import CExif
import FolioCore
import Foundation

/// Reads EXIF with libexif. The only Swift type that calls libexif; it owns the ExifData and
/// releases it in deinit.
final class ExifReader {
    private let data: UnsafeMutablePointer<ExifData>

    /// `block` is "Exif\0\0" followed by the TIFF structure, as in a JPEG's APP1 segment.
    /// Nil when libexif cannot allocate; a damaged block simply yields no fields.
    init?(block: Data) {
        guard block.count <= Int(UInt32.max), let data = exif_data_new() else { return nil }
        // By default libexif "follows the specification" after loading, adding any mandatory tag
        // the file lacks with a made-up value; Folio wants only what the camera wrote.
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        block.withUnsafeBytes { raw in
            exif_data_load_data(data, raw.bindMemory(to: UInt8.self).baseAddress, UInt32(raw.count))
        }
        self.data = data
    }

    deinit {
        exif_data_unref(data)
    }

    var fields: ExifFields {
        ExifFields(
            orientation: integers(EXIF_TAG_ORIENTATION, in: EXIF_IFD_0).first,
            dateTimeOriginal: string(EXIF_TAG_DATE_TIME_ORIGINAL, in: EXIF_IFD_EXIF),
            dateTime: string(EXIF_TAG_DATE_TIME, in: EXIF_IFD_0),
            make: string(EXIF_TAG_MAKE, in: EXIF_IFD_0),
            model: string(EXIF_TAG_MODEL, in: EXIF_IFD_0),
            lensModel: string(EXIF_TAG_LENS_MODEL, in: EXIF_IFD_EXIF),
            artist: string(EXIF_TAG_ARTIST, in: EXIF_IFD_0),
            exposureTime: rationals(EXIF_TAG_EXPOSURE_TIME, in: EXIF_IFD_EXIF).first,
            fNumber: rationals(EXIF_TAG_FNUMBER, in: EXIF_IFD_EXIF).first,
            isoSpeed: integers(EXIF_TAG_ISO_SPEED_RATINGS, in: EXIF_IFD_EXIF).first,
            focalLength: rationals(EXIF_TAG_FOCAL_LENGTH, in: EXIF_IFD_EXIF).first,
            gpsLatitude: rationals(gpsTag(EXIF_TAG_GPS_LATITUDE), in: EXIF_IFD_GPS),
            gpsLatitudeRef: string(gpsTag(EXIF_TAG_GPS_LATITUDE_REF), in: EXIF_IFD_GPS),
            gpsLongitude: rationals(gpsTag(EXIF_TAG_GPS_LONGITUDE), in: EXIF_IFD_GPS),
            gpsLongitudeRef: string(gpsTag(EXIF_TAG_GPS_LONGITUDE_REF), in: EXIF_IFD_GPS),
            gpsStatus: string(gpsTag(EXIF_TAG_GPS_STATUS), in: EXIF_IFD_GPS),
            colorSpace: integers(EXIF_TAG_COLOR_SPACE, in: EXIF_IFD_EXIF).first,
            interoperabilityIndex: string(EXIF_TAG_INTEROPERABILITY_INDEX, in: EXIF_IFD_INTEROPERABILITY))
    }

    /// GPS tag numbers overlap the interoperability ones, so libexif defines them as plain
    /// macros rather than ExifTag cases.
    private func gpsTag(_ number: some BinaryInteger) -> ExifTag { ExifTag(rawValue: UInt32(number)) }

    private func entry(_ tag: ExifTag, in ifd: ExifIfd) -> UnsafeMutablePointer<ExifEntry>? {
        guard let content = folio_exif_content(data, ifd), let entry = exif_content_get_entry(content, tag),
              entry.pointee.data != nil else { return nil }
        return entry
    }

    /// An ASCII tag up to its first NUL, trimmed; nil when empty. Cameras write UTF-8 or Latin-1.
    private func string(_ tag: ExifTag, in ifd: ExifIfd) -> String? {
        guard let entry = entry(tag, in: ifd) else { return nil }
        let bytes = UnsafeBufferPointer(start: entry.pointee.data, count: Int(entry.pointee.size))
        let text = Array(bytes.prefix { $0 != 0 })
        let decoded = String(validating: text, as: UTF8.self) ?? String(decoding: text.map { UInt16($0) }, as: UTF16.self)
        let trimmed = CleanText.line(decoded).trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    private func integers(_ tag: ExifTag, in ifd: ExifIfd) -> [Int] {
        guard let entry = entry(tag, in: ifd) else { return [] }
        let order = exif_data_get_byte_order(data)
        return values(of: entry) { pointer, format in
            switch format {
            case EXIF_FORMAT_SHORT: return Int(exif_get_short(pointer, order))
            case EXIF_FORMAT_LONG: return Int(exif_get_long(pointer, order))
            case EXIF_FORMAT_BYTE: return Int(pointer.pointee)
            default: return nil
            }
        }
    }

    /// Rationals as numbers; a zero denominator (cameras write 0/0 for "unknown") is dropped.
    private func rationals(_ tag: ExifTag, in ifd: ExifIfd) -> [Double] {
        guard let entry = entry(tag, in: ifd) else { return [] }
        let order = exif_data_get_byte_order(data)
        return values(of: entry) { pointer, format in
            switch format {
            case EXIF_FORMAT_RATIONAL:
                let value = exif_get_rational(pointer, order)
                return value.denominator == 0 ? nil : Double(value.numerator) / Double(value.denominator)
            case EXIF_FORMAT_SRATIONAL:
                let value = exif_get_srational(pointer, order)
                return value.denominator == 0 ? nil : Double(value.numerator) / Double(value.denominator)
            default:
                return nil
            }
        }
    }

    /// Each component of an entry, read only where the entry's data really holds it.
    private func values<T>(
        of entry: UnsafeMutablePointer<ExifEntry>, _ read: (UnsafePointer<UInt8>, ExifFormat) -> T?
    ) -> [T] {
        let format = entry.pointee.format
        let width = Int(exif_format_get_size(format))
        guard width > 0 else { return [] }
        let count = min(Int(entry.pointee.components), Int(entry.pointee.size) / width)
        var result: [T] = []
        for index in 0..<count {
            guard let value = read(UnsafePointer(entry.pointee.data + index * width), format) else { return [] }
            result.append(value)
        }
        return result
    }
}

import CRaw
import Foundation
import Synchronization

/// Reads cameras' RAW files (DNG, CR2, CR3, NEF, ARW, RAF, ORF, RW2, PEF, …) with LibRaw; the
/// only Swift type that calls it. It owns one LibRaw handle, closed in `deinit`, and the copy of
/// the file's bytes LibRaw reads from while the handle is open.
///
/// Pixels are handed over as stored, never turned: Folio turns every format itself, by the
/// orientation `facts` gives, so LibRaw is told to keep the sensor's own orientation.
final class RAWDecoder {
    private let raw: UnsafeMutablePointer<libraw_data_t>
    private let bytes: UnsafeMutableRawBufferPointer
    /// Whether LibRaw met data it could not read (the file cut short, or damaged) while unpacking:
    /// it goes on with what it has, and the picture is not the camera's. Set from LibRaw's
    /// threads, which unpack a DNG's tiles side by side.
    private let damaged = Atomic(false)

    /// What LibRaw reads of the file before any pixel: its size, orientation, and the EXIF facts
    /// Folio uses, for the RAWs whose EXIF is not in a TIFF structure of its own (CR3, RAF, ORF, RW2).
    struct Facts: Equatable {
        /// The developed picture's size as stored (before `orientation` is applied).
        var width: Int, height: Int
        /// As an EXIF orientation.
        var orientation: Int
        var exif: ExifFields
    }

    /// Opens the file and reads its structure; a file LibRaw does not take for a RAW, or cannot
    /// parse, is corrupt.
    init(_ data: Data) throws {
        guard !data.isEmpty else { throw ImagingError.emptyFile }
        guard let raw = libraw_init(0) else { throw ImagingError(reason: "LibRaw could not start") }
        self.raw = raw
        bytes = .allocate(byteCount: data.count, alignment: 16)
        bytes.copyBytes(from: data)
        // LibRaw's own handlers print to stderr: what it finds wrong is kept here, or comes back
        // as a status. (The handle lives no longer than this decoder.)
        libraw_set_dataerror_handler(raw, { decoder, _, _ in
            decoder.map { Unmanaged<RAWDecoder>.fromOpaque($0).takeUnretainedValue().damaged.store(true, ordering: .relaxed) }
        }, Unmanaged.passUnretained(self).toOpaque())
        libraw_set_memerror_handler(raw, { _, _, _ in }, nil)
        try check(libraw_open_buffer(raw, bytes.baseAddress, bytes.count))
    }

    deinit {
        libraw_close(raw)
        bytes.deallocate()
    }

    /// Its size, orientation and EXIF facts. Call before `embeddedPreview()` or `developed(limit:)`,
    /// on a decoder of its own: working out the size moves LibRaw on past where it can develop.
    func facts() throws -> Facts {
        let orientation = Self.exifOrientation(flip: raw.pointee.sizes.flip)
        raw.pointee.params.user_flip = 0
        try check(libraw_adjust_sizes_info_only(raw))
        let sizes = raw.pointee.sizes
        guard sizes.iwidth > 0, sizes.iheight > 0 else { throw ImagingError.corrupt(.raw, detail: "no image size") }
        return Facts(width: Int(sizes.iwidth), height: Int(sizes.iheight), orientation: orientation, exif: exifFields())
    }

    /// The JPEG the camera embedded (its own development, usually at full size), when it has one;
    /// nil when it has none, or one in another form.
    func embeddedPreview() -> Data? {
        guard libraw_unpack_thumb(raw) == LIBRAW_SUCCESS.rawValue else { return nil }
        let thumbnail = raw.pointee.thumbnail
        guard thumbnail.tformat == LIBRAW_THUMBNAIL_JPEG, let start = thumbnail.thumb, thumbnail.tlength > 0 else { return nil }
        return Data(bytes: start, count: Int(thumbnail.tlength))
    }

    /// The sensor's data developed as a camera would: its white balance as shot, demosaiced,
    /// in sRGB, eight bits a channel, as stored. Refused before any of it is unpacked when the
    /// sensor has more than `limit` pixels.
    func developed(limit: Int) throws -> PixelBuffer {
        let sizes = raw.pointee.sizes
        try ImageHeader(format: .raw, width: Int(sizes.raw_width), height: Int(sizes.raw_height)).checkPixelLimit(limit)
        raw.pointee.params.user_flip = 0
        raw.pointee.params.use_camera_wb = 1
        raw.pointee.params.output_color = 1  // sRGB
        raw.pointee.params.output_bps = 8
        try check(libraw_unpack(raw))
        try check(libraw_dcraw_process(raw))
        guard !damaged.load(ordering: .relaxed) else { throw ImagingError.corrupt(.raw, detail: "its sensor data is cut short or damaged") }
        var status: Int32 = 0
        guard let image = libraw_dcraw_make_mem_image(raw, &status) else { try check(status); throw ImagingError.corrupt(.raw) }
        defer { libraw_dcraw_clear_mem(image) }
        let width = Int(image.pointee.width), height = Int(image.pointee.height)
        let colours = Int(image.pointee.colors)
        guard image.pointee.type == LIBRAW_IMAGE_BITMAP, image.pointee.bits == 8, colours == 3 || colours == 1,
              width > 0, height > 0, Int(image.pointee.data_size) >= width * height * colours
        else { throw ImagingError.corrupt(.raw, detail: "LibRaw returned no usable pixels") }
        return withUnsafeMutablePointer(to: &image.pointee.data) { first in
            let samples = UnsafeRawPointer(first).assumingMemoryBound(to: UInt8.self)
            return PixelBuffer(width: width, height: height) { target in
                for index in 0..<(width * height) {
                    let pixel = samples + index * colours
                    let (red, green, blue) = colours == 3 ? (pixel[0], pixel[1], pixel[2]) : (pixel[0], pixel[0], pixel[0])
                    target[index] = UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
                }
            }
        }
    }

    /// LibRaw's `flip` (dcraw's: bit 0 mirrors, bit 1 flips, bit 2 transposes) as the EXIF
    /// orientation it was read from.
    static func exifOrientation(flip: Int32) -> Int {
        [1, 2, 4, 3, 5, 8, 6, 7][Int(flip & 7)]
    }

    /// The facts as EXIF states them, for `ExifFields+Summary` to read like any photo's.
    private func exifFields() -> ExifFields {
        var fields = ExifFields()
        let other = raw.pointee.other, idata = raw.pointee.idata
        fields.make = Self.text(idata.make)
        fields.model = Self.text(idata.model)
        fields.lensModel = Self.text(raw.pointee.lens.Lens)
        fields.artist = Self.text(other.artist)
        if other.timestamp > 0 {
            // LibRaw made it from the camera's wall time in this process's zone: undone in the same.
            var time = other.timestamp, parts = tm()
            if localtime_r(&time, &parts) != nil {
                fields.dateTimeOriginal = String(format: "%04d:%02d:%02d %02d:%02d:%02d", parts.tm_year + 1900, parts.tm_mon + 1,
                                                 parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec)
            }
        }
        if other.shutter > 0 { fields.exposureTime = Double(other.shutter) }
        // LibRaw keeps them as floats: f/5.6 is 5.5999999.
        func tenths(_ value: Float) -> Double { (Double(value) * 10).rounded() / 10 }
        if other.aperture > 0 { fields.fNumber = tenths(other.aperture) }
        if other.iso_speed > 0 { fields.isoSpeed = Int(other.iso_speed.rounded()) }
        if other.focal_len > 0 { fields.focalLength = tenths(other.focal_len) }
        let gps = other.parsed_gps
        if gps.gpsparsed != 0, gps.latref != 0, gps.longref != 0 {
            fields.gpsLatitude = [gps.latitude.0, gps.latitude.1, gps.latitude.2].map(Double.init)
            fields.gpsLongitude = [gps.longitude.0, gps.longitude.1, gps.longitude.2].map(Double.init)
            fields.gpsLatitudeRef = String(UnicodeScalar(UInt8(bitPattern: gps.latref)))
            fields.gpsLongitudeRef = String(UnicodeScalar(UInt8(bitPattern: gps.longref)))
            if gps.gpsstatus != 0 { fields.gpsStatus = String(UnicodeScalar(UInt8(bitPattern: gps.gpsstatus))) }
        }
        return fields
    }

    /// A fixed-size C string of LibRaw's, nil when empty.
    private static func text<Tuple>(_ tuple: Tuple) -> String? {
        withUnsafeBytes(of: tuple) { bytes in
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            let text = String(decoding: bytes[..<end], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            return text.isEmpty ? nil : text
        }
    }

    /// LibRaw's statuses as Folio's: what it finds wrong in a file is the file's; running out of
    /// memory is not, and says so.
    private func check(_ status: Int32) throws {
        guard status != LIBRAW_SUCCESS.rawValue else { return }
        let message = String(cString: libraw_strerror(status))
        switch status {
        case LIBRAW_UNSUFFICIENT_MEMORY.rawValue:
            throw ImagingError(reason: "LibRaw ran out of memory (\(message))")
        case LIBRAW_FILE_UNSUPPORTED.rawValue:
            throw ImagingError.corrupt(.raw, detail: "LibRaw does not read this camera's files (\(message))")
        default:
            throw ImagingError.corrupt(.raw, detail: message)
        }
    }
}

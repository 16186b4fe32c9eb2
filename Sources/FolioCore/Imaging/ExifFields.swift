/// The EXIF tags Folio uses, as the file states them; `ExifFields+Summary` turns them into
/// what a photo page shows.
struct ExifFields: Equatable {
    var orientation: Int?
    var dateTimeOriginal: String?
    var dateTime: String?
    var make: String?
    var model: String?
    var artist: String?
    /// Seconds.
    var exposureTime: Double?
    var fNumber: Double?
    var isoSpeed: Int?
    /// Millimetres.
    var focalLength: Double?
    /// Degrees, minutes, seconds.
    var gpsLatitude: [Double] = []
    var gpsLatitudeRef: String?
    var gpsLongitude: [Double] = []
    var gpsLongitudeRef: String?
    /// "A" when the receiver had a fix, "V" when it did not (and the coordinates are junk).
    var gpsStatus: String?
}

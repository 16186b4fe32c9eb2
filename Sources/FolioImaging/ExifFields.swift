/// The EXIF tags Folio uses, as the file states them; `ExifFields+Summary` turns them into
/// what a photo page shows.
struct ExifFields: Equatable {
    var orientation: Int?
    var dateTimeOriginal: String?
    var dateTime: String?
    var make: String?
    var model: String?
    var lensModel: String?
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
    /// 1 for sRGB, 0xFFFF for "uncalibrated": what a camera set to Adobe RGB writes.
    var colorSpace: Int?
    /// The interoperability IFD's rule set: "R98" (sRGB, DCF) or "R03" (DCF's Adobe RGB option).
    var interoperabilityIndex: String?

    /// A camera's Adobe RGB JPEG, which carries no profile and says so only here (DCF 2.0).
    var saysAdobeRGB: Bool {
        interoperabilityIndex == "R03" && colorSpace != 1
    }
}

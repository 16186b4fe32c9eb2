import FolioCore
import Foundation

extension ExifFields {
    /// When the photo was taken: DateTimeOriginal, else DateTime (the file's last edit).
    var taken: Date? {
        dateTimeOriginal.flatMap(LocalDateTime.date(from:)) ?? dateTime.flatMap(LocalDateTime.date(from:))
    }

    /// "Canon EOS R5" rather than "Canon Canon EOS R5": many makers repeat the make in the model.
    var camera: String? {
        switch (make, model) {
        case let (make?, model?):
            return model.lowercased().hasPrefix(make.lowercased()) ? model : "\(make) \(model)"
        case let (make?, nil): return make
        case let (nil, model?): return model
        case (nil, nil): return nil
        }
    }

    /// "1/250 s · f/2.8 · ISO 100 · 35 mm", with only the parts the file has.
    var exposure: String? {
        var parts: [String] = []
        if let time = exposureTime, time > 0 { parts.append(ExifFields.shutter(time)) }
        if let fNumber, fNumber > 0 { parts.append("f/\(ExifFields.decimal(fNumber))") }
        if let isoSpeed, isoSpeed > 0 { parts.append("ISO \(isoSpeed)") }
        if let focalLength, focalLength > 0 { parts.append("\(ExifFields.decimal(focalLength)) mm") }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    var latitude: Double? {
        ExifFields.coordinate(gpsLatitude, ref: gpsLatitudeRef, negative: "S", limit: 90, status: gpsStatus)
    }

    var longitude: Double? {
        ExifFields.coordinate(gpsLongitude, ref: gpsLongitudeRef, negative: "W", limit: 180, status: gpsStatus)
    }

    /// Degrees, minutes, seconds to signed decimal degrees. A receiver without a fix writes
    /// zeros and status "V"; those are not a place in the Gulf of Guinea.
    private static func coordinate(_ dms: [Double], ref: String?, negative: String, limit: Double, status: String?) -> Double? {
        guard !dms.isEmpty, status?.uppercased() != "V" else { return nil }
        let parts = dms + [0, 0]
        let magnitude = parts[0] + parts[1] / 60 + parts[2] / 3600
        guard magnitude.isFinite, magnitude <= limit else { return nil }
        return ref?.uppercased().hasPrefix(negative) == true ? -magnitude : magnitude
    }

    /// Short exposures as the fraction cameras show ("1/250 s"), long ones in seconds ("2.5 s").
    private static func shutter(_ seconds: Double) -> String {
        if seconds < 1 {
            let denominator = (1 / seconds).rounded()
            if abs(1 / seconds - denominator) / denominator < 0.05 { return "1/\(Int(denominator)) s" }
        }
        return "\(decimal(seconds)) s"
    }

    /// One decimal at most, none when whole: "2.8", "8", "4.3".
    private static func decimal(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

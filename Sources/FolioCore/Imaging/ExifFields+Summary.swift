import Foundation

extension ExifFields {
    /// When the photo was taken: DateTimeOriginal, else DateTime (the file's last edit).
    var taken: Date? {
        dateTimeOriginal.flatMap(ExifFields.date(from:)) ?? dateTime.flatMap(ExifFields.date(from:))
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

    /// "YYYY:MM:DD HH:MM:SS" read as UTC. Cameras without a set clock write zeros or blanks,
    /// and some editors use dashes; anything that is not a real date and time is nil.
    static func date(from text: String) -> Date? {
        let numbers = text.split { !$0.isNumber }.compactMap { Int($0) }
        guard numbers.count >= 6 else { return nil }
        let (year, month, day, hour, minute, second) = (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
        guard (1...9999).contains(year), (1...12).contains(month), (1...daysIn(month, of: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        let seconds = daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Howard Hinnant's days_from_civil: exact for the proleptic Gregorian calendar, and free of
    /// Calendar and DateFormatter, which are slow and locale-dependent for this one fixed format.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

import FolioCore
import Foundation

/// What Google Photos kept of a photo, as its Takeout export writes it beside the file
/// (`IMG_1.jpg.json`, `IMG_1.jpg.supplemental-metadata.json`): when it was taken, where, the words
/// its owner wrote, whether it was a favorite and who is in it. Every field is optional; a value
/// of the wrong type or out of range is left out and said, naming its key.
public struct TakeoutSidecar: Sendable, Equatable {
    /// `photoTakenTime`, a count of seconds since 1970 in UTC.
    public var taken: Date?
    /// `geoData`, else `geoDataExif`; Google writes 0, 0 for a photo it has no place for.
    public var latitude: Double?
    public var longitude: Double?
    public var description: String?
    public var favorite = false
    /// The names in `people`: who Google's face grouping (named by the owner) found in it.
    public var people: [String] = []

    public init(taken: Date? = nil, latitude: Double? = nil, longitude: Double? = nil, description: String? = nil,
                favorite: Bool = false, people: [String] = []) {
        (self.taken, self.latitude, self.longitude) = (taken, latitude, longitude)
        (self.description, self.favorite, self.people) = (description, favorite, people)
    }

    /// The sidecar `data` describes, and what was wrong in it (each naming its key); nil, with
    /// the reason, when it is not a JSON object at all.
    public static func read(_ data: Data) -> (sidecar: TakeoutSidecar?, problems: [String]) {
        let object: [String: Any]
        switch JSONObjectReading.object(data, limit: ReadingLimits.takeoutBytes) {
        case .success(let read): object = read
        case .failure(let refusal): return (nil, [refusal.reason])
        }
        var sidecar = TakeoutSidecar()
        var problems: [String] = []
        if let time = object["photoTakenTime"] {
            switch seconds(time) {
            case .success(let date?): sidecar.taken = date
            case .success(nil): break
            case .failure(let reason): problems.append("'photoTakenTime' \(reason); ignored")
            }
        }
        for key in ["geoData", "geoDataExif"] where sidecar.latitude == nil {
            guard let value = object[key] else { continue }
            switch position(value) {
            case .success(let found?): (sidecar.latitude, sidecar.longitude) = found
            case .success(nil): break
            case .failure(let reason): problems.append("'\(key)' \(reason); ignored")
            }
        }
        if let value = object["description"] {
            if let text = value as? String {
                sidecar.description = text.isEmpty ? nil : text
            } else {
                problems.append("'description' is not text; ignored")
            }
        }
        if let value = object["favorited"] {
            if isBoolean(value), let flag = value as? Bool {
                sidecar.favorite = flag
            } else {
                problems.append("'favorited' is not true or false; ignored")
            }
        }
        if let value = object["people"] {
            let named = (value as? [Any])?.map { ($0 as? [String: Any])?["name"] as? String }
            if let named, !named.contains(nil) {
                sidecar.people = named.compactMap { $0 }.filter { !$0.isEmpty }
            } else {
                problems.append("'people' is not a list of names; ignored")
            }
        }
        return (sidecar, problems)
    }

    /// The moment a `{"timestamp": "1696574331"}` value gives; nil for Google's 0, which stands
    /// for none. Before 1826 (the oldest photograph) or after 9999 is out of range.
    static func seconds(_ value: Any) -> Result<Date?, Reason> {
        guard let time = value as? [String: Any], let stamp = time["timestamp"] else { return .failure("has no 'timestamp'") }
        let seconds: Double
        if let text = stamp as? String, let number = Double(text) {
            seconds = number
        } else if let number = stamp as? NSNumber, !isBoolean(number) {
            seconds = number.doubleValue
        } else {
            return .failure("is not a number of seconds")
        }
        guard seconds != 0 else { return .success(nil) }
        let earliest = -4_575_744_000.0  // 1 January 1825
        let latest = 253_402_300_799.0  // 31 December 9999
        guard seconds.isFinite, seconds >= earliest, seconds <= latest else { return .failure("is out of range (\(stamp))") }
        return .success(Date(timeIntervalSince1970: seconds.rounded(.down)))
    }

    /// The latitude and longitude of a `{"latitude": …, "longitude": …}` value; nil for 0, 0.
    static func position(_ value: Any) -> Result<(Double, Double)?, Reason> {
        guard let place = value as? [String: Any] else { return .failure("is not an object") }
        func number(_ key: String) -> Double? {
            guard let number = place[key] as? NSNumber, !isBoolean(number) else { return nil }
            return number.doubleValue
        }
        guard let latitude = number("latitude"), let longitude = number("longitude") else {
            return .failure("has no numeric latitude and longitude")
        }
        guard latitude != 0 || longitude != 0 else { return .success(nil) }
        guard abs(latitude) <= 90, abs(longitude) <= 180 else { return .failure("is out of range (\(latitude), \(longitude))") }
        return .success((latitude, longitude))
    }

    /// Whether JSON wrote `value` as true or false: Foundation hands both numbers and booleans
    /// over as NSNumber, and `as? Bool` takes a 1 for true.
    static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    /// Why a value was left out, as a message continues it: "is out of range (…)".
    struct Reason: Error, ExpressibleByStringInterpolation, CustomStringConvertible {
        var description: String
        init(stringLiteral value: String) { description = value }
    }
}

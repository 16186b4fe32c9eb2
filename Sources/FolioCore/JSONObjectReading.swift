import Foundation

/// A JSON object read from a file a user put in `content/` (a Google Takeout sidecar or album
/// description), within `ReadingLimits`: too large, too deep or not an object is a reason, never
/// a crash. What the object holds is the reader's to check, key by key.
package enum JSONObjectReading {
    /// Why a file was not read: "is not readable JSON (…)", as a message about it continues.
    package struct Refusal: Error, Equatable {
        package var reason: String
    }

    package static func object(_ data: Data, limit: Int) -> Result<[String: Any], Refusal> {
        guard data.count <= limit else {
            return .failure(Refusal(reason: "is larger than the \(ReadingLimits.megabytes(limit)) Folio reads of such a file"))
        }
        if let position = NestingScan.json(data) {
            return .failure(Refusal(reason: "nests more than \(ReadingLimits.nesting) deep (\(position))"))
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "it ends too soon or has a stray character"
            return .failure(Refusal(reason: "is not readable JSON (\(detail))"))
        }
        guard let object = parsed as? [String: Any] else { return .failure(Refusal(reason: "is JSON, but not an object of named values")) }
        return .success(object)
    }
}

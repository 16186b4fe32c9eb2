import Foundation

extension Photo {
    /// Every stored property, in the order `stamp` takes them: a test holds this list to the
    /// type's own (`Mirror`), so a property added to `Photo` cannot be left out of the stamp.
    static let stampedProperties = [
        "id", "identifier", "source", "title", "description", "descriptionHTML", "personId", "placeId", "taken",
        "uploaded", "width", "height", "favorite", "catalogFavorite", "checksum", "fileStamp", "fingerprint",
        "format", "orientation", "colour", "transparent", "animated", "motion", "camera", "exposure", "latitude",
        "longitude", "tags", "lastError", "remote", "flickrPlaceId",
    ]

    /// A number for everything the photo holds, as `ValueStamp` makes one (the same photo, the same
    /// number; any property changed, another), property by property: through `Encodable`, every
    /// photo's was 5 µs, half a second of CPU on every build of a 100,000-photo library.
    var stamp: UInt64 {
        var bytes = StampBytes()
        bytes.number(id)
        bytes.text(identifier)
        bytes.text(source.text)
        bytes.text(title)
        bytes.text(description)
        bytes.text(descriptionHTML)
        bytes.number(personId)
        bytes.number(placeId)
        bytes.date(taken)
        bytes.date(uploaded)
        bytes.number(Int64(width))
        bytes.number(Int64(height))
        bytes.flag(favorite)
        bytes.flag(catalogFavorite)
        bytes.text(checksum)
        bytes.text(fileStamp)
        bytes.text(fingerprint)
        bytes.text(format.rawValue)
        bytes.number(Int64(orientation))
        bytes.text(colour.rawValue)
        bytes.flag(transparent)
        bytes.flag(animated)
        // Nil for most photos: the rest go through `Encodable`.
        bytes.value(motion)
        bytes.text(camera)
        bytes.text(exposure)
        bytes.real(latitude)
        bytes.real(longitude)
        bytes.number(Int64(tags.count))
        for tag in tags { bytes.text(tag) }
        bytes.text(lastError)
        bytes.value(remote)
        bytes.text(flickrPlaceId)
        return bytes.hash
    }
}

/// The bytes of a stamp made field by field: each value with a mark of its kind, and a text with
/// its length, so that no two sequences of values (a nil and an empty text, "ab" and "a", "b")
/// give the same bytes.
private struct StampBytes {
    private var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(512)
    }

    var hash: UInt64 { bytes.withUnsafeBytes { ContentHash.hash($0) } }

    mutating func text(_ value: String?) {
        guard var value else { return bytes.append(0) }
        value.withUTF8 { utf8 in
            bytes.append(1)
            withUnsafeBytes(of: UInt64(utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func number(_ value: Int64?) {
        guard let value else { return bytes.append(0) }
        bytes.append(2)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func real(_ value: Double?) {
        guard let value else { return bytes.append(0) }
        bytes.append(3)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func date(_ value: Date?) {
        real(value?.timeIntervalSinceReferenceDate)
    }

    mutating func flag(_ value: Bool) {
        bytes.append(value ? 5 : 4)
    }

    mutating func value(_ value: (some Encodable)?) {
        guard let value else { return bytes.append(0) }
        bytes.append(6)
        withUnsafeBytes(of: ValueStamp.of(value).littleEndian) { bytes.append(contentsOf: $0) }
    }
}

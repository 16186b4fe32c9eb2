import FolioCore
import Foundation

extension Photo {
    /// Every property, in the order `stamp` takes them: a test holds this list to the type's
    /// stored properties and those it holds in `rare` (`Mirror`), and to its coding keys, so a
    /// property added to `Photo` cannot be left out of the stamp or the row.
    static let stampedProperties = [
        "id", "identifier", "source", "title", "description", "descriptionHTML", "personId", "placeId", "taken",
        "uploaded", "width", "height", "favorite", "catalogFavorite", "checksum", "fileStamp", "fingerprint",
        "format", "orientation", "colour", "transparent", "animated", "motion", "camera", "exposure", "latitude",
        "longitude", "tags", "lastError", "remote", "flickrPlaceId",
    ]

    /// A number for everything the photo holds (the same photo, the same number; any property
    /// changed, another), written property by property (`ValueStamp.made`): through `Encodable`,
    /// every photo's was 5 µs, half a second of CPU on every build of a 100,000-photo library.
    var stamp: UInt64 {
        ValueStamp.made { values in
            values.number(id)
            values.text(identifier)
            values.text(source.text)
            values.text(title)
            values.text(description)
            values.text(descriptionHTML)
            values.number(personId)
            values.number(placeId)
            values.real(taken?.timeIntervalSinceReferenceDate)
            values.real(uploaded.timeIntervalSinceReferenceDate)
            values.number(Int64(width))
            values.number(Int64(height))
            values.flag(favorite)
            values.flag(catalogFavorite)
            values.text(checksum)
            values.text(fileStamp)
            values.text(fingerprint)
            values.text(format.rawValue)
            values.number(Int64(orientation))
            values.text(colour.rawValue)
            values.flag(transparent)
            values.flag(animated)
            // Nil for most photos: the rest go through `Encodable`.
            values.value(motion)
            values.text(camera)
            values.text(exposure)
            values.real(latitude)
            values.real(longitude)
            values.value(tags)
            values.text(lastError)
            values.value(remote)
            values.text(flickrPlaceId)
        }
    }

    /// One number for what the photo's published media are made from (the rest is how a build
    /// names them, by its settings and this Folio, the same for every photo of a build): the same
    /// as the last build's, the photo needs no image work and its media are the files that build
    /// left (`MediaLedger`). Held beside each photo of a snapshot (`GalleryPhoto`).
    package var mediaStamp: UInt64 {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        func add(_ text: String) {
            var text = text
            text.withUTF8 { bytes.append(contentsOf: $0) }
            bytes.append(0)
        }
        func add(_ number: Int64) { withUnsafeBytes(of: number.littleEndian) { bytes.append(contentsOf: $0) } }
        add(id)
        add(source.text)
        add(checksum)
        add(Int64(width) << 32 | Int64(height))
        // A favorite's media differ only from Flickr (`PlanStep.source(of:settings:paths:contentRoot:)`).
        let remoteFavorite = favorite && remote != nil
        add(Int64(orientation) << 8 | (remoteFavorite ? 4 : 0) | (transparent ? 2 : 0) | (animated ? 1 : 0))
        add(format.rawValue)
        add(colour.rawValue)
        if let motion {
            add("\(motion.kind.rawValue) \(motion.duration) \(motion.clip ?? "") \(motion.clipChecksum ?? "")")
        }
        for size in remote?.sizes ?? [] {
            add(size.url)
            add(Int64(size.width) << 32 | Int64(size.height))
        }
        return bytes.withUnsafeBytes { ContentHash.hash($0) }
    }
}

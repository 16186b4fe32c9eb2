import FolioCore
import FolioModel
import Foundation

/// A Flickr photo and place as the model keeps them.
enum FlickrPhotoImport {
    /// The thumbnails' side Folio makes at most; the size downloaded for them covers it.
    static let thumbnailSide = 400

    /// Nil for a photo Flickr gives no image size of.
    static func photoImport(_ photo: FlickrPhoto, owner: (id: String?, name: String?), place: FlickrPlace?, now: Date) -> PhotoImport? {
        guard let largest = photo.sizes.last else { return nil }
        let ownerID = photo.owner ?? owner.id ?? "unknown"
        let remote = RemotePhoto(
            pageURL: "https://www.flickr.com/photos/\(ownerID)/\(photo.id)/", license: photo.license,
            sizes: photo.sizes.map { RemotePhoto.Size(label: $0.label, url: $0.url, width: $0.width, height: $0.height) },
            placeID: photo.placeID)
        // The checksum names the thumbnails' source: a replaced photo has new URLs, new thumbnails.
        let thumbnailSource = remote.size(coveringShorterSide: thumbnailSide)?.url ?? largest.url
        var row = Photo(identifier: "f\(photo.id)", source: .flickr(id: photo.id),
                        uploaded: photo.dateUpload.flatMap(TimeInterval.init).map(Date.init(timeIntervalSince1970:)) ?? now,
                        checksum: ContentHash.hex(thumbnailSource))
        row.title = CleanText.line(photo.title).nilIfBlank
        row.description = plainText(photo.description).nilIfBlank
        row.taken = photo.dateTaken.flatMap(LocalDateTime.date(from:))
        (row.width, row.height) = (largest.width, largest.height)
        (row.latitude, row.longitude) = (photo.latitude, photo.longitude)
        row.tags = photo.tags.split(separator: " ").map(String.init)
        row.remote = remote
        var imported = PhotoImport(row, person: (photo.ownerName ?? owner.name)?.nilIfBlank ?? ownerID, personKey: "flickr:\(ownerID)",
                                   place: place?.name, region: place?.region)
        imported.fingerprint = fingerprint(imported)
        return imported
    }

    /// Everything the model keeps of a photo, hashed: an import that finds it the same skips it.
    static func fingerprint(_ photo: PhotoImport) -> String {
        var values = photo
        values.fingerprint = ""
        return ContentHash.hex(encoding: values)
    }

    /// What flickr.places.getInfo says, as a place: the locality, or the most detailed level that
    /// has a name, then the region and the country; the region is the region, else the country.
    static func place(_ info: FlickrPlaceInfo) -> FlickrPlace? {
        let detail = info.locality ?? info.county ?? info.region ?? info.country
        var parts: [String] = []
        for part in [detail, info.region, info.country].compactMap({ $0.map(CleanText.line)?.nilIfBlank }) where !parts.contains(part) {
            parts.append(part)
        }
        guard !parts.isEmpty else { return nil }
        let region = (info.region ?? info.country).flatMap { CleanText.line($0).nilIfBlank } ?? parts[0]
        return FlickrPlace(placeId: info.placeID, name: parts.joined(separator: ", "), region: region)
    }

    /// Flickr's descriptions are HTML; pages show them as text, never as markup: tags go (a
    /// line break stays one), entities become their characters, control characters go.
    static func plainText(_ html: String) -> String {
        var text = html.replacingOccurrences(of: #"<br\s*/?>"#, with: "\n", options: [.regularExpression, .caseInsensitive])
        text = text.replacingOccurrences(of: #"<(script|style)\b[^>]*>.*?</\1\s*>"#, with: "",
                                         options: [.regularExpression, .caseInsensitive])
        text = text.replacingOccurrences(of: #"<[^>]*>"#, with: "", options: .regularExpression)
        return CleanText.paragraph(decodingEntities(text)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func decodingEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{a0}"]
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semicolon = after.prefix(10).firstIndex(of: ";") {
                let name = String(after[..<semicolon])
                let scalar: Unicode.Scalar? = name.hasPrefix("#x") || name.hasPrefix("#X")
                    ? UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                    : name.hasPrefix("#") ? UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init) : nil
                if let replacement = scalar.map({ String(Character($0)) }) ?? named[name] {
                    result += replacement
                    rest = after[after.index(after: semicolon)...]
                    continue
                }
            }
            result += "&"
            rest = after
        }
        return result + rest
    }
}

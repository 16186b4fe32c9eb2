import Foundation

// The shapes of Flickr's REST answers (format=json), read leniently: Flickr sends numbers as
// strings or as numbers depending on the method and the day, text as `{"_content": "…"}`, and
// leaves out what a photo does not have.

/// A number Flickr may send as a string ("pages": "12") or as a number ("perpage": 100).
struct FlickrNumber: Decodable, Sendable, Equatable {
    var value: Double?

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            value = number
        } else if let text = try? container.decode(String.self) {
            value = Double(text.trimmingCharacters(in: .whitespaces))
        } else {
            value = nil
        }
    }

    var int: Int? { value.flatMap { $0.isFinite && abs($0) < 1e15 ? Int($0) : nil } }
}

/// Text as Flickr wraps it: `{"_content": "…"}`, or now and then a bare string.
struct FlickrText: Decodable, Sendable, Equatable {
    var text: String

    private enum Keys: String, CodingKey { case content = "_content" }

    init(from decoder: Decoder) throws {
        if let bare = try? decoder.singleValueContainer().decode(String.self) {
            text = bare
        } else {
            text = (try decoder.container(keyedBy: Keys.self).decodeIfPresent(String.self, forKey: .content)) ?? ""
        }
    }
}

/// `{"stat": "fail", "code": 100, "message": "Invalid API Key (Key has invalid format)"}`
struct FlickrFailure: Decodable, Sendable {
    var stat: String
    var code: FlickrNumber?
    var message: String?
}

/// One page of photos: flickr.photos.search and flickr.people.getPublicPhotos answer
/// `{"photos": {…}}`, flickr.photosets.getPhotos `{"photoset": {…}}`, which also names the
/// owner once for all its photos.
struct FlickrPhotoPage: Decodable, Sendable {
    var page: Int
    var pages: Int
    var total: Int
    var photos: [FlickrPhoto]
    /// A photoset's owner, for photos that do not name theirs.
    var owner: String?
    var ownerName: String?

    private enum Outer: String, CodingKey { case photos, photoset }
    private enum Keys: String, CodingKey { case page, pages, total, photo, owner, ownername }

    init(from decoder: Decoder) throws {
        let outer = try decoder.container(keyedBy: Outer.self)
        let body = try outer.contains(.photos)
            ? outer.nestedContainer(keyedBy: Keys.self, forKey: .photos)
            : outer.nestedContainer(keyedBy: Keys.self, forKey: .photoset)
        page = try body.decodeIfPresent(FlickrNumber.self, forKey: .page)?.int ?? 1
        pages = try body.decodeIfPresent(FlickrNumber.self, forKey: .pages)?.int ?? 1
        total = try body.decodeIfPresent(FlickrNumber.self, forKey: .total)?.int ?? 0
        photos = try body.decodeIfPresent([FlickrPhoto].self, forKey: .photo) ?? []
        owner = try body.decodeIfPresent(String.self, forKey: .owner)
        ownerName = try body.decodeIfPresent(String.self, forKey: .ownername)
    }
}

/// A photo as a search lists it, with the extras Folio asks for.
package struct FlickrPhoto: Decodable, Sendable, Equatable {
    /// One of the sized image URLs (`url_z`, `width_z`, `height_z`).
    struct Size: Sendable, Equatable {
        var label: String
        var url: String
        var width: Int
        var height: Int
    }

    var id: String
    var owner: String?
    var ownerName: String?
    var title: String
    var description: String
    /// Seconds since 1970, as a string.
    var dateUpload: String?
    /// "2006-06-19 15:24:48", the camera's local time.
    var dateTaken: String?
    var latitude: Double?
    var longitude: Double?
    var placeID: String?
    var license: String?
    var tags: String
    var originalFormat: String?
    /// Smallest first.
    var sizes: [Size]

    static let sizeLabels = ["sq", "q", "t", "s", "n", "m", "z", "c", "b", "h", "k", "o"]

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
        init(_ name: String) { stringValue = name }
    }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        func text(_ name: String) -> String? {
            if let string = try? c.decodeIfPresent(String.self, forKey: Key(name)) { return string }
            return (try? c.decodeIfPresent(FlickrNumber.self, forKey: Key(name)))?.flatMap { $0.value.map { number in
                number == number.rounded() ? String(Int(number)) : String(number)
            } }
        }
        func number(_ name: String) -> Double? {
            (try? c.decodeIfPresent(FlickrNumber.self, forKey: Key(name)))??.value
        }
        guard let id = text("id"), !id.isEmpty else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: "a photo without an id"))
        }
        self.id = id
        owner = text("owner")
        ownerName = text("ownername")
        title = text("title") ?? ""
        description = (try? c.decodeIfPresent(FlickrText.self, forKey: Key("description")))??.text ?? ""
        dateUpload = text("dateupload")
        dateTaken = text("datetaken")
        // 0, 0 is how Flickr says "no geo", not a place in the Gulf of Guinea.
        let lat = number("latitude"), lon = number("longitude")
        if let lat, let lon, lat != 0 || lon != 0, (-90...90).contains(lat), (-180...180).contains(lon) {
            (latitude, longitude) = (lat, lon)
        }
        placeID = text("place_id").flatMap { $0.isEmpty ? nil : $0 }
        license = text("license")
        tags = text("tags") ?? ""
        originalFormat = text("originalformat")
        sizes = Self.sizeLabels.compactMap { label in
            guard let url = text("url_\(label)"), !url.isEmpty,
                  let width = number("width_\(label)").flatMap({ $0 > 0 && $0 < 1e6 ? Int($0) : nil }),
                  let height = number("height_\(label)").flatMap({ $0 > 0 && $0 < 1e6 ? Int($0) : nil })
            else { return nil }
            return Size(label: label, url: url, width: width, height: height)
        }.sorted { $0.width * $0.height < $1.width * $1.height }
    }
}

/// flickr.places.getInfo: a place and the places it lies in. The place's own name is in
/// `name` (not `_content`); each level (`locality`, `region`, …) is `{"_content": "…"}`, and a
/// region-level place has no `locality`.
struct FlickrPlaceInfo: Decodable, Sendable {
    var placeID: String
    var name: String?
    var placeType: String?
    var neighbourhood: String?
    var locality: String?
    var county: String?
    var region: String?
    var country: String?

    private enum Outer: String, CodingKey { case place }
    private enum Keys: String, CodingKey {
        case placeID = "place_id", name, placeType = "place_type", neighbourhood, locality, county, region, country
    }

    init(from decoder: Decoder) throws {
        let place = try decoder.container(keyedBy: Outer.self).nestedContainer(keyedBy: Keys.self, forKey: .place)
        placeID = try place.decode(String.self, forKey: .placeID)
        name = try? place.decodeIfPresent(String.self, forKey: .name)
        placeType = try? place.decodeIfPresent(String.self, forKey: .placeType)
        func level(_ key: Keys) -> String? {
            ((try? place.decodeIfPresent(FlickrText.self, forKey: key)) ?? nil)?.text.nilIfBlank
        }
        neighbourhood = level(.neighbourhood)
        locality = level(.locality)
        county = level(.county)
        region = level(.region)
        country = level(.country)
    }
}

/// flickr.people.findByUsername: `{"user": {"id": "12037949754@N01", …}}`.
struct FlickrUser: Decodable, Sendable {
    var id: String

    private enum Outer: String, CodingKey { case user }
    private enum Keys: String, CodingKey { case id, nsid }

    init(from decoder: Decoder) throws {
        let user = try decoder.container(keyedBy: Outer.self).nestedContainer(keyedBy: Keys.self, forKey: .user)
        id = try user.decodeIfPresent(String.self, forKey: .nsid) ?? user.decode(String.self, forKey: .id)
    }
}

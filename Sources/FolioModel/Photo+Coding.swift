import FolioImaging
import Foundation
import GRDB

extension Photo {
    /// The columns queries name, made from the coding keys (see `Region.Columns`).
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let identifier = Column(CodingKeys.identifier)
        public static let taken = Column(CodingKeys.taken)
        public static let favorite = Column(CodingKeys.favorite)
    }
}

extension Photo {
    /// The columns, in the order the photo table has them (and `stamp` takes them).
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, identifier, source, title, description, descriptionHTML, personId, placeId, taken, uploaded, width,
             height, favorite, catalogFavorite, checksum, fileStamp, fingerprint, format, orientation, colour,
             transparent, animated, motion, camera, exposure, latitude, longitude, tags, lastError, remote, flickrPlaceId
    }

    // Written out because some properties are held in `rare`: as the compiler would write them
    // for stored properties (optionals present or not), so rows and JSON are as they were.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try values.decode(Int64.self, forKey: .id), identifier: try values.decode(String.self, forKey: .identifier),
            source: try values.decode(PhotoSource.self, forKey: .source),
            title: try values.decodeIfPresent(String.self, forKey: .title),
            description: try values.decodeIfPresent(String.self, forKey: .description),
            descriptionHTML: try values.decodeIfPresent(String.self, forKey: .descriptionHTML),
            personId: try values.decode(Int64.self, forKey: .personId),
            placeId: try values.decodeIfPresent(Int64.self, forKey: .placeId),
            taken: try values.decodeIfPresent(Date.self, forKey: .taken), uploaded: try values.decode(Date.self, forKey: .uploaded),
            width: try values.decode(Int.self, forKey: .width), height: try values.decode(Int.self, forKey: .height),
            favorite: try values.decode(Bool.self, forKey: .favorite),
            catalogFavorite: try values.decode(Bool.self, forKey: .catalogFavorite),
            checksum: try values.decode(String.self, forKey: .checksum), fileStamp: try values.decode(String.self, forKey: .fileStamp),
            fingerprint: try values.decode(String.self, forKey: .fingerprint),
            format: try values.decode(ImageFormat.self, forKey: .format), orientation: try values.decode(Int.self, forKey: .orientation),
            colour: try values.decode(SourceColour.self, forKey: .colour), transparent: try values.decode(Bool.self, forKey: .transparent),
            animated: try values.decode(Bool.self, forKey: .animated),
            motion: try values.decodeIfPresent(PhotoMotion.self, forKey: .motion),
            camera: try values.decodeIfPresent(String.self, forKey: .camera),
            exposure: try values.decodeIfPresent(String.self, forKey: .exposure),
            latitude: try values.decodeIfPresent(Double.self, forKey: .latitude),
            longitude: try values.decodeIfPresent(Double.self, forKey: .longitude),
            tags: try values.decode([String].self, forKey: .tags),
            lastError: try values.decodeIfPresent(String.self, forKey: .lastError),
            remote: try values.decodeIfPresent(RemotePhoto.self, forKey: .remote),
            flickrPlaceId: try values.decodeIfPresent(String.self, forKey: .flickrPlaceId))
    }

    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(id, forKey: .id)
        try values.encode(identifier, forKey: .identifier)
        try values.encode(source, forKey: .source)
        try values.encodeIfPresent(title, forKey: .title)
        try values.encodeIfPresent(description, forKey: .description)
        try values.encodeIfPresent(descriptionHTML, forKey: .descriptionHTML)
        try values.encode(personId, forKey: .personId)
        try values.encodeIfPresent(placeId, forKey: .placeId)
        try values.encodeIfPresent(taken, forKey: .taken)
        try values.encode(uploaded, forKey: .uploaded)
        try values.encode(width, forKey: .width)
        try values.encode(height, forKey: .height)
        try values.encode(favorite, forKey: .favorite)
        try values.encode(catalogFavorite, forKey: .catalogFavorite)
        try values.encode(checksum, forKey: .checksum)
        try values.encode(fileStamp, forKey: .fileStamp)
        try values.encode(fingerprint, forKey: .fingerprint)
        try values.encode(format, forKey: .format)
        try values.encode(orientation, forKey: .orientation)
        try values.encode(colour, forKey: .colour)
        try values.encode(transparent, forKey: .transparent)
        try values.encode(animated, forKey: .animated)
        try values.encodeIfPresent(motion, forKey: .motion)
        try values.encodeIfPresent(camera, forKey: .camera)
        try values.encodeIfPresent(exposure, forKey: .exposure)
        try values.encodeIfPresent(latitude, forKey: .latitude)
        try values.encodeIfPresent(longitude, forKey: .longitude)
        try values.encode(tags, forKey: .tags)
        try values.encodeIfPresent(lastError, forKey: .lastError)
        try values.encodeIfPresent(remote, forKey: .remote)
        try values.encodeIfPresent(flickrPlaceId, forKey: .flickrPlaceId)
    }
}

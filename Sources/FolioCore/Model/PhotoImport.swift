import Foundation

/// Everything the model needs to know about one photo being imported, whatever its origin.
public struct PhotoImport: Sendable, Equatable {
    public var source: PhotoSource
    public var identifier: String
    public var title: String?
    public var description: String?
    public var person: String
    /// The full place name; nil for a photo taken nowhere in particular.
    public var place: String?
    /// The place's region; derived from the place name when nil.
    public var region: String?
    public var taken: Date?
    public var uploaded: Date
    public var width: Int
    public var height: Int
    public var favorite: Bool
    public var checksum: String
    public var fileStamp: String
    public var fingerprint: String
    public var format: String
    public var orientation: Int
    public var camera: String?
    public var exposure: String?
    public var latitude: Double?
    public var longitude: Double?
    public var tags: [String]

    public init(
        source: PhotoSource, identifier: String, title: String? = nil, description: String? = nil,
        person: String, place: String? = nil, region: String? = nil, taken: Date? = nil,
        uploaded: Date, width: Int, height: Int, favorite: Bool = false, checksum: String,
        fileStamp: String = "", fingerprint: String = "", format: String = "jpeg", orientation: Int = 1,
        camera: String? = nil, exposure: String? = nil, latitude: Double? = nil, longitude: Double? = nil,
        tags: [String] = []
    ) {
        self.source = source
        self.identifier = identifier
        self.title = title
        self.description = description
        self.person = person
        self.place = place
        self.region = region
        self.taken = taken
        self.uploaded = uploaded
        self.width = width
        self.height = height
        self.favorite = favorite
        self.checksum = checksum
        self.fileStamp = fileStamp
        self.fingerprint = fingerprint
        self.format = format
        self.orientation = orientation
        self.camera = camera
        self.exposure = exposure
        self.latitude = latitude
        self.longitude = longitude
        self.tags = tags
    }
}

extension PhotoImport {
    /// Every text without control characters.
    func cleaned() -> PhotoImport {
        var copy = self
        copy.title = title.map(CleanText.line)
        copy.description = description.map(CleanText.paragraph)
        copy.person = CleanText.line(person)
        copy.place = place.map(CleanText.line)
        copy.region = region.map(CleanText.line)
        copy.camera = camera.map(CleanText.line)
        copy.exposure = exposure.map(CleanText.line)
        copy.tags = tags.map(CleanText.line)
        return copy
    }
}

/// A set of changes applied to the model in one transaction: all of it or none of it.
public struct ImportBatch: Sendable {
    public var upserts: [PhotoImport]
    /// Sources of photos that no longer exist.
    public var removals: [PhotoSource]

    public init(upserts: [PhotoImport] = [], removals: [PhotoSource] = []) {
        self.upserts = upserts
        self.removals = removals
    }

    public var isEmpty: Bool { upserts.isEmpty && removals.isEmpty }
}

/// What the model already holds about an imported photo, to tell what changed.
public struct PhotoStamp: Sendable, Equatable {
    public var identifier: String
    public var checksum: String
    /// The file's size and modification time when it was last read.
    public var fileStamp: String
    /// The catalog record it was last imported with.
    public var fingerprint: String
}

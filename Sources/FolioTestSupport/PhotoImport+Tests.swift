import FolioImaging
import FolioModel
import Foundation

extension PhotoImport {
    /// A photo to import, as tests describe one: what they set by name, the rest as a new photo has it.
    package init(
        source: PhotoSource, identifier: String, title: String? = nil, description: String? = nil,
        person: String, place: String? = nil, region: String? = nil, taken: Date? = nil,
        uploaded: Date, width: Int, height: Int, favorite: Bool = false, checksum: String,
        fileStamp: String = "", fingerprint: String = "", format: ImageFormat = .jpeg, orientation: Int = 1,
        camera: String? = nil, exposure: String? = nil, latitude: Double? = nil, longitude: Double? = nil,
        tags: [String] = [], personKey: String? = nil, remote: RemotePhoto? = nil, colour: SourceColour = .sRGB,
        transparent: Bool = false, animated: Bool = false
    ) {
        var photo = Photo(identifier: identifier, source: source, uploaded: uploaded, checksum: checksum)
        photo.title = title
        photo.description = description
        photo.taken = taken
        (photo.width, photo.height) = (width, height)
        photo.favorite = favorite
        (photo.format, photo.orientation, photo.colour) = (format, orientation, colour)
        (photo.camera, photo.exposure) = (camera, exposure)
        (photo.latitude, photo.longitude) = (latitude, longitude)
        photo.tags = tags
        photo.remote = remote
        (photo.transparent, photo.animated) = (transparent, animated)
        self.init(photo, person: person, personKey: personKey, place: place, region: region)
        (self.fileStamp, self.fingerprint) = (fileStamp, fingerprint)
    }
}

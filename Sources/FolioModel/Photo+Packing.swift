import FolioCore
import FolioImaging
import Foundation

extension Photo {
    /// Writes every property (`stampedProperties`, in that order) as packed bytes: how a
    /// snapshot keeps its photos (`GallerySnapshot`). `init(unpacking:)` reads them back.
    func pack(into out: inout PackedWriter) {
        out.number(id)
        out.text(identifier)
        switch source {
        case .content(let path):
            out.flag(false)
            out.text(path)
        case .flickr(let id):
            out.flag(true)
            out.text(id)
        }
        out.text(title)
        out.text(description)
        out.text(descriptionHTML)
        out.number(personId)
        out.flag(placeId != nil)
        if let placeId { out.number(placeId) }
        out.flag(taken != nil)
        if let taken { out.bits(taken.timeIntervalSinceReferenceDate.bitPattern) }
        out.bits(uploaded.timeIntervalSinceReferenceDate.bitPattern)
        out.number(Int64(width))
        out.number(Int64(height))
        out.flag(favorite)
        out.flag(catalogFavorite)
        out.text(checksum)
        out.text(fileStamp)
        out.text(fingerprint)
        out.text(format.rawValue)
        out.number(Int64(orientation))
        out.text(colour.rawValue)
        out.flag(transparent)
        out.flag(animated)
        out.flag(motion != nil)
        if let motion {
            out.text(motion.kind.rawValue)
            out.bits(motion.duration.bitPattern)
            out.text(motion.clip)
            out.text(motion.clipChecksum)
        }
        out.text(camera)
        out.text(exposure)
        out.flag(latitude != nil)
        if let latitude { out.bits(latitude.bitPattern) }
        out.flag(longitude != nil)
        if let longitude { out.bits(longitude.bitPattern) }
        out.number(Int64(tags.count))
        for tag in tags { out.text(tag) }
        out.text(lastError)
        out.flag(remote != nil)
        if let remote {
            out.text(remote.pageURL)
            out.text(remote.license)
            out.text(remote.placeID)
            out.number(Int64(remote.sizes.count))
            for size in remote.sizes {
                out.text(size.label)
                out.text(size.url)
                out.number(Int64(size.width))
                out.number(Int64(size.height))
            }
        }
        out.text(flickrPlaceId)
    }

    /// A photo as `pack(into:)` wrote it.
    init(unpacking bytes: UnsafeRawBufferPointer) {
        var read = PackedReader(bytes)
        let id = read.number()
        let identifier = read.text()
        let source: PhotoSource = read.flag() ? .flickr(id: read.text()) : .content(path: read.text())
        let title = read.optionalText()
        let description = read.optionalText()
        let descriptionHTML = read.optionalText()
        let personId = read.number()
        let placeId = read.flag() ? read.number() : nil
        let taken = read.flag() ? Date(timeIntervalSinceReferenceDate: Double(bitPattern: read.bits())) : nil
        let uploaded = Date(timeIntervalSinceReferenceDate: Double(bitPattern: read.bits()))
        let width = Int(read.number())
        let height = Int(read.number())
        let favorite = read.flag()
        let catalogFavorite = read.flag()
        let checksum = read.text()
        let fileStamp = read.text()
        let fingerprint = read.text()
        let format = ImageFormat(rawValue: read.text()) ?? .jpeg
        let orientation = Int(read.number())
        let colour = SourceColour(rawValue: read.text()) ?? .sRGB
        let transparent = read.flag()
        let animated = read.flag()
        var motion: PhotoMotion?
        if read.flag() {
            let kind = PhotoMotion.Kind(rawValue: read.text()) ?? .video
            let duration = Double(bitPattern: read.bits())
            motion = PhotoMotion(kind: kind, duration: duration, clip: read.optionalText(), clipChecksum: read.optionalText())
        }
        let camera = read.optionalText()
        let exposure = read.optionalText()
        let latitude = read.flag() ? Double(bitPattern: read.bits()) : nil
        let longitude = read.flag() ? Double(bitPattern: read.bits()) : nil
        let tags = (0..<Int(read.number())).map { _ in read.text() }
        let lastError = read.optionalText()
        var remote: RemotePhoto?
        if read.flag() {
            let (pageURL, license, placeID) = (read.text(), read.optionalText(), read.optionalText())
            let sizes = (0..<Int(read.number())).map { _ in
                RemotePhoto.Size(label: read.text(), url: read.text(), width: Int(read.number()), height: Int(read.number()))
            }
            remote = RemotePhoto(pageURL: pageURL, license: license, sizes: sizes, placeID: placeID)
        }
        let flickrPlaceId = read.optionalText()
        self.init(id: id, identifier: identifier, source: source, title: title, description: description,
                  descriptionHTML: descriptionHTML, personId: personId, placeId: placeId, taken: taken, uploaded: uploaded,
                  width: width, height: height, favorite: favorite, catalogFavorite: catalogFavorite, checksum: checksum,
                  fileStamp: fileStamp, fingerprint: fingerprint, format: format, orientation: orientation, colour: colour,
                  transparent: transparent, animated: animated, motion: motion, camera: camera, exposure: exposure,
                  latitude: latitude, longitude: longitude, tags: tags, lastError: lastError, remote: remote,
                  flickrPlaceId: flickrPlaceId)
    }
}

extension Photo {
    /// The row the import writes for `photo`. Every property is set here and none has a
    /// default, so a property added to `Photo` does not compile until the import fills it.
    init(importing photo: PhotoImport, personId: Int64, placeId: Int64?) {
        self.init(
            id: GalleryDatabase.unwrittenID, identifier: photo.identifier, source: photo.source, title: photo.title,
            description: photo.description, descriptionHTML: photo.descriptionHTML, personId: personId, placeId: placeId,
            taken: photo.taken, uploaded: photo.uploaded, width: photo.width, height: photo.height,
            favorite: photo.favorite, catalogFavorite: photo.favorite, checksum: photo.checksum,
            fileStamp: photo.fileStamp, fingerprint: photo.fingerprint, format: photo.format,
            orientation: photo.orientation, colour: photo.colour, transparent: photo.transparent,
            animated: photo.animated, motion: photo.motion, camera: photo.camera, exposure: photo.exposure,
            latitude: photo.latitude, longitude: photo.longitude, tags: photo.tags,
            // Read again, so the last build's failure is forgotten until this one fails it too.
            lastError: nil, remote: photo.remote,
            // A photo whose Flickr place is not known yet waits on its id.
            flickrPlaceId: placeId == nil ? photo.remote?.placeID : nil)
    }
}

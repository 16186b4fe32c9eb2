import FolioCore
import Foundation

extension GalleryPhoto {
    /// One number for everything `photo` holds: the same photo, the same number; any property
    /// changed, another. What a build tells a changed photo by: the hash of the record a snapshot
    /// packs it in, which holds every property (`pack(_:into:)`), so the number comes with the packing.
    static func digest(of photo: Photo) -> UInt64 {
        var writer = PackedWriter()
        try? pack(photo, into: &writer)
        return writer.bytes.withUnsafeBytes { ContentHash.hash($0) }
    }

    /// One number for what `photo`'s published media are made from (the rest is how a build
    /// names them, by its settings and this Folio, the same for every photo of a build): the same
    /// as the last build's, the photo needs no image work and its media are the files that build
    /// left (`MediaLedger`).
    static func mediaDigest(of photo: Photo) -> UInt64 {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        func add(_ text: String) {
            var text = text
            text.withUTF8 { bytes.append(contentsOf: $0) }
            bytes.append(0)
        }
        func add(_ number: Int64) { withUnsafeBytes(of: number.littleEndian) { bytes.append(contentsOf: $0) } }
        add(photo.id)
        add(photo.source.text)
        add(photo.checksum)
        add(Int64(photo.width) << 32 | Int64(photo.height))
        // A favorite's media differ only from Flickr (`PlanStep.source(of:settings:paths:contentRoot:)`).
        let remoteFavorite = photo.favorite && photo.remote != nil
        add(Int64(photo.orientation) << 8 | (remoteFavorite ? 4 : 0) | (photo.transparent ? 2 : 0) | (photo.animated ? 1 : 0))
        add(photo.format.rawValue)
        add(photo.colour.rawValue)
        if let motion = photo.motion {
            add("\(motion.kind.rawValue) \(motion.duration) \(motion.clip ?? "") \(motion.clipChecksum ?? "")")
        }
        for size in photo.remote?.sizes ?? [] {
            add(size.url)
            add(Int64(size.width) << 32 | Int64(size.height))
        }
        return bytes.withUnsafeBytes { ContentHash.hash($0) }
    }
}

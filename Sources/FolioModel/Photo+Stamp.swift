import FolioCore
import Foundation

extension Photo {
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

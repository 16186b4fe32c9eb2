import FolioCore
import FolioImaging
import FolioMetadata
import FolioVideo
import Foundation

extension ImportStep {
    /// What the import takes from a video file: its container's metadata as a photo's, the
    /// checksum of its bytes (`old` when the file is unchanged) and its duration. No frame is
    /// decoded here; the poster is made with the other images.
    struct ReadVideo {
        var metadata: ImageMetadata
        var described: PhotoDescription
        var checksum: String
        var duration: Double
    }

    static func readVideo(_ url: URL, old: String?, pixelLimit: Int) throws -> ReadVideo {
        let video = try VideoFile(url: url, pixelLimit: pixelLimit).metadata
        // The poster is published as a JPEG, upright: that is the photo's format and orientation.
        let metadata = ImageMetadata(format: .jpeg, width: video.width, height: video.height, orientation: 1,
                                     taken: video.taken, camera: video.camera,
                                     latitude: video.latitude, longitude: video.longitude)
        return ReadVideo(metadata: metadata, described: PhotoDescription(title: video.title, description: video.description),
                         checksum: try old ?? checksum(of: url), duration: video.duration)
    }

    /// The checksum of a file that may be gigabytes, read a piece at a time: the hash of its
    /// pieces' hashes (not the checksum of the same bytes read whole; a video's is only ever
    /// compared with a video's).
    static func checksum(of url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hashes = Data()
        while let piece = try handle.read(upToCount: 8 << 20), !piece.isEmpty {
            withUnsafeBytes(of: ContentHash.hash(piece).littleEndian) { hashes.append(contentsOf: $0) }
        }
        return ContentHash.hex(hashes, seed: 0x7669_6465_6f)
    }
}

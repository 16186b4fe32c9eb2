import Foundation

/// Walks the marker segments of a JPEG file up to its image data, where EXIF, XMP, ICC
/// profiles and comments live.
package enum JPEGSegments {
    package struct Segment {
        package var marker: Int
        /// From the 0xFF of the marker to the end of the segment.
        var range: Range<Int>
        /// The bytes after the length field.
        package var payload: Range<Int>
    }

    /// The segments before the first scan (SOS), in file order. Stops quietly at anything
    /// malformed: callers only look for things, and the decoder reports the damage.
    package static func segments(_ bytes: ByteReader) -> [Segment] {
        var found: [Segment] = []
        var offset = 2
        while let prefix = bytes.uint8(at: offset), prefix == 0xFF, let marker = bytes.uint8(at: offset + 1) {
            switch marker {
            case 0xFF:
                offset += 1  // fill byte before a marker
            case 0x01, 0xD0...0xD7:
                offset += 2  // markers without a length
            case 0xDA, 0xD9:
                return found  // image data starts: nothing more to find
            default:
                guard let length = bytes.uint16BE(at: offset + 2), length >= 2, offset + 2 + length <= bytes.count else {
                    return found
                }
                found.append(Segment(marker: marker, range: offset..<(offset + 2 + length), payload: (offset + 4)..<(offset + 2 + length)))
                offset += 2 + length
            }
        }
        return found
    }

    /// The payload of the APP1 segment that holds EXIF ("Exif\0\0" and the TIFF structure).
    /// Found by walking the markers ourselves because XMP also lives in APP1 and often comes
    /// first, which libexif's own search trips on.
    static func exifPayload(_ data: Data) -> Data? {
        let bytes = ByteReader(data)
        let exif = segments(bytes).first { $0.marker == 0xE1 && bytes.matches(Array(ImageHeader.exifPrefix), at: $0.payload.lowerBound) }
        return exif.flatMap { bytes.slice(at: $0.payload.lowerBound, length: $0.payload.count) }
    }
}

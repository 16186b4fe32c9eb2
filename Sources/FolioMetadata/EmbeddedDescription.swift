import FolioCore
import FolioImaging
import Foundation

/// Finds the photographer's metadata inside an image file: XMP (JPEG APP1, PNG `iTXt`, WebP
/// `XMP ` chunk, a TIFF's or DNG's tag 700) over IPTC-IIM (JPEG APP13), as the Metadata Working
/// Group's guidance has it.
public enum EmbeddedDescription {
    /// The description and, when a packet could not be read, why (the photo is still published).
    public static func read(_ data: Data, format: ImageFormat) -> (description: PhotoDescription, problem: String?) {
        let bytes = ByteReader(data)
        var xmp: Data?
        var iptc: PhotoDescription?
        switch format {
        case .jpeg:
            for segment in JPEGSegments.segments(bytes) {
                let start = segment.payload.lowerBound
                if segment.marker == 0xE1, xmp == nil, bytes.matches(XMPReader.embeddedPrefix, at: start) {
                    xmp = bytes.slice(at: start + XMPReader.embeddedPrefix.count, length: segment.payload.count - XMPReader.embeddedPrefix.count)
                } else if segment.marker == 0xED, iptc == nil, let payload = bytes.slice(at: start, length: segment.payload.count) {
                    iptc = IPTCReader.read(photoshop: payload)
                }
            }
        case .png: xmp = pngXMP(bytes)
        case .webp: xmp = webpXMP(bytes)
        // A TIFF's or a DNG's first directory (tag 700): how Lightroom and Photoshop export them.
        case .tiff, .raw: xmp = bytes.tiffXMP(limit: ReadingLimits.xmpBytes)
        default: break
        }
        var description = iptc ?? PhotoDescription()
        var problem: String?
        if let xmp {
            switch XMPReader.read(xmp) {
            case .success(let found): description = found.filling(from: description)
            case .failure(let failure): problem = "embedded \(failure.reason); ignored"
            }
        }
        return (description, problem)
    }

    /// The text of an uncompressed `iTXt` chunk keyed "XML:com.adobe.xmp", which is how XMP goes in a PNG.
    static func pngXMP(_ bytes: ByteReader) -> Data? {
        var offset = 8
        let key = Array("XML:com.adobe.xmp\0".utf8)
        while let length = bytes.uint32BE(at: offset), offset + 12 + length <= bytes.count {
            if bytes.matches(ascii: "iTXt", at: offset + 4), bytes.matches(key, at: offset + 8),
               bytes.uint8(at: offset + 8 + key.count) == 0 {
                // Then the compression method, an empty language tag and an empty translated keyword.
                var start = offset + 8 + key.count + 2
                for _ in 0..<2 {
                    while start < offset + 8 + length, bytes.uint8(at: start) != 0 { start += 1 }
                    start += 1
                }
                return start <= offset + 8 + length ? bytes.slice(at: start, length: offset + 8 + length - start) : nil
            }
            if bytes.matches(ascii: "IDAT", at: offset + 4) || bytes.matches(ascii: "IEND", at: offset + 4) { return nil }
            offset += 12 + length
        }
        return nil
    }

    /// The `XMP ` chunk of an extended WebP file.
    static func webpXMP(_ bytes: ByteReader) -> Data? {
        var offset = 12
        while let length = bytes.uint32LE(at: offset + 4), offset + 8 + length <= bytes.count {
            if bytes.matches(ascii: "XMP ", at: offset) { return bytes.slice(at: offset + 8, length: length) }
            offset += 8 + ((length + 1) & ~1)
        }
        return nil
    }
}

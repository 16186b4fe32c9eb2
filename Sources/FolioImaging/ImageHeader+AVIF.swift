import Foundation

extension ImageHeader {
    /// AVIF: image sizes live in `ispe` properties (meta > iprp > ipco). The largest one is the
    /// primary image or its grid; thumbnails and alpha planes are never bigger, so it is the safe
    /// number for the pixel limit.
    static func readAVIF(_ bytes: ByteReader) -> ImageHeader? {
        guard let meta = box("meta", in: 0..<bytes.count, of: bytes),
              let iprp = box("iprp", in: (meta.lowerBound + 4)..<meta.upperBound, of: bytes),  // meta is a full box
              let ipco = box("ipco", in: iprp, of: bytes)
        else { return nil }
        var best: (width: Int, height: Int)?
        for ispe in boxes("ispe", in: ipco, of: bytes) {
            guard let width = bytes.uint32BE(at: ispe.lowerBound + 4),
                  let height = bytes.uint32BE(at: ispe.lowerBound + 8) else { continue }
            // In floating point: two 32-bit sides can multiply past Int's range.
            if Double(width) * Double(height) > (best.map { Double($0.width) * Double($0.height) } ?? -1) { best = (width, height) }
        }
        guard let best else { return nil }
        return ImageHeader(format: .avif, width: best.width, height: best.height, exif: nil)
    }

    /// The ICC profile of a `colr` property of type `prof` or `rICC` (meta > iprp > ipco), as
    /// encoders write a source's profile; nil when there is none (an `nclx` colour is named by
    /// code points, and libgd's decoder ignores those as it does profiles). The first one is
    /// taken: the primary image's, as encoders order them.
    static func avifICCProfile(_ bytes: ByteReader) -> Data? {
        guard let meta = box("meta", in: 0..<bytes.count, of: bytes),
              let iprp = box("iprp", in: (meta.lowerBound + 4)..<meta.upperBound, of: bytes),
              let ipco = box("ipco", in: iprp, of: bytes)
        else { return nil }
        for colr in boxes("colr", in: ipco, of: bytes) where colr.count > 4 {
            if bytes.matches(ascii: "prof", at: colr.lowerBound) || bytes.matches(ascii: "rICC", at: colr.lowerBound) {
                return bytes.slice(at: colr.lowerBound + 4, length: colr.count - 4)
            }
        }
        return nil
    }

    static func box(_ type: String, in range: Range<Int>, of bytes: ByteReader) -> Range<Int>? {
        boxes(type, in: range, of: bytes).first
    }

    /// The payload ranges of the child boxes of `type` directly inside `range`.
    static func boxes(_ type: String, in range: Range<Int>, of bytes: ByteReader) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound, let size32 = bytes.uint32BE(at: offset) {
            var header = 8
            var size = size32
            if size32 == 1 {
                guard let large = bytes.uint64BE(at: offset + 8), large <= UInt64(Int.max) else { break }
                size = Int(large)
                header = 16
            } else if size32 == 0 {
                size = range.upperBound - offset  // the box runs to the end of its parent
            }
            guard size >= header, size <= range.upperBound - offset else { break }
            if bytes.matches(ascii: type, at: offset + 4) {
                found.append((offset + header)..<(offset + size))
            }
            offset += size
        }
        return found
    }
}

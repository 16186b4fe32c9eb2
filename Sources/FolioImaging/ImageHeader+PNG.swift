import Foundation

extension ImageHeader {
    /// PNG: IHDR is always the first chunk; an eXIf chunk, if any, comes before the image data.
    static func readPNG(_ bytes: ByteReader) -> ImageHeader? {
        guard bytes.matches(ascii: "IHDR", at: 12),
              let width = bytes.uint32BE(at: 16), let height = bytes.uint32BE(at: 20)
        else { return nil }
        var exif: Data?
        // Colour types 4 and 6 carry alpha; any type may name transparent colours in tRNS,
        // which comes before the image data, as eXIf does.
        let colourType = bytes.uint8(at: 25) ?? 2
        var hasAlpha = [4, 6].contains(colourType)
        var offset = 8
        while let length = bytes.uint32BE(at: offset), bytes.uint32BE(at: offset + 4) != nil {
            if bytes.matches(ascii: "IDAT", at: offset + 4) || bytes.matches(ascii: "IEND", at: offset + 4) { break }
            if bytes.matches(ascii: "tRNS", at: offset + 4) { hasAlpha = true }
            if bytes.matches(ascii: "eXIf", at: offset + 4), let tiff = bytes.slice(at: offset + 8, length: length) {
                exif = exifBlock(fromTIFF: tiff)
            }
            offset += 12 + length
        }
        // Colour types 0 and 4 are grey (with alpha); the rest RGB or a palette of RGB.
        let grey = [0, 4].contains(colourType)
        return ImageHeader(format: .png, width: width, height: height, exif: exif, channels: grey ? 1 : 3, hasAlpha: hasAlpha)
    }
}

extension ImageHeader {
    /// The PNG with only the chunks that make up its pixels (IHDR, PLTE, tRNS, IDAT, IEND),
    /// each checked against its CRC. libgd installs no libpng warning handler, so libpng prints
    /// warnings about damaged chunks, colour profiles and text straight to stderr, from any
    /// thread. Folio uses no profile or text, and refuses damage here, before libpng sees it.
    static func pngPixelChunks(_ data: Data) throws -> Data {
        let bytes = ByteReader(data)
        let kept = ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"]
        var result = Data(capacity: data.count)
        result += data.prefix(8)
        var offset = 8
        while true {
            guard let length = bytes.uint32BE(at: offset), length <= bytes.count - offset - 12,
                  let typeAndBody = bytes.slice(at: offset + 4, length: 4 + length),
                  let crc = bytes.uint32BE(at: offset + 8 + length)
            else { throw ImagingError.corrupt(.png, detail: "the file ends inside a chunk or before IEND") }
            let type = String(decoding: typeAndBody.prefix(4), as: UTF8.self)
            if kept.contains(type) {
                guard CRC32.checksum(typeAndBody) == UInt32(crc) else {
                    throw ImagingError.corrupt(.png, detail: "bad checksum in the \(type) chunk")
                }
                result += data.dropFirst(offset).prefix(12 + length)
            }
            if type == "IEND" { return result }
            offset += 12 + length
        }
    }
}

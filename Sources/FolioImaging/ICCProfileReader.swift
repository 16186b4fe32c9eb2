import Foundation

/// Finds the ICC colour profile a photo file embeds: JPEG's APP2 `ICC_PROFILE` chunks, put back
/// together in their numbered order; PNG's `iCCP` chunk, inflated; WebP's `ICCP` chunk; AVIF's
/// `colr` property. Every length is checked and the profile is bounded; a profile that cannot be
/// put together is said, in words for the report, and the photo is then taken as sRGB.
enum ICCProfileReader {
    enum Found: Equatable {
        /// No profile: sRGB, as browsers take such files.
        case none
        case profile(Data)
        case broken(String)
    }

    /// Larger than any real profile (the largest CMYK ones run to a few megabytes), small enough
    /// that a hostile file cannot make the import hold much.
    static let limit = 8 << 20

    static func read(_ data: Data, format: ImageFormat) -> Found {
        let found: Found
        switch format {
        case .jpeg: found = jpeg(data)
        case .png: found = png(data)
        case .webp: found = webp(data)
        // HEIC keeps its profile in the same ISO-BMFF `colr` property as AVIF.
        case .avif, .heic: found = avif(data)
        // A TIFF's profile (tag 34675) is not read yet: TIFFs are published as sRGB.
        case .gif, .tiff: found = .none
        // LibRaw develops into sRGB.
        case .raw: found = .none
        }
        guard case .profile(let profile) = found else { return found }
        // A profile starts with its own size: one cut short is missing its tags.
        guard let declared = ByteReader(profile).uint32BE(at: 0), declared >= 128 else {
            return .broken("the colour profile is too short to be one")
        }
        guard declared <= profile.count else {
            return .broken("the colour profile is cut short (\(profile.count) of \(declared) bytes)")
        }
        return .profile(profile.prefix(declared))
    }

    static let jpegMarker = Array("ICC_PROFILE".utf8) + [0]

    /// APP2 segments of "ICC_PROFILE\0", a chunk number from 1, the count of chunks, and that
    /// chunk's bytes; a profile larger than a segment spans several, which must all be there, once each.
    static func jpeg(_ data: Data) -> Found {
        let bytes = ByteReader(data)
        var chunks: [Int: Data] = [:]
        var expected: Int?
        var total = 0
        for segment in JPEGSegments.segments(bytes) where segment.marker == 0xE2 {
            let start = segment.payload.lowerBound
            guard bytes.matches(jpegMarker, at: start) else { continue }
            guard let number = bytes.uint8(at: start + 12), let count = bytes.uint8(at: start + 13),
                  number >= 1, count >= 1, number <= count
            else { return .broken("a colour profile chunk is numbered wrongly") }
            guard expected == nil || expected == count else {
                return .broken("the colour profile's chunks disagree on how many there are")
            }
            expected = count
            guard chunks[number] == nil else { return .broken("the colour profile has chunk \(number) twice") }
            let length = segment.payload.count - 14
            total += length
            guard total <= limit else { return .broken("the colour profile is larger than \(limit >> 20) MB") }
            chunks[number] = bytes.slice(at: start + 14, length: length)
        }
        guard let expected else { return .none }
        var profile = Data(capacity: total)
        for number in 1...expected {
            guard let chunk = chunks[number] else {
                return .broken("the colour profile is missing chunk \(number) of \(expected)")
            }
            profile += chunk
        }
        return .profile(profile)
    }

    /// `iCCP`: a name of 1 to 79 bytes, a NUL, the compression method (0, zlib), the profile.
    /// It must come before the image data; one after it is not the file's profile.
    static func png(_ data: Data) -> Found {
        let bytes = ByteReader(data)
        var offset = 8
        while let length = bytes.uint32BE(at: offset), bytes.uint32BE(at: offset + 4) != nil {
            if bytes.matches(ascii: "IDAT", at: offset + 4) || bytes.matches(ascii: "IEND", at: offset + 4) { break }
            if bytes.matches(ascii: "iCCP", at: offset + 4) {
                guard let typeAndBody = bytes.slice(at: offset + 4, length: 4 + length),
                      let crc = bytes.uint32BE(at: offset + 8 + length)
                else { return .broken("the iCCP chunk is cut short") }
                guard CRC32.checksum(typeAndBody) == UInt32(crc) else { return .broken("bad checksum in the iCCP chunk") }
                let body = typeAndBody.dropFirst(4)
                guard let nul = body.prefix(80).firstIndex(of: 0), nul > body.startIndex,
                      body.index(after: nul) < body.endIndex, body[body.index(after: nul)] == 0
                else { return .broken("the iCCP chunk is malformed") }
                do {
                    return .profile(try Inflater.inflate(Data(body[body.index(nul, offsetBy: 2)...]), limit: limit))
                } catch {
                    switch error {
                    case .tooLarge: return .broken("the colour profile is larger than \(limit >> 20) MB")
                    case .corrupt(let detail): return .broken("the iCCP chunk does not inflate (\(detail))")
                    }
                }
            }
            offset += 12 + length
        }
        return .none
    }

    static func avif(_ data: Data) -> Found {
        guard let profile = ImageHeader.avifICCProfile(ByteReader(data)) else { return .none }
        return profile.count <= limit ? .profile(profile) : .broken("the colour profile is larger than \(limit >> 20) MB")
    }

    /// An `ICCP` chunk of the extended (VP8X) format.
    static func webp(_ data: Data) -> Found {
        let bytes = ByteReader(data)
        guard bytes.matches(ascii: "VP8X", at: 12) else { return .none }
        var offset = 12
        while let size = bytes.uint32LE(at: offset + 4) {
            if bytes.matches(ascii: "ICCP", at: offset) {
                guard size <= limit else { return .broken("the colour profile is larger than \(limit >> 20) MB") }
                guard let profile = bytes.slice(at: offset + 8, length: size) else { return .broken("the ICCP chunk is cut short") }
                return .profile(profile)
            }
            offset += 8 + size + (size & 1)
        }
        return .none
    }
}

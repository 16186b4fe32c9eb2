import Foundation

extension ImageHeader {
    /// HEIC: the primary item's `ispe` is its stored size, and its `irot` and `imir` properties
    /// say how to turn it. HEIFDecoder decodes the pixels as stored (it asks libheif not to turn them:
    /// checked by ImagingHEICAndTIFFTests), so Folio turns them as it does a JPEG's. A phone writes
    /// the turn twice, as `irot` and as EXIF Orientation; the HEIF standard makes `irot` the one
    /// that counts, so the EXIF is used only when the file has neither property (heif-enc before
    /// libheif 1.16, made from a turned JPEG, writes only the EXIF). The EXIF is the `Exif` item.
    static func readHEIC(_ bytes: ByteReader) -> ImageHeader? {
        guard let items = HEIFItems(bytes) else { return nil }
        let primary = items.primary.map { items.properties(of: $0) } ?? []
        // The size the decoder faces: the primary's own, else (a file that does not say which
        // item is primary) the largest any item claims, which is the safe number for the limit.
        var sizes = primary.compactMap { $0.type == "ispe" ? size(of: $0, in: bytes) : nil }
        if sizes.isEmpty { sizes = items.properties.compactMap { $0.type == "ispe" ? size(of: $0, in: bytes) : nil } }
        // In floating point: two 32-bit sides can multiply past Int's range.
        guard let size = sizes.max(by: { Double($0.width) * Double($0.height) < Double($1.width) * Double($1.height) })
        else { return nil }

        // An AVIF file that names only the container's brand is told by its picture's codec.
        let format: ImageFormat = items.primary.flatMap { items.types[$0] } == "av01" ? .avif : .heic
        let crop = primary.first { $0.type == "clap" }.flatMap { cleanAperture($0, in: bytes, width: size.width, height: size.height) }
        return ImageHeader(format: format, width: crop?.width ?? size.width, height: crop?.height ?? size.height,
                           exif: exif(of: items, in: bytes), orientation: orientation(primary, bytes), crop: crop)
    }

    /// A `clap` (clean aperture) property as the rectangle of the stored `width` x `height`
    /// pixels it keeps: eight 32-bit fields, width, height, and the centre's offset from the
    /// picture's centre, each a fraction (the offsets signed). Applied before `irot` and `imir`,
    /// as the HEIF standard orders them. Nil when it is malformed or keeps nothing.
    private static func cleanAperture(_ clap: HEIFItems.Property, in bytes: ByteReader, width: Int, height: Int) -> Crop? {
        guard clap.payload.count >= 32 else { return nil }
        let fields = (0..<8).compactMap { bytes.uint32BE(at: clap.payload.lowerBound + 4 * $0) }
        guard fields.count == 8, fields[1] > 0, fields[3] > 0, fields[5] > 0, fields[7] > 0 else { return nil }
        func signed(_ value: Int) -> Double { Double(Int32(truncatingIfNeeded: value)) }
        let apertureWidth = Double(fields[0]) / Double(fields[1]), apertureHeight = Double(fields[2]) / Double(fields[3])
        let offsetX = signed(fields[4]) / Double(fields[5]), offsetY = signed(fields[6]) / Double(fields[7])
        // The aperture's left and top edge: the centre, moved by the offset, less half the aperture.
        let left = Int((offsetX + Double(width - 1) / 2 - (apertureWidth - 1) / 2).rounded(.down))
        let top = Int((offsetY + Double(height - 1) / 2 - (apertureHeight - 1) / 2).rounded(.down))
        let x = max(0, left), y = max(0, top)
        let cropWidth = min(width, left + Int(apertureWidth.rounded())) - x
        let cropHeight = min(height, top + Int(apertureHeight.rounded())) - y
        guard cropWidth > 0, cropHeight > 0 else { return nil }
        return Crop(x: x, y: y, width: cropWidth, height: cropHeight)
    }

    private static func size(of ispe: HEIFItems.Property, in bytes: ByteReader) -> (width: Int, height: Int)? {
        guard ispe.payload.count >= 12, let width = bytes.uint32BE(at: ispe.payload.lowerBound + 4),
              let height = bytes.uint32BE(at: ispe.payload.lowerBound + 8) else { return nil }
        return (width, height)
    }

    /// The `irot` (quarter turns counter-clockwise) and `imir` (axis 0: left and right swap;
    /// 1: top and bottom) of the primary item, in the order the file lists them, as the EXIF
    /// orientation that does the same; nil when it has neither.
    private static func orientation(_ properties: [HEIFItems.Property], _ bytes: ByteReader) -> Int? {
        // The turn so far: `quarterTurns` clockwise, then a left-right flip if `flipped`.
        var quarterTurns = 0, flipped = false, any = false
        func turn(clockwise: Int) { quarterTurns += flipped ? -clockwise : clockwise }
        for property in properties {
            guard let value = bytes.uint8(at: property.payload.lowerBound) else { continue }
            switch property.type {
            case "irot":
                turn(clockwise: 4 - value & 3)
            case "imir":
                if value & 1 == 1 { turn(clockwise: 2) }  // top-bottom is a half turn and a left-right flip
                flipped.toggle()
            default:
                continue
            }
            any = true
        }
        guard any else { return nil }
        let turns = (quarterTurns % 4 + 4) % 4
        return flipped ? [2, 5, 4, 7][turns] : [1, 6, 3, 8][turns]
    }

    /// The `Exif` item starts with the offset of the TIFF header inside it (after an optional
    /// "Exif\0\0"), then the TIFF structure libexif reads.
    private static func exif(of items: HEIFItems, in bytes: ByteReader) -> Data? {
        guard let id = items.types.filter({ $0.value == "Exif" }).keys.min(),
              let payload = items.data(of: id, in: bytes, limit: 1 << 20),
              let skip = ByteReader(payload).uint32BE(at: 0), skip <= payload.count - 4
        else { return nil }
        let tiff = payload.dropFirst(4 + skip)
        return tiff.count >= 8 ? exifBlock(fromTIFF: Data(tiff)) : nil
    }
}

import Foundation

extension ImageHeader {
    /// TIFF: the first page's size is in its first directory, and so is its Orientation; that
    /// directory and its EXIF and GPS ones are the same structure EXIF is, so libexif reads them,
    /// once copied into a block of their own (see `compactExif`).
    static func readTIFF(_ bytes: ByteReader) -> ImageHeader? {
        guard let first = TIFFDirectory.first(in: bytes),
              let width = first.number(256, in: bytes), let height = first.number(257, in: bytes)
        else { return nil }
        return ImageHeader(format: .tiff, width: width, height: height, exif: compactExif(first, bytes))
    }

    /// The TIFF with its Orientation set to 1, for the decoder. libtiff turns pictures only
    /// partly (it flips, and handles the four turned orientations as flips), and libgd takes
    /// that path for some files and not others; Folio turns every format itself, from the
    /// orientation its header read, so the decoder must hand over the pixels as stored.
    static func tiffAsStored(_ data: Data) -> Data {
        let bytes = ByteReader(data)
        guard let first = TIFFDirectory.first(in: bytes), let entry = first.entry(274), entry.type == 3,
              let value = first.integer(bytes, at: entry.value.lowerBound, size: 2), value != 1
        else { return data }
        var copy = data
        let at = copy.startIndex + entry.value.lowerBound
        copy.replaceSubrange(at..<(at + 2), with: first.bytes(of: 1, size: 2))
        return copy
    }

    private static let exifPointer = 0x8769
    private static let gpsPointer = 0x8825
    /// Tags whose values are offsets into the original file (strips, tiles, sub-pages, other
    /// directories, maker notes) or large blocks Folio reads elsewhere (XMP, IPTC, ICC): copied
    /// elsewhere they would point at nothing.
    private static let notCopied: Set<Int> = [
        273, 279, 288, 289, 324, 325, 330, 513, 514, 700, 33723, 34377, 34675, 0x927C, 0xA005, exifPointer, gpsPointer,
    ]
    /// Bytes of values copied from each directory: cameras write a few hundred.
    private static let directoryBudget = 16_000

    /// An EXIF block ("Exif\0\0" and a TIFF structure) holding the first directory's tags and its
    /// EXIF and GPS directories. libexif reads no more of a block than a JPEG segment holds, and a
    /// TIFF's directories usually come after its pixels, megabytes into the file.
    static func compactExif(_ first: TIFFDirectory, _ bytes: ByteReader) -> Data? {
        typealias Copied = (tag: Int, type: Int, count: Int, value: Data)
        func copied(_ directory: TIFFDirectory) -> [Copied] {
            var budget = directoryBudget
            return directory.entries.compactMap { entry in
                guard !notCopied.contains(entry.tag), entry.value.count <= budget,
                      let value = bytes.slice(at: entry.value.lowerBound, length: entry.value.count) else { return nil }
                budget -= entry.value.count
                return (entry.tag, entry.type, entry.count, value)
            }
        }
        let children: [(tag: Int, entries: [Copied])] = [exifPointer, gpsPointer].compactMap { tag in
            guard let offset = first.number(tag, in: bytes),
                  let directory = TIFFDirectory.read(bytes, at: offset, base: 0, bigEndian: first.bigEndian) else { return nil }
            return (tag, copied(directory))
        }
        var directories = [copied(first)] + children.map(\.entries)

        // Where each directory goes: one after the other after the 8-byte header, each followed by
        // the values too long for its entries (kept at even offsets, as TIFF asks).
        func size(_ entries: [Copied]) -> Int {
            6 + 12 * entries.count + entries.reduce(0) { $0 + ($1.value.count > 4 ? ($1.value.count + 1) & ~1 : 0) }
        }
        directories[0] += children.map { ($0.tag, 4, 1, Data(count: 4)) }
        var offsets: [Int] = []
        var position = 8
        for entries in directories {
            offsets.append(position)
            position += size(entries)
        }
        for (index, child) in children.enumerated() {
            if let at = directories[0].firstIndex(where: { $0.tag == child.tag }) {
                directories[0][at].value = Data(first.bytes(of: offsets[index + 1], size: 4))
            }
        }

        var block = [UInt8](first.bigEndian ? "MM".utf8 : "II".utf8) + first.bytes(of: 42, size: 2) + first.bytes(of: 8, size: 4)
        for (index, unsorted) in directories.enumerated() {
            let entries = unsorted.sorted { $0.tag < $1.tag }
            var overflow: [UInt8] = []
            let overflowStart = offsets[index] + 6 + 12 * entries.count
            block += first.bytes(of: entries.count, size: 2)
            for entry in entries {
                block += first.bytes(of: entry.tag, size: 2) + first.bytes(of: entry.type, size: 2) + first.bytes(of: entry.count, size: 4)
                if entry.value.count <= 4 {
                    block += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
                } else {
                    block += first.bytes(of: overflowStart + overflow.count, size: 4)
                    overflow += entry.value
                    if overflow.count % 2 == 1 { overflow.append(0) }
                }
            }
            block += [0, 0, 0, 0] + overflow  // no next directory
        }
        return exifPrefix + Data(block)
    }
}

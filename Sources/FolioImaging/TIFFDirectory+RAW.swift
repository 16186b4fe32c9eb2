import Foundation

/// The directory of a TIFF-structured RAW (DNG, NEF, ARW, PEF, …) that holds its sensor's data.
extension TIFFDirectory {
    /// The first directory, or one of its first sub-directories, that holds sensor data: a colour
    /// filter array (photometric interpretation 32803), or DNG's linear raw (34892).
    static func sensorData(in bytes: ByteReader) -> TIFFDirectory? {
        guard let first = TIFFDirectory.first(in: bytes) else { return nil }
        func holdsSensorData(_ directory: TIFFDirectory) -> Bool {
            [32803, 34892].contains(directory.number(262, in: bytes))
        }
        if holdsSensorData(first) { return first }
        return first.values(330, in: bytes, limit: 8).lazy.compactMap { offset in
            TIFFDirectory.read(bytes, at: offset, base: 0, bigEndian: first.bigEndian)
        }.first(where: holdsSensorData)
    }

    /// Where its strips or tiles end: past the file's end when the file was cut short (LibRaw
    /// then develops what is there, and says nothing).
    func dataEnd(in bytes: ByteReader) -> Int? {
        let (offsets, counts) = entry(324) != nil
            ? (values(324, in: bytes), values(325, in: bytes)) : (values(273, in: bytes), values(279, in: bytes))
        guard !offsets.isEmpty, offsets.count == counts.count else { return nil }
        return zip(offsets, counts).map { $0 + $1 }.max()
    }

    /// The SHORT or LONG values of an entry (the first `limit` of them).
    func values(_ tag: Int, in bytes: ByteReader, limit: Int = 100_000) -> [Int] {
        guard let entry = entry(tag) else { return [] }
        let size = switch entry.type {
        case 3: 2
        case 4, 13: 4
        default: 0
        }
        guard size > 0 else { return [] }
        return (0..<min(entry.count, limit)).compactMap { integer(bytes, at: entry.value.lowerBound + $0 * size, size: size) }
    }
}

extension ByteReader {
    /// The XMP packet of a TIFF structure's first directory (tag 700), as Lightroom and Photoshop
    /// embed it in a TIFF or a DNG; nil when it has none, or one past `limit` bytes.
    package func tiffXMP(limit: Int) -> Data? {
        guard let first = TIFFDirectory.first(in: self), let entry = first.entry(700), [1, 7].contains(entry.type),
              entry.value.count <= limit else { return nil }
        return slice(at: entry.value.lowerBound, length: entry.value.count)
    }
}

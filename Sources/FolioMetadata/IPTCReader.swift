import FolioImaging
import Foundation

/// Reads IPTC-IIM (the "IPTC" of every photo tool since the 1990s) from a JPEG's APP13 segment:
/// Photoshop's image resources, of which resource 0x0404 holds the IIM datasets. Hand-written and
/// bounded (every read through `ByteReader`): no library in Debian reads IIM without also
/// bringing C++ (libexiv2) or an unmaintained API (libiptcdata).
enum IPTCReader {
    static let photoshopPrefix = Array("Photoshop 3.0\0".utf8)

    /// The description IIM gives in an APP13 payload (after its length field), or nil when the
    /// payload holds no IIM.
    static func read(photoshop payload: Data) -> PhotoDescription? {
        let bytes = ByteReader(payload)
        guard bytes.matches(photoshopPrefix, at: 0) else { return nil }
        var offset = photoshopPrefix.count
        while bytes.matches(Array("8BIM".utf8), at: offset), let id = bytes.uint16BE(at: offset + 4),
              let nameLength = bytes.uint8(at: offset + 6) {
            // The resource's name is a Pascal string padded to an even length, length byte included.
            let sizeAt = offset + 6 + ((nameLength + 2) & ~1)
            guard let size = bytes.uint32BE(at: sizeAt), sizeAt + 4 + size <= bytes.count else { return nil }
            if id == 0x0404 {
                return datasets(bytes.slice(at: sizeAt + 4, length: size) ?? Data())
            }
            offset = sizeAt + 4 + ((size + 1) & ~1)
        }
        return nil
    }

    /// IIM datasets: 0x1C, record, dataset, a 2-byte length (or, with its top bit set, the size
    /// of a longer length that follows), then the value.
    static func datasets(_ data: Data) -> PhotoDescription? {
        let bytes = ByteReader(data)
        var values: [(record: Int, dataset: Int, value: Data)] = []
        var offset = 0
        while bytes.uint8(at: offset) == 0x1C, let record = bytes.uint8(at: offset + 1),
              let dataset = bytes.uint8(at: offset + 2), var length = bytes.uint16BE(at: offset + 3) {
            offset += 5
            if length & 0x8000 != 0 {
                let sizeOfLength = length & 0x7FFF
                guard (1...4).contains(sizeOfLength) else { break }
                length = 0
                for index in 0..<sizeOfLength {
                    guard let byte = bytes.uint8(at: offset + index) else { return nil }
                    length = length << 8 | byte
                }
                offset += sizeOfLength
            }
            guard let value = bytes.slice(at: offset, length: length) else { break }
            values.append((record, dataset, value))
            offset += length
        }
        guard !values.isEmpty else { return nil }
        // 1:90 CodedCharacterSet: ESC % G is UTF-8. Without it, text that is valid UTF-8 is read
        // as such (what tools write today), anything else as Latin-1 (what they wrote before).
        let declaredUTF8 = values.contains { $0.record == 1 && $0.dataset == 90 && Array($0.value) == [0x1B, 0x25, 0x47] }
        func text(_ dataset: Int) -> [String] {
            values.filter { $0.record == 2 && $0.dataset == dataset }.compactMap { decode($0.value, utf8: declaredUTF8) }
        }
        var description = PhotoDescription()
        description.title = text(5).first
        description.keywords = text(25)
        description.creator = text(80).first
        description.city = text(90).first
        description.sublocation = text(92).first
        description.state = text(95).first
        description.country = text(101).first
        description.headline = text(105).first
        description.description = text(120).first
        return description.isEmpty ? nil : description
    }

    package static func decode(_ value: Data, utf8 declared: Bool) -> String? {
        let text = String(data: value, encoding: .utf8) ?? (declared ? String(decoding: value, as: UTF8.self) : String(data: value, encoding: .isoLatin1))
        let trimmed = text?.replacingOccurrences(of: "\0", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed?.isEmpty == false ? trimmed : nil
    }
}

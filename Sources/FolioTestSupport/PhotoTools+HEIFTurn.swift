import Foundation

extension PhotoTools {
    /// The HEIC with an `irot` property (a turn of `quarterTurns` x 90° counter-clockwise) where
    /// heif-enc wrote its `pixi` (bits per channel, which libheif also reads from the codec's
    /// own configuration). heif-enc cannot write a turn itself; a phone writes one, beside the
    /// same turn as EXIF Orientation, for every photo taken upright. The new box takes the old
    /// one's place and size (its spare bytes are padding), so no offset in the file moves.
    public static func turningHEIC(_ heic: Data, quarterTurns: Int) throws -> Data {
        let bytes = [UInt8](heic)
        func uint32(_ at: Int) -> Int { bytes[at...at + 3].reduce(0) { $0 << 8 | Int($1) } }
        func type(_ at: Int) -> String { String(decoding: bytes[at + 4...at + 7], as: UTF8.self) }
        /// The children of the box whose payload is `range`, as (offset, size).
        func children(_ range: Range<Int>) -> [(Int, Int)] {
            var found: [(Int, Int)] = []
            var offset = range.lowerBound
            while offset + 8 <= range.upperBound, uint32(offset) >= 8, offset + uint32(offset) <= range.upperBound {
                found.append((offset, uint32(offset)))
                offset += uint32(offset)
            }
            return found
        }
        func child(_ name: String, of range: Range<Int>) throws -> Range<Int> {
            guard let (offset, size) = children(range).first(where: { type($0.0) == name }) else {
                throw ToolError(description: "no \(name) box in the HEIC heif-enc wrote")
            }
            return (offset + 8)..<(offset + size)
        }
        let meta = try child("meta", of: 0..<bytes.count)
        let ipco = try child("ipco", of: try child("iprp", of: (meta.lowerBound + 4)..<meta.upperBound))
        guard let (pixi, size) = children(ipco).first(where: { type($0.0) == "pixi" }), size >= 9 else {
            throw ToolError(description: "no pixi property to turn into irot")
        }
        var turned = bytes
        turned.replaceSubrange(pixi..<(pixi + size), with: [
            UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF),
        ] + Array("irot".utf8) + [UInt8(quarterTurns & 3)] + [UInt8](repeating: 0, count: size - 9))
        return Data(turned)
    }
}

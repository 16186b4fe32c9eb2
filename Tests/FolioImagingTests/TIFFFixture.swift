@testable import FolioImaging
import FolioTestSupport
import Foundation
import XCTest


/// Edits of little-endian TIFF files libgd wrote, for what no tool writes on purpose.
enum TIFFFixture {
    /// The file with a new first directory appended at its end: the old one's entries and an
    /// Orientation. Values stored outside the entries keep their offsets, which stay valid.
    static func appendingOrientation(_ orientation: Int, to tiff: Data) throws -> Data {
        let bytes = ByteReader(tiff)
        let first = try XCTUnwrap(TIFFDirectory.first(in: bytes))
        XCTAssertFalse(first.bigEndian)
        var entries = first.entries.filter { $0.tag != 274 }.map { entry in
            tiff.subdata(in: (tiff.startIndex + entry.entryOffset)..<(tiff.startIndex + entry.entryOffset + 12))
        }
        entries.append(Data([0x12, 0x01, 3, 0, 1, 0, 0, 0, UInt8(orientation), 0, 0, 0]))
        entries.sort { Int($0[$0.startIndex + 1]) << 8 | Int($0[$0.startIndex]) < Int($1[$1.startIndex + 1]) << 8 | Int($1[$1.startIndex]) }
        var result = tiff
        if result.count % 2 == 1 { result.append(0) }
        let offset = result.count
        result += Data([UInt8(entries.count & 0xFF), UInt8(entries.count >> 8)])
        for entry in entries { result += entry }
        result += Data([0, 0, 0, 0])
        result.replaceSubrange((result.startIndex + 4)..<(result.startIndex + 8), with: ImagingFixtures.littleEndian32(offset))
        return result
    }

    /// The file with its first directory's width and height (LONG or SHORT) replaced.
    static func setSize(width: Int, height: Int, in tiff: inout Data) throws {
        let first = try XCTUnwrap(TIFFDirectory.first(in: ByteReader(tiff)))
        for (tag, value) in [(256, width), (257, height)] {
            let entry = try XCTUnwrap(first.entry(tag))
            let at = tiff.startIndex + entry.entryOffset
            // Made a LONG, so any size fits.
            tiff.replaceSubrange((at + 2)..<(at + 12), with: Data([4, 0, 1, 0, 0, 0]) + ImagingFixtures.littleEndian32(value))
        }
    }
}

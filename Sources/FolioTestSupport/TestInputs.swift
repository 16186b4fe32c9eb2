import Foundation
import FolioCore
import FolioImaging

/// Small inputs tests of several modules make sites from.
package enum TestInputs {
    /// A 24×16 JPEG of a colour of its own, so no two photos share their renditions.
    package static func photo(_ index: Int) throws -> Data {
        var canvas = Canvas(width: 24, height: 16, background: (index * 37 % 256, index * 91 % 256, index * 13 % 256))
        canvas.fill(x: index % 20, y: 2, width: 4, height: 4, Canvas.red)
        return try canvas.encoded(as: .jpeg, quality: 80)
    }

    /// Records as a property list, XML or binary, as a catalog holds them; an error when a value
    /// is none a property list can hold.
    package static func plist(_ records: Any, binary: Bool = false) throws -> Data {
        do {
            return try PropertyListSerialization.data(fromPropertyList: records, format: binary ? .binary : .xml, options: 0)
        } catch {
            throw FolioError(path: "test catalog", reason: "cannot be written as a property list (\(error.localizedDescription))")
        }
    }

    /// A GIF whose header claims `width`x`height` and whose one frame holds a few bytes of data.
    package static func gifBomb(width: Int, height: Int) -> Data {
        var gif = Data("GIF89a".utf8)
        gif += [UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8), 0x80, 0, 0]
        gif += [0, 0, 0, 255, 255, 255]  // a two-colour palette
        gif += [0x2C, 0, 0, 0, 0, UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8), 0]
        gif += [2, 2, 0x4C, 0x01, 0, 0x3B]  // code size 2, one sub-block (clear, end), trailer
        return gif
    }
}

@testable import FolioCore
import Foundation
import XCTest

/// A value packed by its `Encodable` conformance comes back whole through its `Decodable` one,
/// at the edges of every scalar's range.
final class PackedCodingTests: XCTestCase {
    struct Inner: Codable, Equatable {
        var name: String
        var flag: Bool
    }

    struct Everything: Codable, Equatable {
        var text = "naïve 🌍"
        var flag = true
        var real = -0.1
        var single: Float = 3.5
        var date = Date(timeIntervalSinceReferenceDate: -1_234_567.891)
        var int = Int.min
        var int64 = Int64.max
        var int32 = Int32.min
        var int16 = Int16.max
        var int8 = Int8.min
        var uint64 = UInt64.max
        var uint = UInt.max
        var uint32 = UInt32.max
        var uint16 = UInt16.max
        var uint8 = UInt8.max
        var absent: String? = nil
        var present: Int? = -3
        var list = ["a", "", "c"]
        var inner = Inner(name: "x", flag: false)
        var inners: [Inner]? = [Inner(name: "y", flag: true)]
    }

    func testEveryScalarComesBackWholeAtTheEdgesOfItsRange() throws {
        let value = Everything()
        var writer = PackedWriter()
        try PackedEncoder.encode(value, into: &writer)
        let back = try writer.bytes.withUnsafeBytes { bytes in
            var reader = PackedReader(bytes)
            let back = try PackedDecoder.decode(Everything.self, from: &reader)
            XCTAssertEqual(reader.position, bytes.count, "every byte read, none left over")
            return back
        }
        XCTAssertEqual(back, value)
    }

    /// A date is packed as the Double its own `Encodable` conformance gives: eight bytes.
    func testADateIsTheDoubleItEncodes() throws {
        let date = Date(timeIntervalSinceReferenceDate: 42.25)
        var (dated, real) = (PackedWriter(), PackedWriter())
        try PackedEncoder.encode(date, into: &dated)
        try PackedEncoder.encode(42.25, into: &real)
        XCTAssertEqual(dated.bytes, real.bytes)
        XCTAssertEqual(dated.bytes.count, 8)
    }

    /// Texts through an unkeyed container, as an array's `Encodable` conformance would give them.
    struct Listed: Encodable {
        var items: [String]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        }
    }

    enum Shade: String, Codable, PackedScalar { case light, dark }

    /// A raw value through a single-value container, as a named enum's conformance gives it.
    struct Named: Encodable {
        var raw: String
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(raw)
        }
    }

    /// An array of scalars and an enum of names are packed as scalars (`PackedScalar`), in the
    /// bytes their conformances' containers would have written, so records packed either way
    /// read back alike; a name no case has is an error, not a value.
    func testArraysAndNamesPackAsTheirContainersWould() throws {
        func packed(_ value: some Encodable) throws -> [UInt8] {
            var writer = PackedWriter()
            try PackedEncoder.encode(value, into: &writer)
            return writer.bytes
        }
        for items in [[], ["a"], ["", "naïve", String(repeating: "x", count: 300)]] {
            XCTAssertEqual(try packed(items), try packed(Listed(items: items)))
        }
        XCTAssertEqual(try packed(Shade.dark), try packed(Named(raw: "dark")))
        XCTAssertEqual(try packed([Shade.light, .dark]), try packed(Listed(items: ["light", "dark"])))

        let unnamed = try packed(Named(raw: "grey"))
        XCTAssertThrowsError(try unnamed.withUnsafeBytes { bytes in
            var reader = PackedReader(bytes)
            return try PackedDecoder.decode(Shade.self, from: &reader)
        })
    }
}

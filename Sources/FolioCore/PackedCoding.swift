import Foundation

/// A value's `Encodable` conformance written as packed bytes (`PackedWriter`), and read back by
/// `PackedDecoder` through its `Decodable` one: the values in the order the conformance gives
/// them, without their keys. A type's stored properties are then packed with no list of them to
/// keep, and what holds for a packed record (a snapshot's photos) holds for every property.
///
/// The two sides must be the same type's conformances: nothing in the bytes says which key a
/// value is. An optional property is a flag and, when present, its value; an array its count,
/// then its elements. An optional element of an array is not supported (none is packed).
package enum PackedEncoder {
    package static func encode(_ value: some Encodable, into writer: inout PackedWriter) throws {
        let sink = Sink(writer)
        try value.encode(to: ValueEncoder(sink: sink))
        writer = sink.writer
    }

    /// Where every container of one value writes, in the order values come.
    final class Sink {
        var writer: PackedWriter
        init(_ writer: PackedWriter) { self.writer = writer }

        func write(_ value: some Encodable) throws {
            if let scalar = value as? any PackedScalar {
                scalar.write(to: &writer)
            } else {
                try value.encode(to: ValueEncoder(sink: self))
            }
        }
    }

    struct ValueEncoder: Encoder {
        let sink: Sink
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] = [:]

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Keyed(sink: sink))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            // The count first, written over as each element comes.
            let at = sink.writer.bytes.count
            sink.writer.count(0)
            return Unkeyed(sink: sink, countAt: at)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(sink: sink) }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let sink: Sink
        var codingPath: [any CodingKey] = []

        mutating func encodeNil(forKey key: Key) throws { sink.writer.flag(false) }
        mutating func encode(_ value: some Encodable, forKey key: Key) throws { try sink.write(value) }
        // The types a record holds most, written without asking the generic path which type it is.
        mutating func encode(_ value: String, forKey key: Key) throws { value.write(to: &sink.writer) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { value.write(to: &sink.writer) }
        mutating func encode(_ value: Double, forKey key: Key) throws { value.write(to: &sink.writer) }
        mutating func encode(_ value: Int, forKey key: Key) throws { value.write(to: &sink.writer) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { value.write(to: &sink.writer) }
        mutating func encodeIfPresent(_ value: (some Encodable)?, forKey key: Key) throws {
            sink.writer.flag(value != nil)
            if let value { try sink.write(value) }
        }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
            sink.writer.flag(value != nil)
            if let value { sink.writer.text(value) }
        }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
            sink.writer.flag(value != nil)
            if let value { sink.writer.flag(value) }
        }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
            sink.writer.flag(value != nil)
            if let value { sink.writer.bits(value.bitPattern) }
        }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
            sink.writer.flag(value != nil)
            if let value { sink.writer.number(Int64(value)) }
        }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
            sink.writer.flag(value != nil)
            if let value { sink.writer.number(value) }
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            ValueEncoder(sink: sink).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            ValueEncoder(sink: sink).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { ValueEncoder(sink: sink) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { ValueEncoder(sink: sink) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let sink: Sink
        let countAt: Int
        var codingPath: [any CodingKey] = []
        var count = 0

        mutating func counted() {
            count += 1
            sink.writer.count(count, at: countAt)
        }

        mutating func encodeNil() throws {
            throw EncodingError.invalidValue(Optional<Int>.none as Any, .init(codingPath: codingPath, debugDescription: "packed arrays hold no nil"))
        }
        mutating func encode(_ value: some Encodable) throws {
            counted()
            try sink.write(value)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            counted()
            return ValueEncoder(sink: sink).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            counted()
            return ValueEncoder(sink: sink).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { ValueEncoder(sink: sink) }
    }

    struct Single: SingleValueEncodingContainer {
        let sink: Sink
        var codingPath: [any CodingKey] = []

        mutating func encodeNil() throws {
            throw EncodingError.invalidValue(Optional<Int>.none as Any, .init(codingPath: codingPath, debugDescription: "a packed value is never nil"))
        }
        mutating func encode(_ value: some Encodable) throws { try sink.write(value) }
        mutating func encode(_ value: String) throws { value.write(to: &sink.writer) }
        mutating func encode(_ value: Bool) throws { value.write(to: &sink.writer) }
        mutating func encode(_ value: Double) throws { value.write(to: &sink.writer) }
        mutating func encode(_ value: Int) throws { value.write(to: &sink.writer) }
        mutating func encode(_ value: Int64) throws { value.write(to: &sink.writer) }
    }
}

/// Reads what `PackedEncoder` wrote, through the same type's `Decodable` conformance.
package enum PackedDecoder {
    package static func decode<Value: Decodable>(_ type: Value.Type, from reader: inout PackedReader) throws -> Value {
        let source = Source(reader)
        let value = try source.read(type)
        reader = source.reader
        return value
    }

    final class Source {
        var reader: PackedReader
        init(_ reader: PackedReader) { self.reader = reader }

        func read<Value: Decodable>(_ type: Value.Type) throws -> Value {
            if let scalar = type as? any PackedScalar.Type {
                return try scalar.read(from: &reader) as! Value
            }
            return try Value(from: ValueDecoder(source: self))
        }

        func count() -> Int { reader.count() }
    }

    struct ValueDecoder: Decoder {
        let source: Source
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] = [:]

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Keyed(source: source))
        }
        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { Unkeyed(source: source, count: source.count()) }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(source: source) }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let source: Source
        var codingPath: [any CodingKey] = []
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { !source.reader.flag() }
        func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value { try source.read(type) }
        // The types a record holds most, read without asking the generic path which type it is.
        func decode(_ type: String.Type, forKey key: Key) throws -> String { .read(from: &source.reader) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { .read(from: &source.reader) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { .read(from: &source.reader) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { .read(from: &source.reader) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { .read(from: &source.reader) }
        func decodeIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
            source.reader.flag() ? try source.read(type) : nil
        }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            source.reader.flag() ? source.reader.text() : nil
        }
        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
            source.reader.flag() ? source.reader.flag() : nil
        }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
            source.reader.flag() ? Double(bitPattern: source.reader.bits()) : nil
        }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
            source.reader.flag() ? Int(truncatingIfNeeded: source.reader.number()) : nil
        }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
            source.reader.flag() ? source.reader.number() : nil
        }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            KeyedDecodingContainer(Keyed<NestedKey>(source: source))
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            Unkeyed(source: source, count: source.count())
        }
        func superDecoder() throws -> any Decoder { ValueDecoder(source: source) }
        func superDecoder(forKey key: Key) throws -> any Decoder { ValueDecoder(source: source) }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let source: Source
        var codingPath: [any CodingKey] = []
        let count: Int?
        var currentIndex = 0
        var isAtEnd: Bool { currentIndex >= (count ?? 0) }

        mutating func decodeNil() throws -> Bool { false }
        mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
            currentIndex += 1
            return try source.read(type)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            currentIndex += 1
            return KeyedDecodingContainer(Keyed<NestedKey>(source: source))
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            currentIndex += 1
            return Unkeyed(source: source, count: source.count())
        }
        mutating func superDecoder() throws -> any Decoder { ValueDecoder(source: source) }
    }

    struct Single: SingleValueDecodingContainer {
        let source: Source
        var codingPath: [any CodingKey] = []

        func decodeNil() -> Bool { false }
        func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try source.read(type) }
        func decode(_ type: String.Type) throws -> String { .read(from: &source.reader) }
        func decode(_ type: Bool.Type) throws -> Bool { .read(from: &source.reader) }
        func decode(_ type: Double.Type) throws -> Double { .read(from: &source.reader) }
        func decode(_ type: Int.Type) throws -> Int { .read(from: &source.reader) }
        func decode(_ type: Int64.Type) throws -> Int64 { .read(from: &source.reader) }
    }
}

/// The calls a record's generated packing makes (`GalleryPhoto+Packing.generated.swift`), each
/// property's type the one the caller's property has.
extension PackedReader {
    /// A scalar, its type the one the caller asks for: read without a decoder.
    @inlinable public mutating func value<Value: PackedScalar>() throws -> Value { try Value.read(from: &self) }

    /// An optional scalar, as a keyed container's `encodeIfPresent` packs it: a flag, then the value.
    @inlinable public mutating func optional<Value: PackedScalar>() throws -> Value? { flag() ? try Value.read(from: &self) : nil }

    /// A value of any other type, through its `Decodable` conformance.
    package mutating func decoded<Value: Decodable>() throws -> Value { try PackedDecoder.decode(Value.self, from: &self) }

    /// An optional value of any other type, through its `Decodable` conformance.
    package mutating func optionalDecoded<Value: Decodable>() throws -> Value? {
        flag() ? try PackedDecoder.decode(Value.self, from: &self) : nil
    }
}

extension PackedWriter {
    @inlinable public mutating func value(_ value: some PackedScalar) { value.write(to: &self) }

    @inlinable public mutating func optional(_ value: (some PackedScalar)?) {
        flag(value != nil)
        value?.write(to: &self)
    }

    package mutating func encoded(_ value: some Encodable) throws { try PackedEncoder.encode(value, into: &self) }

    package mutating func optionalEncoded(_ value: (some Encodable)?) throws {
        flag(value != nil)
        if let value { try PackedEncoder.encode(value, into: &self) }
    }
}

/// A value packed as itself (a number, a flag, a text, a date, an array of these), not through
/// the containers of its `Codable` conformance: the coders know one by a single conformance
/// check. Each writes what its conformance would have (a date the `Double` it encodes, an array
/// its count and elements), so the bytes are the same either way.
public protocol PackedScalar {
    static func read(from reader: inout PackedReader) throws -> Self
    func write(to writer: inout PackedWriter)
}

/// A value whose conformance encodes its raw value alone (an enum of names) packs as that value.
extension PackedScalar where Self: RawRepresentable, RawValue: PackedScalar {
    @inlinable public static func read(from reader: inout PackedReader) throws -> Self {
        let raw = try RawValue.read(from: &reader)
        guard let value = Self(rawValue: raw) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no \(Self.self) is named \(raw)"))
        }
        return value
    }

    @inlinable public func write(to writer: inout PackedWriter) { rawValue.write(to: &writer) }
}

extension Array: PackedScalar where Element: PackedScalar {
    @inlinable public static func read(from reader: inout PackedReader) throws -> [Element] {
        let count = reader.count()
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(try Element.read(from: &reader)) }
        return elements
    }

    @inlinable public func write(to writer: inout PackedWriter) {
        writer.count(count)
        for element in self { element.write(to: &writer) }
    }
}

extension String: PackedScalar {
    @inlinable public static func read(from reader: inout PackedReader) -> String { reader.text() }
    @inlinable public func write(to writer: inout PackedWriter) { writer.text(self) }
}

extension Bool: PackedScalar {
    @inlinable public static func read(from reader: inout PackedReader) -> Bool { reader.flag() }
    @inlinable public func write(to writer: inout PackedWriter) { writer.flag(self) }
}

extension Double: PackedScalar {
    @inlinable public static func read(from reader: inout PackedReader) -> Double { Double(bitPattern: reader.bits()) }
    @inlinable public func write(to writer: inout PackedWriter) { writer.bits(bitPattern) }
}

extension Float: PackedScalar {
    @inlinable public static func read(from reader: inout PackedReader) -> Float { Float(bitPattern: UInt32(truncatingIfNeeded: reader.bits())) }
    @inlinable public func write(to writer: inout PackedWriter) { writer.bits(UInt64(bitPattern)) }
}

extension Date: PackedScalar {
    @inlinable public static func read(from reader: inout PackedReader) -> Date { Date(timeIntervalSinceReferenceDate: Double(bitPattern: reader.bits())) }
    @inlinable public func write(to writer: inout PackedWriter) { timeIntervalSinceReferenceDate.write(to: &writer) }
}

/// Integers as variable-length numbers (`PackedWriter.number`), but for the unsigned 64-bit
/// ones, whose top bit a number would lose: those as their eight bytes.
extension PackedScalar where Self: FixedWidthInteger {
    @inlinable public static func read(from reader: inout PackedReader) -> Self { Self(truncatingIfNeeded: reader.number()) }
    @inlinable public func write(to writer: inout PackedWriter) { writer.number(Int64(truncatingIfNeeded: self)) }
}

extension Int: PackedScalar {}
extension Int64: PackedScalar {}
extension Int32: PackedScalar {}
extension Int16: PackedScalar {}
extension Int8: PackedScalar {}
extension UInt32: PackedScalar {}
extension UInt16: PackedScalar {}
extension UInt8: PackedScalar {}

extension UInt64: PackedScalar {
    @inlinable public static func read(from reader: inout PackedReader) -> UInt64 { reader.bits() }
    @inlinable public func write(to writer: inout PackedWriter) { writer.bits(self) }
}

extension UInt: PackedScalar {
    @inlinable public static func read(from reader: inout PackedReader) -> UInt { UInt(reader.bits()) }
    @inlinable public func write(to writer: inout PackedWriter) { writer.bits(UInt64(self)) }
}

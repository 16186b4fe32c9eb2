import Foundation

/// A value's fingerprint, from everything it encodes: every stored property (through its
/// `Encodable` conformance), so a field added to a type is in it without a list to keep. Stable
/// across processes and machines (XXH64 of the encoded keys and values), unlike `Hasher`; its
/// bytes go into one buffer, no text is formatted.
public enum ValueDigest {
    public static func of(_ value: some Encodable) -> UInt64 {
        let sink = Sink()
        defer { sink.free() }
        try? value.encode(to: StampEncoder(sink: sink))
        return sink.hash
    }

    /// A digest written value by value by `write`, in the bytes `of` writes values as, without
    /// keys: for a type digested so often that going through `Encodable` costs too much (every
    /// catalog record read, `CatalogRecord.fingerprint`), whose caller keeps the list of values.
    package static func made(_ write: (Values) -> Void) -> UInt64 {
        let sink = Sink()
        defer { sink.free() }
        write(Values(sink: sink))
        return sink.hash
    }

    /// Where `made` writes: each value with the mark of its kind, nil with the mark of nil.
    package struct Values {
        fileprivate let sink: Sink

        package func text(_ value: String?) { if let value { sink.text(value) } else { sink.mark(9) } }
        package func number(_ value: Int64?) { if let value { sink.number(value) } else { sink.mark(9) } }
        package func real(_ value: Double?) { if let value { sink.real(value) } else { sink.mark(9) } }
        package func flag(_ value: Bool) { sink.flag(value) }

        /// A value of a type of its own, through `Encodable`, closed as a nested value is.
        package func value(_ value: (some Encodable)?) {
            guard let value else { return sink.mark(9) }
            try? value.encode(to: StampEncoder(sink: sink))
            sink.mark(10)
        }

        // A struct as its synthesized `Encodable` conformance writes it, property by property:
        // `keyed()`, then each stored property in order, by the name of its key; an optional one
        // that is nil writes nothing (`encodeIfPresent`). The same bytes, so the same digest, as `of`.

        package func keyed() { sink.mark(7) }

        package func field(_ key: String, _ value: String?) {
            guard let value else { return }
            sink.key(named: key)
            sink.text(value)
        }

        package func field(_ key: String, _ value: Double?) {
            guard let value else { return }
            sink.key(named: key)
            sink.real(value)
        }

        package func field(_ key: String, _ value: Bool) {
            sink.key(named: key)
            sink.flag(value)
        }

        /// A date encodes itself: its seconds since 2001, closed as a nested value is.
        package func field(_ key: String, _ value: Date?) {
            guard let value else { return }
            sink.key(named: key)
            sink.real(value.timeIntervalSinceReferenceDate)
            sink.mark(10)
        }

        /// An array encodes each element as a value of its own: each closed as a nested value is.
        package func field(_ key: String, _ values: [String]) {
            sink.key(named: key)
            sink.mark(8)
            for value in values {
                sink.text(value)
                sink.mark(10)
            }
            sink.mark(10)
        }
    }

    /// The bytes a value encodes to: keys, values, and marks where containers open and close,
    /// so that ["ab"] and ["a", "b"] differ.
    ///
    /// Kept behind a pointer, not in a class's array: each append to a class's property is an
    /// access the runtime checks for exclusivity, which costs more than the append.
    fileprivate struct Sink {
        private struct Buffer {
            var bytes: UnsafeMutablePointer<UInt8>
            var count: Int
            var capacity: Int
        }

        private let buffer: UnsafeMutablePointer<Buffer>

        init() {
            buffer = .allocate(capacity: 1)
            buffer.initialize(to: Buffer(bytes: .allocate(capacity: 256), count: 0, capacity: 256))
        }

        func free() {
            buffer.pointee.bytes.deallocate()
            buffer.deallocate()
        }

        var hash: UInt64 { ContentHash.hash(UnsafeRawBufferPointer(start: buffer.pointee.bytes, count: buffer.pointee.count)) }

        /// Room for `more` bytes past the end.
        @inline(__always) private func reserve(_ more: Int) {
            let needed = buffer.pointee.count + more
            guard needed > buffer.pointee.capacity else { return }
            let capacity = max(needed, buffer.pointee.capacity * 2)
            let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            bytes.update(from: buffer.pointee.bytes, count: buffer.pointee.count)
            buffer.pointee.bytes.deallocate()
            buffer.pointee.bytes = bytes
            buffer.pointee.capacity = capacity
        }

        @inline(__always) private func append(_ byte: UInt8) {
            buffer.pointee.bytes[buffer.pointee.count] = byte
            buffer.pointee.count += 1
        }

        private func append(_ bytes: UnsafeRawBufferPointer) {
            guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
            (UnsafeMutableRawPointer(buffer.pointee.bytes) + buffer.pointee.count).copyMemory(from: start, byteCount: bytes.count)
            buffer.pointee.count += bytes.count
        }

        func mark(_ byte: UInt8) {
            reserve(1)
            append(byte)
        }

        func text(_ value: String) {
            var value = value
            value.withUTF8 { utf8 in
                reserve(utf8.count + 2)
                append(1)
                append(UnsafeRawBufferPointer(utf8))
                append(0)
            }
        }

        func number(_ value: Int64) {
            reserve(9)
            append(2)
            withUnsafeBytes(of: value.littleEndian) { append($0) }
        }

        func real(_ value: Double) {
            reserve(9)
            append(3)
            withUnsafeBytes(of: value.bitPattern.littleEndian) { append($0) }
        }

        func flag(_ value: Bool) { mark(value ? 5 : 4) }

        func key(_ key: some CodingKey) { self.key(named: key.stringValue) }

        func key(named name: String) {
            mark(6)
            text(name)
        }
    }

    private struct StampEncoder: Encoder {
        let sink: Sink
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            sink.mark(7)
            return KeyedEncodingContainer(Keyed(sink: sink))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            sink.mark(8)
            return Unkeyed(sink: sink)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(sink: sink) }
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let sink: Sink
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { sink.key(key); sink.mark(9) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { sink.key(key); sink.flag(value) }
        mutating func encode(_ value: String, forKey key: Key) throws { sink.key(key); sink.text(value) }
        mutating func encode(_ value: Double, forKey key: Key) throws { sink.key(key); sink.real(value) }
        mutating func encode(_ value: Float, forKey key: Key) throws { sink.key(key); sink.real(Double(value)) }
        mutating func encode(_ value: Int, forKey key: Key) throws { sink.key(key); sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { sink.key(key); sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { sink.key(key); sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { sink.key(key); sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { sink.key(key); sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { sink.key(key); sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { sink.key(key); sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { sink.key(key); sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { sink.key(key); sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { sink.key(key); sink.number(Int64(truncatingIfNeeded: value)) }

        mutating func encode(_ value: some Encodable, forKey key: Key) throws {
            sink.key(key)
            try value.encode(to: StampEncoder(sink: sink))
            sink.mark(10)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                            forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            sink.key(key)
            return StampEncoder(sink: sink).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            sink.key(key)
            return StampEncoder(sink: sink).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { StampEncoder(sink: sink) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { sink.key(key); return StampEncoder(sink: sink) }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        let sink: Sink
        var codingPath: [any CodingKey] { [] }
        var count = 0

        mutating func encodeNil() throws { count += 1; sink.mark(9) }
        mutating func encode(_ value: Bool) throws { count += 1; sink.flag(value) }
        mutating func encode(_ value: String) throws { count += 1; sink.text(value) }
        mutating func encode(_ value: Double) throws { count += 1; sink.real(value) }
        mutating func encode(_ value: Float) throws { count += 1; sink.real(Double(value)) }
        mutating func encode(_ value: Int) throws { count += 1; sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: Int8) throws { count += 1; sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: Int16) throws { count += 1; sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: Int32) throws { count += 1; sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: Int64) throws { count += 1; sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: UInt) throws { count += 1; sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: UInt8) throws { count += 1; sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: UInt16) throws { count += 1; sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: UInt32) throws { count += 1; sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: UInt64) throws { count += 1; sink.number(Int64(truncatingIfNeeded: value)) }

        mutating func encode(_ value: some Encodable) throws {
            count += 1
            try value.encode(to: StampEncoder(sink: sink))
            sink.mark(10)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            count += 1
            return StampEncoder(sink: sink).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            count += 1
            return StampEncoder(sink: sink).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { StampEncoder(sink: sink) }
    }

    private struct Single: SingleValueEncodingContainer {
        let sink: Sink
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() throws { sink.mark(9) }
        mutating func encode(_ value: Bool) throws { sink.flag(value) }
        mutating func encode(_ value: String) throws { sink.text(value) }
        mutating func encode(_ value: Double) throws { sink.real(value) }
        mutating func encode(_ value: Float) throws { sink.real(Double(value)) }
        mutating func encode(_ value: Int) throws { sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: Int8) throws { sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: Int16) throws { sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: Int32) throws { sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: Int64) throws { sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: UInt) throws { sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: UInt8) throws { sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: UInt16) throws { sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: UInt32) throws { sink.number(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: UInt64) throws { sink.number(Int64(truncatingIfNeeded: value)) }

        mutating func encode(_ value: some Encodable) throws {
            try value.encode(to: StampEncoder(sink: sink))
        }
    }
}

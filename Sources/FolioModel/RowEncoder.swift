import FolioCore
import Foundation
import GRDB

/// A record's columns and values in the order its `Encodable` conformance gives them, each value
/// as GRDB's own record encoding makes it with the default strategies (which no Folio record
/// changes): a value that is `DatabaseValueConvertible` (a date, data, a text, a number, a source)
/// as itself, one that encodes a single value as that value, anything else (an array, a nested
/// record) as JSON by the record's `databaseJSONEncoder(for:)`. What `insertRows` writes, without
/// the dictionary GRDB fills for each row; `RowEncoderTests` holds it to `databaseDictionary`.
enum RowEncoder {
    static func encode<Record: EncodableRecord & TableRecord & Encodable>(_ record: Record) throws -> [(column: String, value: DatabaseValue)] {
        let row = Row<Record>()
        try record.encode(to: row)
        if let failure = row.failure { throw failure }
        return row.values
    }

    /// `value` as the JSON text a column of `Record` holds it as (`databaseJSONEncoder(for:)`).
    static func json<Record: EncodableRecord>(_ value: some Encodable, column: String, of record: Record.Type) throws -> DatabaseValue {
        let json = try Record.databaseJSONEncoder(for: column).encode(value)
        return String(decoding: json, as: UTF8.self).databaseValue
    }

    /// The record's values, as they come.
    private final class Row<Record: EncodableRecord & TableRecord>: Encoder {
        var values: [(column: String, value: DatabaseValue)] = []
        /// What the record asked for that a row cannot hold (containers cannot throw): thrown once
        /// its encoding returns. The first such request is the one named.
        var failure: FolioError?
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { Record.databaseEncodingUserInfo }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Columns(row: self))
        }

        // A record is a row of columns by key, never a list or one value.
        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            Refusing<SingleValue.Key>(error: refuse("it encodes itself as a list, not as columns by key"))
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            refuse("it encodes itself as one value, not as columns by key")
            return SingleValue()
        }

        /// Notes that the record cannot be a row, and why; the error to stop its encoding with.
        @discardableResult
        func refuse(_ reason: String) -> FolioError {
            let failure = FolioError(path: "table \(Record.databaseTableName)", reason: "a row cannot be written: \(reason)")
            if self.failure == nil { self.failure = failure }
            return failure
        }

        func put(database value: (any DatabaseValueConvertible)?, _ key: some CodingKey) {
            values.append((key.stringValue, value?.databaseValue ?? .null))
        }

        func put(_ value: some Encodable, _ key: some CodingKey) throws {
            values.append((key.stringValue, try Self.databaseValue(value, column: key.stringValue)))
        }

        static func databaseValue(_ value: some Encodable, column: String) throws -> DatabaseValue {
            if let value = value as? any DatabaseValueConvertible { return value.databaseValue }
            let single = SingleValue()
            do {
                try value.encode(to: single)
            } catch is SingleValue.NotSingle {}
            if !single.needsJSON, let encoded = single.value { return encoded }
            return try json(value, column: column, of: Record.self)
        }
    }

    private struct Columns<Key: CodingKey, Record: EncodableRecord & TableRecord>: KeyedEncodingContainerProtocol {
        let row: Row<Record>
        var codingPath: [any CodingKey] { [] }

        func encodeNil(forKey key: Key) throws { row.put(database: nil, key) }
        func encode(_ value: Bool, forKey key: Key) throws { row.put(database: value, key) }
        func encode(_ value: String, forKey key: Key) throws { row.put(database: value, key) }
        func encode(_ value: Double, forKey key: Key) throws { row.put(database: value, key) }
        func encode(_ value: Float, forKey key: Key) throws { row.put(database: value, key) }
        func encode(_ value: Int, forKey key: Key) throws { row.put(database: value, key) }
        func encode(_ value: Int8, forKey key: Key) throws { row.put(database: value, key) }
        func encode(_ value: Int16, forKey key: Key) throws { row.put(database: value, key) }
        func encode(_ value: Int32, forKey key: Key) throws { row.put(database: value, key) }
        func encode(_ value: Int64, forKey key: Key) throws { row.put(database: value, key) }
        func encode(_ value: UInt, forKey key: Key) throws { row.put(database: value, key) }
        func encode(_ value: UInt8, forKey key: Key) throws { row.put(database: value, key) }
        func encode(_ value: UInt16, forKey key: Key) throws { row.put(database: value, key) }
        func encode(_ value: UInt32, forKey key: Key) throws { row.put(database: value, key) }
        func encode(_ value: UInt64, forKey key: Key) throws { row.put(database: value, key) }
        func encode(_ value: some Encodable, forKey key: Key) throws { try row.put(value, key) }

        // An absent value is a NULL column, never a column left out: every row has every column.
        func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { row.put(database: value, key) }
        func encodeIfPresent(_ value: String?, forKey key: Key) throws { row.put(database: value, key) }
        func encodeIfPresent(_ value: Double?, forKey key: Key) throws { row.put(database: value, key) }
        func encodeIfPresent(_ value: Float?, forKey key: Key) throws { row.put(database: value, key) }
        func encodeIfPresent(_ value: Int?, forKey key: Key) throws { row.put(database: value, key) }
        func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { row.put(database: value, key) }
        func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { row.put(database: value, key) }
        func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { row.put(database: value, key) }
        func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { row.put(database: value, key) }
        func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { row.put(database: value, key) }
        func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { row.put(database: value, key) }
        func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { row.put(database: value, key) }
        func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { row.put(database: value, key) }
        func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { row.put(database: value, key) }
        func encodeIfPresent(_ value: (some Encodable)?, forKey key: Key) throws {
            if let value { try row.put(value, key) } else { row.put(database: nil, key) }
        }

        // A nested value is a value of its own type, which a column holds as JSON.
        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Refusing<NestedKey>(error: row.refuse("column '\(key.stringValue)' is encoded in a nested container")))
        }
        func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            Refusing<SingleValue.Key>(error: row.refuse("column '\(key.stringValue)' is encoded in a nested container"))
        }
        func superEncoder() -> any Encoder { row }
        func superEncoder(forKey key: Key) -> any Encoder { row }
    }

    /// What a value encodes when it is one value (an enum by its raw value); `needsJSON` when it
    /// asks for a keyed or unkeyed container instead.
    private final class SingleValue: Encoder, SingleValueEncodingContainer {
        struct NotSingle: Error {}
        var value: DatabaseValue?
        var needsJSON = false
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            needsJSON = true
            return KeyedEncodingContainer(Refusing<Key>(error: NotSingle()))
        }
        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            needsJSON = true
            return Refusing<SingleValue.Key>(error: NotSingle())
        }
        func singleValueContainer() -> any SingleValueEncodingContainer { self }

        func encodeNil() throws { value = .null }
        func encode(_ value: Bool) throws { self.value = value.databaseValue }
        func encode(_ value: String) throws { self.value = value.databaseValue }
        func encode(_ value: Double) throws { self.value = value.databaseValue }
        func encode(_ value: Float) throws { self.value = value.databaseValue }
        func encode(_ value: Int) throws { self.value = value.databaseValue }
        func encode(_ value: Int8) throws { self.value = value.databaseValue }
        func encode(_ value: Int16) throws { self.value = value.databaseValue }
        func encode(_ value: Int32) throws { self.value = value.databaseValue }
        func encode(_ value: Int64) throws { self.value = value.databaseValue }
        func encode(_ value: UInt) throws { self.value = value.databaseValue }
        func encode(_ value: UInt8) throws { self.value = value.databaseValue }
        func encode(_ value: UInt16) throws { self.value = value.databaseValue }
        func encode(_ value: UInt32) throws { self.value = value.databaseValue }
        func encode(_ value: UInt64) throws { self.value = value.databaseValue }
        func encode(_ value: some Encodable) throws {
            if let convertible = value as? any DatabaseValueConvertible {
                self.value = convertible.databaseValue
            } else {
                try value.encode(to: self)
            }
        }

        enum Key: CodingKey {}
    }

    /// The containers of something a row or a column cannot hold: the first thing put in them
    /// throws `error` (a value that is not one value: encoded again as JSON; a record that is
    /// not a row: the row is not written).
    private struct Refusing<Key: CodingKey>: KeyedEncodingContainerProtocol, UnkeyedEncodingContainer {
        let error: any Error
        var codingPath: [any CodingKey] { [] }
        var count: Int { 0 }

        func encodeNil(forKey key: Key) throws { throw error }
        func encode(_ value: some Encodable, forKey key: Key) throws { throw error }
        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Refusing<NestedKey>(error: error))
        }
        func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { self }
        func superEncoder() -> any Encoder { SingleValue() }
        func superEncoder(forKey key: Key) -> any Encoder { SingleValue() }

        func encodeNil() throws { throw error }
        func encode(_ value: some Encodable) throws { throw error }
        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Refusing<NestedKey>(error: error))
        }
        func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    }
}

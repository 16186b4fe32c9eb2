import FolioCore
import Foundation
import GRDB

/// One row of a statement, read by column position as GRDB's own `Codable` record decoding reads
/// it with the default strategies (which no Folio record changes): a value that is
/// `DatabaseValueConvertible` (a date, a text, a number, a source) as itself, anything else (an
/// array, a nested record) as JSON by the record's `databaseJSONDecoder(for:)`. Each column is
/// found by name once for all the rows (`Columns`), not once a row. What code generated from a
/// record's properties reads (`Photo+Row.generated.swift`); `RowReaderTests` holds it to
/// GRDB's decoding.
struct RowReader {
    /// Where a record's columns are in a statement's rows, in the order the record gives their names.
    struct Columns {
        let table: String
        let names: [String]
        /// Nil for a column the statement does not select: an optional property reads it as nil.
        let positions: [Int?]
        let decoders: [JSONDecoder]

        init<Record: FetchableRecord & TableRecord>(_ record: Record.Type, names: [String], in statement: Statement) {
            table = Record.databaseTableName
            self.names = names
            positions = names.map { statement.index(ofColumn: $0) }
            decoders = names.map { Record.databaseJSONDecoder(for: $0) }
        }

        func position(_ field: Int) throws -> Int {
            guard let position = positions[field] else { throw missing(field, "is not selected") }
            return position
        }

        func missing(_ field: Int, _ what: String) -> FolioError {
            FolioError(path: "table \(table)", reason: "column \(names[field]) \(what)")
        }
    }

    let row: Row
    let columns: Columns

    func value<Value: DatabaseValueConvertible>(_ field: Int) throws -> Value {
        try row.decode(Value.self, atIndex: columns.position(field))
    }

    func value<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ field: Int) throws -> Value {
        try row.decode(Value.self, atIndex: columns.position(field))
    }

    func optional<Value: DatabaseValueConvertible>(_ field: Int) throws -> Value? {
        guard let position = columns.positions[field] else { return nil }
        return try row.decode(Value?.self, atIndex: position)
    }

    func optional<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ field: Int) throws -> Value? {
        guard let position = columns.positions[field] else { return nil }
        return try row.decode(Value?.self, atIndex: position)
    }

    func decoded<Value: Decodable>(_ field: Int) throws -> Value {
        let position = try columns.position(field)
        return try row.withUnsafeData(atIndex: position) { data in
            guard let data else { throw columns.missing(field, "is NULL") }
            return try columns.decoders[field].decode(Value.self, from: data)
        }
    }

    func optionalDecoded<Value: Decodable>(_ field: Int) throws -> Value? {
        guard let position = columns.positions[field], !row.hasNull(atIndex: position) else { return nil }
        return try decoded(field)
    }
}

extension RowReader {
    /// Reads each row `request` fetches, its record's columns (`names`) found once for them all.
    static func forEach<Record: FetchableRecord & TableRecord>(_ db: Database, _ request: QueryInterfaceRequest<Record>, names: [String],
                                                              _ body: (RowReader) throws -> Void) throws {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        let columns = Columns(Record.self, names: names, in: prepared.statement)
        let rows = try Row.fetchCursor(prepared.statement, adapter: prepared.adapter)
        while let row = try rows.next() {
            try body(RowReader(row: row, columns: columns))
        }
    }
}

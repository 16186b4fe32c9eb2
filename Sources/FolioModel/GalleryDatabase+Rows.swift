import FolioCore
import Foundation
import GRDB

extension GalleryDatabase {
    /// The id of a record the import is about to write. Rows are written by `insertRows`, which
    /// leaves `id` out and lets SQLite give it, so this value never reaches the model.
    static let unwrittenID: Int64 = 0

    /// Writes `records` in multi-row INSERTs (a handful of statements whatever their number)
    /// whose columns are the records' own encoding, their coding keys (`RowEncoder`): a property
    /// added to a record is a column written here with nothing else to edit. `id` is left to
    /// SQLite. With `key`, a row whose `key` is taken is updated instead, by the clauses `updates`
    /// makes of the columns written (none: the row is left as it is).
    static func insertRows<Records: RandomAccessCollection>(
        _ records: Records, perStatement: Int, _ db: Database,
        onConflict key: String? = nil, updates: ([String]) -> [String] = { _ in [] }
    ) throws where Records.Element: EncodableRecord & Encodable & TableRecord & Sendable, Records.Index == Int {
        guard let first = records.first else { return }
        let columns = try RowEncoder.encode(first).map(\.column).filter { $0 != "id" }
        let unlike = FolioError(reason: "a \(Records.Element.databaseTableName) row's columns are not the first row's")
        try insertRows(records, columns: columns, perStatement: perStatement, db, onConflict: key, updates: updates) { record in
            // Every record of a type encodes the same columns in the same order; checked, as a
            // value put in another's column would be written without a word.
            var values: [DatabaseValue] = []
            values.reserveCapacity(columns.count)
            for (column, value) in try RowEncoder.encode(record) where column != "id" {
                guard values.count < columns.count, columns[values.count] == column else { throw unlike }
                values.append(value)
            }
            guard values.count == columns.count else { throw unlike }
            return values
        }
    }

    /// The same, for records that give their columns' values by position (`ColumnOrderedRecord`).
    static func insertRows<Records: RandomAccessCollection>(
        _ records: Records, perStatement: Int, _ db: Database,
        onConflict key: String? = nil, updates: ([String]) -> [String] = { _ in [] }
    ) throws where Records.Element: ColumnOrderedRecord, Records.Index == Int {
        let names = Records.Element.columnNames
        let written = names.indices.filter { names[$0] != "id" }
        try insertRows(records, columns: written.map { names[$0] }, perStatement: perStatement, db, onConflict: key, updates: updates) { record in
            let values = try record.columnValues()
            guard values.count == names.count else {
                throw FolioError(reason: "a \(Records.Element.databaseTableName) row has \(values.count) values for \(names.count) columns")
            }
            return written.map { values[$0] }
        }
    }

    /// Writes `records`, each as `values` gives its `columns`.
    private static func insertRows<Records: RandomAccessCollection>(
        _ records: Records, columns: [String], perStatement: Int, _ db: Database,
        onConflict key: String?, updates: ([String]) -> [String],
        values: @escaping @Sendable (Records.Element) throws -> [DatabaseValue]
    ) throws where Records.Element: TableRecord & Sendable, Records.Index == Int {
        guard !records.isEmpty else { return }
        // Encoding a record into its columns costs more than SQLite's writing it: a block is
        // encoded on every core while SQLite writes the block before. A block at a time, so a
        // large batch's encoded rows are never all held at once.
        let blocks = stride(from: records.startIndex, to: records.endIndex, by: Self.encodingBlock).map {
            $0..<Swift.min($0 + Self.encodingBlock, records.endIndex)
        }
        var encoded = EncodedRows(Array(records[blocks[0]]), values).rows()
        var conflict = ""
        if let key {
            let clauses = updates(columns)
            conflict = clauses.isEmpty ? " ON CONFLICT(\(key)) DO NOTHING"
                : " ON CONFLICT(\(key)) DO UPDATE SET " + clauses.joined(separator: ", ")
        }
        let names = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let table = Records.Element.databaseTableName.quotedDatabaseIdentifier
        for index in blocks.indices {
            let next = index + 1 < blocks.count ? EncodedRows(Array(records[blocks[index + 1]]), values) : nil
            for chunk in encoded.chunked(perStatement) {
                var arguments = StatementArguments()
                for record in chunk {
                    arguments += StatementArguments(try record.get())
                }
                try db.execute(sql: """
                    INSERT INTO \(table) (\(names)) VALUES \(rows(chunk.count, columns: columns.count))\(conflict)
                    """, arguments: arguments)
            }
            if let next { encoded = next.rows() }
        }
    }

    /// Records encoded by `insertRows` at a time.
    static let encodingBlock = 512

    /// A block of records being encoded on other threads from the moment it is made.
    final class EncodedRows<Record: Sendable>: @unchecked Sendable {
        typealias Encoded = Result<[DatabaseValue], any Error>
        private let done = DispatchSemaphore(value: 0)
        /// Written by the encoding thread before `done` is signalled, read only after.
        private var encoded: [Encoded] = []

        init(_ records: [Record], _ values: @escaping @Sendable (Record) throws -> [DatabaseValue]) {
            DispatchQueue.global().async { [self] in
                encoded = records.concurrentMap(minimum: 256) { record in Result { try values(record) } }
                done.signal()
            }
        }

        /// Waits for the block's rows.
        func rows() -> [Encoded] {
            done.wait()
            return encoded
        }
    }

    /// `column = excluded.column`: the row takes the new value.
    static func takingNew(_ column: String) -> String {
        "\(column.quotedDatabaseIdentifier) = excluded.\(column.quotedDatabaseIdentifier)"
    }
}

/// A record that gives its columns' values by position, in the order of `columnNames`: written
/// without being encoded through `Encodable` (a photo's import row, whose values code generated
/// from `Photo`'s properties gives: `Photo+Row.generated.swift`).
protocol ColumnOrderedRecord: TableRecord, Sendable {
    static var columnNames: [String] { get }
    func columnValues() throws -> [DatabaseValue]
}

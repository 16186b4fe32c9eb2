import GRDB

extension GalleryDatabase {
    /// The id of a record the import is about to write. Rows are written by `insertRows`, which
    /// leaves `id` out and lets SQLite give it, so this value never reaches the model.
    static let unwrittenID: Int64 = 0

    /// Writes `records` in multi-row INSERTs (a handful of statements whatever their number)
    /// whose columns are the records' own encoding, their coding keys: a property added to a
    /// record is a column written here with nothing else to edit. `id` is left to SQLite.
    /// With `key`, a row whose `key` is taken is updated instead, by the clauses `updates`
    /// makes of the columns written (none: the row is left as it is).
    static func insertRows<Record: EncodableRecord & TableRecord & Sendable>(
        _ records: [Record], perStatement: Int, _ db: Database,
        onConflict key: String? = nil, updates: ([String]) -> [String] = { _ in [] }
    ) throws {
        guard !records.isEmpty else { return }
        // Encoded on every core: GRDB's encoding of a record costs more than SQLite's writing it.
        let encoded = records.concurrentMap(minimum: 256) { record in Result { try record.databaseDictionary } }
        let columns = try encoded[0].get().keys.filter { $0 != "id" }.sorted()
        var conflict = ""
        if let key {
            let clauses = updates(columns)
            conflict = clauses.isEmpty ? " ON CONFLICT(\(key)) DO NOTHING"
                : " ON CONFLICT(\(key)) DO UPDATE SET " + clauses.joined(separator: ", ")
        }
        let names = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        for chunk in encoded.chunked(perStatement) {
            var arguments = StatementArguments()
            for record in chunk {
                let row = try record.get()
                arguments += StatementArguments(columns.map { row[$0] ?? .null })
            }
            try db.execute(sql: """
                INSERT INTO \(Record.databaseTableName.quotedDatabaseIdentifier) (\(names)) \
                VALUES \(rows(chunk.count, columns: columns.count))\(conflict)
                """, arguments: arguments)
        }
    }

    /// `column = excluded.column`: the row takes the new value.
    static func takingNew(_ column: String) -> String {
        "\(column.quotedDatabaseIdentifier) = excluded.\(column.quotedDatabaseIdentifier)"
    }
}

import GRDB

/// A record that gives its columns' values itself, in one order, rather than through GRDB's
/// container (a dictionary keyed by names compared without case): what `insertRows` writes a
/// large batch of. A photo's 31 columns through the container took about 20 µs, given as values
/// about 6.
protocol ColumnRecord: EncodableRecord {
    /// The columns, in the order `columnValues` gives them.
    static var columnNames: [String] { get }
    func columnValues() throws -> [DatabaseValue]
}

extension ColumnRecord {
    /// GRDB's encoding of the record, from its values: what `encode(to:)` calls, so that the
    /// record is written the same way by GRDB's methods and by `insertRows`.
    func encodeColumns(to container: inout PersistenceContainer) throws {
        for (name, value) in zip(Self.columnNames, try columnValues()) {
            container[name] = value
        }
    }
}

import FolioCore
import FolioImaging
import GRDB

/// A photo's format is stored as its name ("jpeg", "heic").
extension ImageFormat: Codable, DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { rawValue.databaseValue }

    /// A name this Folio does not know reads as JPEG, as the model's text always did.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> ImageFormat? {
        String.fromDatabaseValue(dbValue).map { ImageFormat(rawValue: $0) ?? .jpeg }
    }
}

/// Packed (a snapshot's records) as its name, without a decoder of its own.
extension ImageFormat: PackedScalar {}

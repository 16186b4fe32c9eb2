import FolioCore
import FolioImaging
import GRDB

/// What a photo's pixels mean is stored as its name ("srgb", "rgb-icc").
extension SourceColour: Codable, DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { rawValue.databaseValue }

    /// A name this Folio does not know reads as sRGB (`init(modelText:)`).
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> SourceColour? {
        String.fromDatabaseValue(dbValue).map(SourceColour.init(modelText:))
    }
}

/// Packed (a snapshot's records) as its name, without a decoder of its own.
extension SourceColour: PackedScalar {}

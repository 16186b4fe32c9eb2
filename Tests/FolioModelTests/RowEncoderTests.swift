import FolioCore
@testable import FolioModel
import Foundation
import GRDB
import XCTest

/// The import writes each record's columns as `RowEncoder` gives them: the same columns and values
/// GRDB's own record encoding (`databaseDictionary`) gives, for every record it writes, with every
/// property set and with none.
final class RowEncoderTests: XCTestCase {
    func testEveryRecordTheImportWritesIsEncodedAsGRDBEncodesIt() throws {
        let (full, bare) = ModelTests.fullAndBare()
        try expectSameAsGRDB(full)
        try expectSameAsGRDB(bare)
        try expectSameAsGRDB(Person(id: 3, key: "name:Ann", name: "Ann", slug: "ann"))
        try expectSameAsGRDB(Place(id: 0, name: "Palo Alto, California", title: "Palo Alto", subtitle: "California", slug: "palo-alto",
                                   regionId: 2, hasFavorites: true))
        try expectSameAsGRDB(Region(id: 1, name: "California", slug: "california", photographerCount: 12))
        try expectSameAsGRDB(FlickrPlace(placeId: "abc", name: "Paris", region: "France"))
        try expectSameAsGRDB(Thumbnail(photoId: 5, spec: "thumb 300", checksum: "c", width: 300, height: 200, bytes: Data([0, 1, 255])))
    }

    /// A photo's import row is written by position (`Photo+Row.generated.swift`): the columns and
    /// values `RowEncoder`, and so GRDB, give the photo, then what the next import tells it by.
    func testAPhotosRowByPositionIsItsEncoding() throws {
        let (full, bare) = ModelTests.fullAndBare()
        for photo in [full, bare] {
            let encoded = try RowEncoder.encode(photo)
            XCTAssertEqual(Photo.columnNames, encoded.map(\.column))
            XCTAssertEqual(try photo.columnValues(), encoded.map(\.value))
            let row = PhotoImport.Row(photo: photo, fileStamp: "12 34", fingerprint: "f")
            XCTAssertEqual(PhotoImport.Row.columnNames, encoded.map(\.column) + ["fileStamp", "fingerprint"])
            XCTAssertEqual(try row.columnValues(), encoded.map(\.value) + ["12 34".databaseValue, "f".databaseValue])
        }
    }

    /// A record that is a list.
    struct Listed: EncodableRecord, TableRecord, Encodable {
        static let databaseTableName = "listed"
        func encode(to encoder: any Encoder) throws {
            var list = encoder.unkeyedContainer()
            try list.encode("a")
        }
    }

    /// A record with a column encoded in a nested container.
    struct Nested: EncodableRecord, TableRecord, Encodable {
        static let databaseTableName = "nested"
        enum CodingKeys: String, CodingKey { case name, inner }
        enum InnerKeys: String, CodingKey { case part }
        func encode(to encoder: any Encoder) throws {
            var columns = encoder.container(keyedBy: CodingKeys.self)
            try columns.encode("n", forKey: .name)
            var inner = columns.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
            try inner.encode(1, forKey: .part)
        }
    }

    /// A record that is not a row of columns by key is an error naming its table and why, not
    /// a stop: as GRDB's own encoder would not write it, nothing is written.
    func testARecordThatIsNoRowIsAnErrorNamingItsTableAndWhy() {
        XCTAssertThrowsError(try RowEncoder.encode(Listed())) { error in
            XCTAssertEqual((error as? FolioError)?.path, "table listed")
            XCTAssertEqual((error as? FolioError)?.reason, "a row cannot be written: it encodes itself as a list, not as columns by key")
        }
        XCTAssertThrowsError(try RowEncoder.encode(Nested())) { error in
            XCTAssertEqual((error as? FolioError)?.path, "table nested")
            XCTAssertEqual((error as? FolioError)?.reason, "a row cannot be written: column 'inner' is encoded in a nested container")
        }
    }

    private func expectSameAsGRDB<Record: EncodableRecord & TableRecord & Encodable>(_ record: Record, file: StaticString = #filePath, line: UInt = #line) throws {
        let encoded = try RowEncoder.encode(record)
        let grdb = try record.databaseDictionary
        XCTAssertEqual(Set(encoded.map(\.column)), Set(grdb.keys), "\(Record.self)'s columns", file: file, line: line)
        XCTAssertEqual(encoded.count, grdb.count, "\(Record.self): each column once", file: file, line: line)
        for (column, value) in encoded {
            XCTAssertEqual(value, grdb[column], "\(Record.self).\(column)", file: file, line: line)
        }
    }
}

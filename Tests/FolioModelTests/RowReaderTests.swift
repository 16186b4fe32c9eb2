import FolioCore
@testable import FolioModel
import FolioTestSupport
import Foundation
import GRDB
import XCTest

/// The snapshot reads photos by column position (`RowReader`, through code generated from `Photo`'s
/// properties): the same photos GRDB's own `Codable` decoding reads from the same rows, with every
/// property set and with none.
final class RowReaderTests: XCTestCase {
    func testAPhotosRowReadsAsGRDBDecodesIt() throws {
        let database = try GalleryDatabase.inMemory()
        var (full, bare) = ModelTests.fullAndBare()
        try database.writer.write { db in
            try Region(id: 1, name: "California", slug: "california", photographerCount: 1).insert(db)
            try Place(id: 1, name: "Palo Alto, California", title: "Palo Alto", subtitle: "California", slug: "palo-alto",
                      regionId: 1, hasFavorites: true).insert(db)
            try Person(id: 1, key: "name:Ann", name: "Ann", slug: "ann").insert(db)
            (full.id, full.personId, full.placeId) = (1, 1, 1)
            (bare.id, bare.personId) = (2, 1)
            try full.insert(db)
            try bare.insert(db)
        }
        try database.writer.read { db in
            let request = Photo.order(Photo.Columns.identifier)
            var read: [Photo] = []
            try RowReader.forEach(db, request, names: Photo.columnNames) { read.append(try Photo($0)) }
            let decoded = try request.fetchAll(db)
            XCTAssertEqual(read.count, 2)
            XCTAssertEqual(read, decoded)
            XCTAssertEqual(read.first?.motion, full.motion)
            XCTAssertEqual(read.first?.pictured, full.pictured)
            XCTAssertNil(read.last?.remote)
        }
    }

    /// A statement without a column the record cannot do without is an error naming the table
    /// and the column; one without an optional column reads it as nil, as GRDB does.
    func testAColumnNotSelectedIsAnErrorOnlyWhereTheRecordNeedsIt() throws {
        let database = try GalleryDatabase.inMemory()
        try database.apply(ImportBatch(upserts: [PhotoImport(source: .content(path: "1.jpg"), identifier: "p1", title: "One",
                                                             person: "Ann", place: nil, uploaded: Date(timeIntervalSince1970: 1),
                                                             width: 4, height: 3, checksum: "c")]))
        try database.writer.read { db in
            XCTAssertThrowsError(try RowReader.forEach(db, Photo.select(Column("id")), names: Photo.columnNames) { _ = try Photo($0) }) { error in
                XCTAssertEqual((error as? FolioError)?.path, "table photo")
                XCTAssertEqual((error as? FolioError)?.reason, "column identifier is not selected")
            }
            let names = ["title", "lens"]
            var read: [(String?, String?)] = []
            try RowReader.forEach(db, Photo.select(Column("title")), names: names) { row in
                read.append((try row.optional(0), try row.optional(1)))
            }
            XCTAssertEqual(read.map(\.0), ["One"])
            XCTAssertEqual(read.map(\.1), [nil])
        }
    }
}

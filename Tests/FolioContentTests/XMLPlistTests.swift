@testable import FolioContent
@testable import FolioCore
import FolioTestSupport
import Foundation
import XCTest

/// Catalogs are read by Folio's own XML reader where it can, and by Foundation where it gives up:
/// what it reads must be what Foundation reads, value for value.
final class XMLPlistTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func foundation(_ data: Data) throws -> Any {
        try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    }

    /// Two property-list values are the same: numbers by value (a flag is not a number), dates to the second.
    func same(_ a: Any, _ b: Any) -> Bool {
        switch (a, b) {
        case (let a as [Any], let b as [Any]): return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case (let a as [String: Any], let b as [String: Any]):
            return Set(a.keys) == Set(b.keys) && a.allSatisfy { key, value in same(value, b[key]!) }
        case (let a as String, let b as String): return a.utf8.elementsEqual(b.utf8)
        case (let a as Date, let b as Date): return a == b
        case (let a as Bool, let b as Bool): return a == b
        case (let a as NSNumber, let b as NSNumber): return a.doubleValue == b.doubleValue && (a is Bool) == (b is Bool)
        default: return false
        }
    }

    func assertReadAsFoundationReads(_ data: Data, _ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let ours = try XCTUnwrap(XMLPlist.read(data).value, "\(label): given up on", file: file, line: line)
        let theirs = try foundation(data)
        XCTAssertTrue(same(ours, theirs), "\(label): \(ours) against \(theirs)", file: file, line: line)
    }

    func testCatalogsFoundationWritesReadTheSame() throws {
        var random = SplitMix64(0x9_1157)
        let texts = ["Sunset", "Café – Zürich 東京 🌅", "a & b < c > d \"quoted\" 'single'", "  spaces  ", "line\nbreak", "tab\there", "", "]]>", "&amp;"]
        for round in 0..<20 {
            var records: [[String: Any]] = []
            for n in 0..<Int.random(in: 0...30, using: &random) {
                var record: [String: Any] = ["path": "folder/photo \(n).jpg", "name": texts.randomElement(using: &random)!]
                if Bool.random(using: &random) { record["favorite"] = Bool.random(using: &random) }
                if Bool.random(using: &random) { record["latitude"] = Double.random(in: -90...90, using: &random) }
                if Bool.random(using: &random) { record["longitude"] = Int.random(in: -180...180, using: &random) }
                if Bool.random(using: &random) {
                    record["taken"] = Date(timeIntervalSince1970: Double(Int.random(in: -2_000_000_000...4_000_000_000, using: &random)))
                }
                if Bool.random(using: &random) { record["tags"] = (0..<Int.random(in: 0...3, using: &random)).map { _ in texts.randomElement(using: &random)! } }
                if Bool.random(using: &random) { record["nested"] = ["a": [1, 2.5, "x"], "b": [String: Any]()] }
                records.append(record)
            }
            let data = try PropertyListSerialization.data(fromPropertyList: records, format: .xml, options: 0)
            try assertReadAsFoundationReads(data, "round \(round)")
        }
    }

    func testTheRepositorysCatalogsReadTheSame() throws {
        // The XML ones: a binary catalog is Foundation's to read.
        let catalogs = ["content/FakeData.plist", "content/travel/album.plist", "content/library/album.plist", "content/cc0/album.plist",
                        "Fuzz/Corpus/catalog/demo.plist"]
        for path in catalogs {
            try assertReadAsFoundationReads(try Data(contentsOf: Self.repository.appendingPathComponent(path)), path)
        }
    }

    func testWhatItDoesNotKnowIsLeftToFoundation() throws {
        func plist(_ body: String) -> Data {
            Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n\(body)\n</plist>\n".utf8)
        }
        let unknown = [
            "<array><!-- a comment --></array>", "<array><string><![CDATA[x]]></string></array>", "<array><data>AAEC</data></array>",
            "<dict><key>a</key><string>1</string><key>a</key><string>2</string></dict>", "<array><string>&nbsp;</string></array>",
            "<array><string>a\r\nb</string></array>", "<array><date>1500-01-01T00:00:00Z</date></array>",
            "<array><real>nan</real></array>", "<array><integer> 5</integer></array>", "<array><string>open</array>",
            "<array><string>a\u{01}b</string></array>",
        ]
        for body in unknown { XCTAssertNil(XMLPlist.read(plist(body)).value, body) }
        XCTAssertNil(XMLPlist.read(try PropertyListSerialization.data(fromPropertyList: ["a"], format: .binary, options: 0)).value)
        // What it knows, written by hand as people do: entities, empty elements, a flag, numbers.
        try assertReadAsFoundationReads(plist("""
            <array>
            \t<dict>
            \t\t<key>path</key><string>a&amp;b &#233;&#x1F305;.jpg</string>
            \t\t<key>favorite</key><true/>
            \t\t<key>tags</key><array/>
            \t\t<key>empty</key><string/>
            \t\t<key>latitude</key><real>-33.5e0</real>
            \t\t<key>count</key><integer>-12</integer>
            \t\t<key>taken</key><date>2024-02-29T23:59:59Z</date>
            \t</dict>
            \t<dict/>
            </array>
            """), "by hand")
    }

    func testACatalogReadEitherWayGivesTheSameRecordsAndIssues() throws {
        // Wrong types and all: the records and what is said of them do not depend on the reader.
        let records: [[String: Any]] = [
            ["path": "a.jpg", "favorite": 1, "latitude": "12.5", "longitude": true, "taken": "2024-01-01", "tags": ["x", 2], "extra": 1],
            ["path": "", "name": "no path"], ["name": "missing"], ["path": "../outside.jpg"], ["path": "b.jpg", "favorite": false, "latitude": 91],
            ["path": "c.jpg", "name": "  padded\tname ", "user": "Plain", "description": "line\nbreak\t", "place": " ", "region": "Zürich"],
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: records, format: .xml, options: 0)
        XCTAssertNotNil(XMLPlist.read(data).value)
        let reader = CatalogReader(contentRoot: URL(fileURLWithPath: "/nonexistent"), files: LocalFileAccess())
        let ours = reader.parse(data, catalog: "c/catalog.plist")
        let binary = try PropertyListSerialization.data(fromPropertyList: records, format: .binary, options: 0)
        let theirs = reader.parse(binary, catalog: "c/catalog.plist")
        XCTAssertEqual(ours.records, theirs.records)
        XCTAssertEqual(ours.issues.map(\.description), theirs.issues.map(\.description))
        XCTAssertFalse(ours.issues.isEmpty)
        XCTAssertEqual(ours.records.last?.name, "padded name")
        XCTAssertEqual(ours.records.last?.user, "Plain")
        XCTAssertNil(ours.records.last?.place)
    }
}

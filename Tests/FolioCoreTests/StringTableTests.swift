@testable import FolioCore
import Foundation
import XCTest

/// Strings held packed and numbered (`StringTable`, under `PathSet` and the search postings'
/// words): each found by its bytes at the number it was first given, through growth, a table let
/// go and strings appended unlooked.
final class StringTableTests: XCTestCase {
    private static let strings = [
        "photo", "", "e\u{301}te\u{301}", "\u{e9}t\u{e9}", "日本の写真", "a word longer than a small string holds",
        "123456", "photo ", "Photo",
    ]

    func testEachStringKeepsTheNumberItWasFirstGiven() {
        var table = StringTable()
        XCTAssertNil(table.number(of: "photo"), "an empty table finds nothing")
        for (number, string) in Self.strings.enumerated() {
            XCTAssertEqual(table.insert(string).number, number, string)
        }
        XCTAssertEqual(table.count, Self.strings.count, "the two normal forms of \"été\" are two strings")
        for (number, string) in Self.strings.enumerated() {
            let again = table.insert(string)
            XCTAssertEqual(again.number, number, string)
            XCTAssertFalse(again.inserted, string)
            XCTAssertEqual(table.number(of: string), number, string)
            XCTAssertEqual(Array(table[number].utf8), Array(string.utf8), "\(number): its bytes as they went in")
            XCTAssertEqual(table.withBytes(of: number) { Array($0) }, Array(string.utf8), "\(number)")
        }
        XCTAssertNil(table.number(of: "phot"))
        XCTAssertNil(table.number(of: "photos"))
        XCTAssertEqual(table.count, Self.strings.count)
    }

    func testTheTableGrowsAndIsMadeAgainAfterBeingLetGo() {
        var table = StringTable()
        for number in 0..<20_000 { XCTAssertEqual(table.insert(String(number)).number, number) }
        table.letGoOfTable()
        XCTAssertEqual(table[12_345], "12345", "the strings stay when the table goes")
        XCTAssertEqual(table.insert("19999").number, 19_999, "found again once the table is made again")
        XCTAssertFalse(table.insert("19999").inserted)
        XCTAssertEqual(table.insert("20000").number, 20_000)
        for number in stride(from: 0, through: 20_000, by: 997) { XCTAssertEqual(table.number(of: String(number)), number) }
    }

    func testAPathSetHoldsEachPathOnce() {
        var set = PathSet(["a/b.jpg", "a/b.jpg", "c", "e\u{301}.jpg"])
        XCTAssertEqual(set.count, 3)
        XCTAssertTrue(set.contains("c"))
        XCTAssertFalse(set.contains("\u{e9}.jpg"), "another normal form is another path")
        XCTAssertTrue(set.insert("\u{e9}.jpg"))
        XCTAssertFalse(set.insert("c"))
        XCTAssertEqual(Array(set), ["a/b.jpg", "c", "e\u{301}.jpg", "\u{e9}.jpg"])
        XCTAssertFalse(PathSet().contains(""))
    }
}

@testable import FolioSite
import Foundation
import XCTest

/// A list of positions held as steps (`PositionList`) gives back each position as it went in,
/// read at random or in a pass, whichever way and however far it steps.
final class PositionListTests: XCTestCase {
    /// Lists on both sides of each whole-held position: empty, rising by little and by much,
    /// falling, to the ends of four bytes and back, repeating.
    private static func lists() -> [[Int]] {
        var random = SystemRandomNumberGenerator()
        let top = Int(UInt32.max) - 1
        var lists: [[Int]] = [[], [0], [top], [0, top, 0, top], [5, 5, 5]]
        for length in [15, 16, 17, 31, 32, 33, 1_000] {
            lists.append((0..<length).map { $0 * 3 })
            lists.append((0..<length).map { 1_000_000 - $0 * 997 })
            lists.append((0..<length).map { _ in Int.random(in: 0...top, using: &random) })
            lists.append((0..<length).map { $0 % 2 == 0 ? $0 : top - $0 })
        }
        return lists
    }

    func testEachPositionComesBackAsItWent() {
        for positions in Self.lists() {
            let list = PositionList(positions)
            XCTAssertEqual(list.count, positions.count)
            XCTAssertEqual(Array(list), positions, "in a pass")
            XCTAssertEqual(list.indices.map { list[$0] }, positions, "at random")
            XCTAssertEqual(Array(list.reversed()), positions.reversed())
            if positions.count > 20 {
                XCTAssertEqual(Array(list[7..<20]), Array(positions[7..<20]), "a page of them")
            }
            var appended = PositionList()
            appended.reserveCapacity(positions.count)
            for position in positions { appended.append(position) }
            XCTAssertEqual(Array(appended), positions)
            appended.letGoOfRoom()
            XCTAssertEqual(appended, list, "the same positions, the same list")
            for position in positions.prefix(40) {
                XCTAssertEqual(list.firstIndex(of: position), positions.firstIndex(of: position))
            }
            XCTAssertNil(list.firstIndex(of: -1))
        }
    }

    func testASortedListIsItsPositionsSorted() {
        for positions in Self.lists() {
            var list = PositionList(positions)
            list.sort(by: >)
            XCTAssertEqual(Array(list), positions.sorted(by: >))
        }
    }

    func testAListDiffersFromAnotherByItsPositions() {
        XCTAssertNotEqual(PositionList([1, 2, 3]), PositionList([1, 2, 4]))
        XCTAssertNotEqual(PositionList([1, 2, 3]), PositionList([1, 2]))
        XCTAssertEqual(PositionList([1, 2, 3]), [1, 2, 3])
    }
}

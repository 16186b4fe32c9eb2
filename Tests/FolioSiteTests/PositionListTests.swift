import FolioCore
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

    /// Spilled into a store, in its memory or in its file, a list reads back what it held: a page
    /// anywhere, one position at random, or the whole in a pass.
    func testASpilledListReadsBackWhatItHeld() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("positions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let lists = Self.lists() + [(0..<5_000).map { $0 * 2 + $0 % 7 }]
        for (spillAt, inFile) in [(Int.max, false), (64, true)] {
            let store = PackedStore(spillingInto: folder.path, at: spillAt)
            let spilled = lists.map { PositionList($0).spilled(into: store) }
            store.seal()
            XCTAssertEqual(store.spills, inFile)
            for (positions, list) in zip(lists, spilled) {
                XCTAssertEqual(list.isSpilled, !positions.isEmpty, "an empty list has nothing to spill")
                XCTAssertEqual(list.count, positions.count)
                XCTAssertEqual(Array(list), positions, "in a pass")
                XCTAssertEqual(list, PositionList(positions))
                for start in Set([0, 1, 15, 16, 17, positions.count / 2, positions.count - 1]) where start >= 0 && start < positions.count {
                    for length in [1, 15, 16, 17, 100] {
                        let range = start..<min(start + length, positions.count)
                        XCTAssertEqual(list.positions(in: range), Array(positions[range]), "a page at \(range)")
                    }
                    XCTAssertEqual(list[start], positions[start], "at random")
                }
                XCTAssertEqual(list.positions(in: positions.count..<positions.count), [])
            }
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

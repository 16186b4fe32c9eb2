import XCTest
@testable import FolioCore

final class CollectionsTests: XCTestCase {
    func testAConcurrentMapIsTheMapInOrderAtAnySize() {
        for count in [0, 1, 4095, 4096, 4097, 100_003] {
            let values = (0..<count).map { "photo \($0)" }
            XCTAssertEqual(values.concurrentMap { $0.utf8.count * 3 + ($0.last.map { Int($0.asciiValue ?? 0) } ?? 0) },
                           values.map { $0.utf8.count * 3 + ($0.last.map { Int($0.asciiValue ?? 0) } ?? 0) }, "\(count)")
        }
        XCTAssertEqual([1, 2, 3].concurrentMap(minimum: 1) { $0 * 2 }, [2, 4, 6], "cut into more parts than it has elements")
    }

    func testChunksCoverTheArrayInOrder() {
        let values = Array(0..<10)
        XCTAssertEqual(values.chunked(4).map(Array.init), [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]])
        XCTAssertEqual([Int]().chunked(4).count, 0)
    }
}

@testable import FolioCore
@testable import FolioSite
import FolioTestSupport
import XCTest

final class CollectionsTests: XCTestCase {
    func testAConcurrentMapIsTheMapInOrderAtAnySize() {
        for count in [0, 1, 4095, 4096, 4097, 100_003] {
            let values = (0..<count).map { "photo \($0)" }
            XCTAssertEqual(values.concurrentMap { $0.utf8.count * 3 + ($0.last.map { Int($0.asciiValue ?? 0) } ?? 0) },
                           values.map { $0.utf8.count * 3 + ($0.last.map { Int($0.asciiValue ?? 0) } ?? 0) }, "\(count)")
        }
        XCTAssertEqual([1, 2, 3].concurrentMap(minimum: 1) { $0 * 2 }, [2, 4, 6], "cut into more parts than it has elements")
    }

    /// Sorted without scratch space, an array is what the standard library's stable sort makes
    /// of it: any size, in order already or backwards, with many equal keys (kept in the order
    /// they came) and with elements held by reference.
    func testASortWithoutScratchIsTheStableSort() {
        var random = SplitMix64(0x50_27)
        for count in [0, 1, 2, 3, 17, 1_000, 65_537] {
            let shuffled = (0..<count).map { at in (key: Int(random.next() % UInt64(max(count / 4, 1))), at: at, name: "photo \(at)") }
            for values in [shuffled, shuffled.sorted { $0.at < $1.at }, shuffled.reversed()] {
                var sorted = values
                sorted.sortWithoutScratch { $0.key < $1.key }
                let expected = values.sorted { $0.key < $1.key }
                XCTAssertEqual(sorted.map(\.at), expected.map(\.at), "\(count)")
                XCTAssertEqual(sorted.map(\.name), expected.map(\.name), "\(count)")
            }
        }
        var letters = Array("folio gallery")
        letters.sortWithoutScratch(by: >)
        XCTAssertEqual(String(letters), "yroollligfea ")
    }

    func testChunksCoverTheArrayInOrder() {
        let values = Array(0..<10)
        XCTAssertEqual(values.chunked(4).map(Array.init), [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]])
        XCTAssertEqual([Int]().chunked(4).count, 0)
    }

    /// A set of paths in one buffer holds what a `Set<String>` would, through its growth: paths
    /// of any bytes, one that starts another, the empty path, the same path twice.
    func testAPathSetHoldsWhatASetOfStringsWould() {
        var random = SplitMix64(0x9A7_5E7)
        var paths = PathSet()
        var strings = Set<String>()
        let odd = ["", "a", "a/", "a/b", "ab", "café/été.html", "日本/京都.html", "x/ @y.html"]
        for number in 0..<20_000 {
            let path = number < odd.count ? odd[number] : "photos/p\(random.next() % 15_000).html"
            XCTAssertEqual(paths.insert(path), strings.insert(path).inserted, path)
        }
        XCTAssertEqual(paths.count, strings.count)
        for path in strings { XCTAssertTrue(paths.contains(path), path) }
        for number in 15_000..<15_200 { XCTAssertFalse(paths.contains("photos/p\(number).html")) }
        XCTAssertFalse(paths.contains("a/b/"))
        var reserved = PathSet()
        reserved.reserveCapacity(1_000)
        for path in odd { reserved.insert(path) }
        XCTAssertEqual(reserved.count, odd.count)
        XCTAssertTrue(odd.allSatisfy(reserved.contains))
    }

    /// A table of numbers by the strings held elsewhere finds what a dictionary of the strings
    /// would: the last number filed under a string met twice, nothing for a string never filed,
    /// through every growth of the table.
    func testANumberTableFindsWhatADictionaryWould() {
        var random = SplitMix64(0x7AB_1E)
        let odd = ["", "a", "A", "a ", "café", "cafe\u{301}", "日本", "p0"]
        var keys: [String] = []
        var table = NumberTable()
        var dictionary: [String: Int] = [:]
        for number in 0..<20_000 {
            let key = number < odd.count ? odd[number] : "p\(random.next() % 15_000)"
            keys.append(key)
            table.insert(number, for: key) { keys[$0] }
            dictionary[key] = number
        }
        XCTAssertEqual(table.count, dictionary.count)
        for (key, number) in dictionary { XCTAssertEqual(table.number(of: key) { keys[$0] }, number, key) }
        for number in 15_000..<15_200 { XCTAssertNil(table.number(of: "p\(number)") { keys[$0] }) }
        let built = NumberTable(count: keys.count) { keys[$0] }
        XCTAssertEqual(built.count, dictionary.count)
        for (key, number) in dictionary { XCTAssertEqual(built.number(of: key) { keys[$0] }, number, key) }
        XCTAssertNil(NumberTable().number(of: "") { keys[$0] })
    }

    /// Paths known by their hashes find every path put in, any number of times, in any order,
    /// and (the hashes being 64 bits) none of thousands of others.
    func testPathHashesHoldWhatASetOfPathsWould() {
        var random = SplitMix64(0x9A7_4A5)
        let paths = (0..<20_000).map { _ in "media/\(String(random.next() % 15_000, radix: 16))-thumb.jpg" }
        var hashes = PathHashes(paths.prefix(5_000))
        hashes.insert(hashes: paths.dropFirst(5_000).map(PathHashes.hash))
        hashes.putInOrder()
        for path in paths { XCTAssertTrue(hashes.contains(path), path) }
        let others = Set((0..<15_000).map { "media/\(String($0, radix: 16))-thumb.jpg" }).subtracting(paths)
        XCTAssertFalse(others.isEmpty)
        for path in others { XCTAssertFalse(hashes.contains(path), path) }
        XCTAssertFalse(PathHashes().contains(""))
        XCTAssertTrue(PathHashes(["", "a"]).contains(""))
    }

    /// An element found by halving a sorted array is where a look through it finds it, at any
    /// length, duplicates and all, and nothing else is found.
    func testSortedIndexFindsWhatALookThroughFinds() {
        var random = SplitMix64(0x5027)
        for length in [0, 1, 2, 3, 7, 64, 1_000] {
            let values = (0..<length).map { _ in Int(random.next() % 500) }.sorted()
            for value in -1...501 {
                let found = values.sortedIndex(of: value)
                XCTAssertEqual(found, values.firstIndex(of: value), "\(value) in \(length)")
                XCTAssertEqual(values.map { (number: $0, text: "\($0)") }.sortedIndex(of: value, by: \.number), found)
            }
        }
    }

    /// Sorted on two cores, an array comes out as the stable sort of the whole puts it: elements
    /// that neither comes before (same key) in the order they were in, across the halves too.
    func testASortOnTwoCoresIsTheStableSort() {
        var random = SplitMix64(0x50_47ED)
        for count in [0, 1, 63, 64, 65, 1_000, 4_097] {
            let items = (0..<count).map { (key: Int(random.next() % 40), at: $0) }
            let sorted = items.sorted { $0.key < $1.key }
            XCTAssertEqual(items.sortedInParallel { $0.key < $1.key }.map(\.at), sorted.map(\.at), "\(count)")
        }
        let names = ["Zoë", "zoe", "Émile", "emile", "Ålesund", "aalborg", "Łódź", "lodz", "北京", "10", "9"]
        let many = (0..<500).map { names[$0 % names.count] + " \($0 % 7)" }
        XCTAssertEqual(many.sortedInParallel { Collation.precedes($0, $1) }, many.sorted { Collation.precedes($0, $1) })
    }
}

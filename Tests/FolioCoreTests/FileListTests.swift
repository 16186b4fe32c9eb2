@testable import FolioCore
import Foundation
import XCTest

/// A walk's files held packed (`FileList`) give back each file as it was put in: its path's
/// bytes, its stamp to the bit, whether it is a link.
final class FileListTests: XCTestCase {
    private static let entries = [
        FileEntry(path: "2024/IMG_1.JPG", isLink: false, stamp: FileStamp(size: 137_588, modified: Date(timeIntervalSince1970: 1_796_575_839.862_114_3))),
        FileEntry(path: "", isLink: false, stamp: FileStamp(size: 0, modified: Date(timeIntervalSince1970: 0))),
        FileEntry(path: "e\u{301}te\u{301}/photo.heic", isLink: false, stamp: FileStamp(size: 1, modified: Date(timeIntervalSince1970: -1.5))),
        FileEntry(path: "\u{e9}t\u{e9}/photo.heic", isLink: false, stamp: nil),
        FileEntry(path: "elsewhere", isLink: true),
        FileEntry(path: "日本/写真 with a name longer than a small string holds.jpg", isLink: false,
                  stamp: FileStamp(size: Int(Int32.max) + 7, modified: Date(timeIntervalSinceReferenceDate: 0.1))),
    ]

    func testEachFileComesBackAsItWent() {
        let list = FileList(Self.entries)
        XCTAssertEqual(list.count, Self.entries.count)
        XCTAssertEqual(list.nameByteCount, Self.entries.reduce(0) { $0 + Self.name($1.path).utf8.count }, "each folder held apart")
        for (index, entry) in Self.entries.enumerated() {
            XCTAssertEqual(Array(list.path(at: index).utf8), Array(entry.path.utf8), "\(index)")
            XCTAssertEqual(list.withPathBytes(at: index) { Array($0) }, Array(entry.path.utf8), "\(index)")
            XCTAssertEqual(list.stamp(at: index), entry.stamp, "\(index)")
            XCTAssertEqual(list.stamp(at: index)?.modified.timeIntervalSinceReferenceDate.bitPattern,
                           entry.stamp?.modified.timeIntervalSinceReferenceDate.bitPattern, "\(index): to the bit")
            XCTAssertEqual(list.isLink(at: index), entry.isLink, "\(index)")
            XCTAssertEqual(list[index], entry, "\(index)")
        }
    }

    /// Paths are placed by blocks of them (`FileList.blockSize`): each comes back whole on both
    /// sides of a block's edge, empty ones and long ones among them, appended or copied.
    func testPathsComeBackWholeAcrossTheBlocksTheyAreHeldIn() {
        let count = 3 * (1 << 16) + 5
        func path(_ index: Int) -> String {
            index % 1_000 == 7 ? "" : "library/\(index / 1_000)/" + String(repeating: "x", count: index % 300) + "-\(index).jpg"
        }
        var list = FileList()
        list.reserveCapacity(count, nameBytes: 0)
        for index in 0..<count { list.append(FileEntry(path: path(index), isLink: index % 3 == 0, stamp: nil)) }
        var copy = FileList()
        for index in list.indices { copy.append(from: list, at: index) }
        for edge in [0, 1 << 16, 2 << 16, 3 << 16] {
            for index in max(0, edge - 3)..<min(count, edge + 3) {
                XCTAssertEqual(list.path(at: index), path(index), "\(index)")
                XCTAssertEqual(copy.path(at: index), path(index), "\(index)")
                var expected = path(index)
                expected.withUTF8 { XCTAssertTrue(list.pathIs($0, at: index), "\(index)") }
            }
        }
        XCTAssertEqual(list.nameByteCount, (0..<count).reduce(0) { $0 + Self.name(path($1)).utf8.count })
        XCTAssertTrue(list.indices.allSatisfy { list.path(at: $0) == path($0) && list.isLink(at: $0) == ($0 % 3 == 0) })
        XCTAssertEqual(copy, list)
    }

    /// The path after its folder.
    private static func name(_ path: String) -> Substring {
        path[(path.lastIndex(of: "/").map(path.index(after:)) ?? path.startIndex)...]
    }

    /// A folder's files are held under it once a run: files of folders that come and go, inside
    /// each other or not, at the top or ending in "/", each come back whole.
    func testFilesOfFoldersInAnyOrderComeBackWhole() {
        let paths = ["a/1.jpg", "a/2.jpg", "a/b/1.jpg", "a/3.jpg", "top.jpg", "a/4.jpg", "b/", "b//x", "/", "", "a/b/2.jpg", "a/b/2.jpg", "ab/1.jpg"]
        let list = FileList(paths.map { FileEntry(path: $0, isLink: false, stamp: nil) })
        XCTAssertEqual(list.map(\.path), paths)
        XCTAssertEqual(list.nameByteCount, paths.reduce(0) { $0 + Self.name($1).utf8.count })
        XCTAssertEqual(list.indices.map { list.withNameBytes(at: $0) { String(decoding: $0, as: UTF8.self) } }, paths.map { String(Self.name($0)) },
                       "each name lent where it lies")
        for (index, path) in paths.enumerated() {
            for (other, otherPath) in paths.enumerated() {
                var bytes = otherPath
                bytes.withUTF8 { XCTAssertEqual(list.pathIs($0, at: index), path == otherPath, "\(index) \(other)") }
            }
        }
    }

    func testAPathIsKnownByItsBytesNotItsUnicodeForm() {
        let list = FileList(Self.entries)
        var composed = "\u{e9}t\u{e9}/photo.heic"
        composed.withUTF8 { bytes in
            XCTAssertTrue(list.pathIs(bytes, at: 3))
            XCTAssertFalse(list.pathIs(bytes, at: 2), "the same string, other bytes")
            XCTAssertFalse(list.pathIs(bytes, at: 0))
        }
        var empty = ""
        empty.withUTF8 { XCTAssertTrue(list.pathIs($0, at: 1)) }
    }

    func testFilesCopiedFromAnotherListAreTheSame() {
        let list = FileList(Self.entries)
        var copy = FileList()
        for index in list.indices.reversed() { copy.append(from: list, at: index) }
        XCTAssertEqual(Array(copy), Self.entries.reversed())
        XCTAssertEqual(copy.stamp(at: 0), Self.entries.last!.stamp)
    }

    func testSortedByPathAsStringsCompare() {
        var list = FileList(Self.entries)
        list.sortByPath()
        let sorted = Self.entries.sorted { $0.path < $1.path }
        XCTAssertEqual(list.map(\.path), sorted.map(\.path))
        XCTAssertEqual(list.map(\.stamp), sorted.map(\.stamp))
        var inOrder = FileList(sorted)
        inOrder.sortByPath()
        XCTAssertEqual(inOrder, FileList(sorted))
    }
}

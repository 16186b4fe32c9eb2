@testable import FolioCore
import FolioTestSupport
import Foundation
import XCTest

/// The walk of a folder (`LocalFileAccess.listing`) lists every file in the order of its path as
/// a string, whatever order the folders are read in: what the load takes records and photos in.
final class FolderWalkTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-walk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func make(_ paths: [String]) throws {
        for path in paths {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data()), path)
        }
    }

    /// Names whose order as paths is not their folders' order ('-' and '.' come before '/', so
    /// `a-b.jpg` and `a.jpg` come before `a/1.jpg`), upper case before lower, and a path that
    /// begins another.
    private static let awkward = ["a.jpg", "a/1.jpg", "a-b.jpg", "a/b.jpg", "A.jpg", "a b.jpg", "a_b.jpg", "a0.jpg",
                                  "a/b/c.jpg", "a/b.c/d.jpg", "Z/z.jpg", "z.jpg", "~.jpg", "a/B.JPG", "a.jpg.xmp"]

    func testASCIIPathsAreListedInTheirOrderAsStrings() throws {
        var random = SplitMix64(0xF01D)
        var paths = Self.awkward
        for n in 0..<600 {
            let folder = ["", "2024/", "2024/03/", "2024-03/", "2024.03/", "x y/"][Int(random.next() % 6)]
            paths.append("\(folder)IMG_\(random.next() % 100_000)-\(n).\(["jpg", "JPG", "heic", "xmp"][n % 4])")
        }
        try make(paths)
        let listed = try LocalFileAccess().listing(under: root).entries.map(\.path)
        XCTAssertEqual(listed, paths.sorted())
        // In order as the folders are merged, before any sort (which then has one run to find).
        XCTAssertEqual(try LocalFileAccess().walk(under: root).entries.map(\.path), listed)
    }

    func testPathsBeyondASCIIAreListedInTheirOrderAsStrings() throws {
        var paths = Self.awkward + ["été.jpg", "e\u{301}te\u{301}/1.jpg", "Ä/ö.jpg", "日本/写真.jpg", "🙂.jpg", "z\u{308}.jpg"]
        for n in 0..<600 { paths.append("\(["é", "e", "ü", "u"][n % 4])/\(n).jpg") }
        try make(paths)
        let listed = try LocalFileAccess().listing(under: root).entries.map(\.path)
        XCTAssertEqual(listed, paths.sorted())
    }

    /// Two folders whose names are one name in two Unicode forms (as macOS and a keyboard write
    /// it) are two folders: the files of both are listed.
    func testFoldersNamedInTwoNormalFormsAreBothListed() throws {
        let paths = ["\u{e9}t\u{e9}/1.jpg", "e\u{301}te\u{301}/2.jpg", "e\u{301}te\u{301}/3.jpg", "\u{e9}t\u{e9}/sub/4.jpg", "e\u{301}te\u{301}/sub/5.jpg"]
        try make(paths)
        let listed = try LocalFileAccess().listing(under: root).entries.map { Array($0.path.utf8) }
        XCTAssertEqual(Set(listed), Set(paths.map { Array($0.utf8) }))
        XCTAssertEqual(listed.count, paths.count)
    }
}

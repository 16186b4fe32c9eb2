@testable import FolioContent
@testable import FolioCore
import FolioModel
@testable import FolioPipeline
@testable import FolioSite
import FolioTestSupport
import XCTest

/// Folio's path type over the names NSString's path functions trapped on or misread.
final class RelativePathTests: XCTestCase {
    func testOneCharacterNamesHaveParentsAndNames() {
        for name in ["A", "1", "é", "e\u{301}", "\u{301}", "🇫🇷", "_", "~"] {
            let top = RelativePath(name)
            XCTAssertEqual(top.components, [name])
            XCTAssertNil(top.parent, name)
            XCTAssertEqual(top.folder, "", name)
            XCTAssertEqual(top.name, name)
            let nested = RelativePath("\(name)/\(name)")
            XCTAssertEqual(nested.parent, top, name)
            XCTAssertEqual(nested.folder, name)
            XCTAssertEqual(nested.name, name)
        }
    }

    func testEmptyAndRoot() {
        for text in ["", "/", ".", "./", "//", "./."] {
            let path = RelativePath(text)
            XCTAssertTrue(path.isRoot, text)
            XCTAssertEqual(path.text, "", text)
            XCTAssertEqual(path.name, "", text)
            XCTAssertNil(path.parent, text)
            XCTAssertEqual(path.pathExtension, "", text)
            XCTAssertEqual(path.deletingExtension, .root, text)
        }
    }

    func testNormalising() {
        XCTAssertEqual(RelativePath("a//b/./c/").text, "a/b/c")
        XCTAssertEqual(RelativePath("/a/b").text, "a/b")
        XCTAssertEqual(RelativePath("a/../b").components, ["a", "..", "b"], "`init` never climbs")
        XCTAssertEqual(RelativePath("a").appending("b/c").text, "a/b/c")
        XCTAssertEqual(RelativePath.root.appending("x").text, "x")
        XCTAssertEqual(RelativePath("a").appending("").text, "a")
    }

    func testExtensions() {
        let cases: [(String, String, String)] = [
            // name, extension, stem
            ("IMG_1.JPG", "JPG", "IMG_1"),
            ("a.b.c", "c", "a.b"),
            (".nomedia", "", ".nomedia"),
            (".hidden.jpg", "jpg", ".hidden"),
            ("notes.", "", "notes."),
            ("trailing..", "", "trailing.."),
            ("..", "", ".."),
            ("...", "", "..."),
            ("a..jpg", "jpg", "a."),
            ("A", "", "A"),
            ("noextension", "", "noextension"),
            ("café.JPEG", "JPEG", "café"),
            ("cafe\u{301}.jpg", "jpg", "cafe\u{301}"),
            ("x.\u{301}jpg", "\u{301}jpg", "x"),
        ]
        for (name, pathExtension, stem) in cases {
            let path = RelativePath("folder/\(name)")
            XCTAssertEqual(path.pathExtension, pathExtension, name)
            XCTAssertEqual(path.stem, stem, name)
            XCTAssertEqual(path.deletingExtension.text, "folder/\(stem)", name)
        }
        XCTAssertEqual(RelativePath("a.d/file").pathExtension, "", "a folder's dot is not the file's extension")
        XCTAssertEqual(RelativePath("a.d/file").deletingExtension.text, "a.d/file")
        XCTAssertEqual(RelativePath("x/IMG.HeIc").lowercasedExtension, "heic")
    }

    /// The folder of a path as text, worked out without splitting it, is what the split says: on
    /// names that are empty, ".", "..", a slash, a prepended or combining mark, and at random.
    func testTheFolderOfAPathIsTheSplitOnes() {
        var cases = ["", "/", "a", "A", "a/b", "a/b/c.jpg", "/a/b", "a/b/", "a//b", "./a/b", "a/./b", "a/.", ".", "..", "../a",
                     "a/../b", "a/.b/c", "a/b./c", ".a", "a/\u{301}b/c", "\u{600}/x", "x\u{600}/y/z", "日本/京都/x.jpg", "a/b/.."]
        var random = SplitMix64(11)
        let pieces = ["a", "b", "/", ".", "..", "é", "\u{301}", "\u{600}"]
        for _ in 0..<2000 {
            cases.append((0..<Int.random(in: 1...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
        }
        for text in cases {
            XCTAssertEqual(RelativePath.folder(of: text).utf8.elementsEqual(RelativePath(text).folder.utf8), true, text)
        }
    }

    /// The extension asked of every file of a library, lowered byte by byte when it is ASCII, is
    /// the one the split path gives, lowered by Unicode's case mapping.
    func testAnExtensionIsThatOfTheSplitPathLowered() {
        var cases = ["", "a", "a.", ".a", "a/.b", "a.JPG", "x/IMG.HeIc", "a.b/c", "a/b.c/", "a.tar.GZ", "b.[Z]@`{", "A.JPĞ",
                     "é.ÉTÉ", "a.\u{301}", "x.İ", "日本/京都.JPG", "a.ß", "a./", "a/b.Ｊ"]
        var random = SplitMix64(12)
        let pieces = ["a", "Z", "/", ".", "é", "É", "\u{301}", "@", "[", "İ"]
        for _ in 0..<2000 {
            cases.append((0..<Int.random(in: 1...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
        }
        for text in cases {
            XCTAssertEqual(RelativePath.lowercasedExtension(of: text).utf8.elementsEqual(RelativePath(text).lowercasedExtension.utf8), true, text)
        }
        // A file's name alone (`FileList.withNameBytes`) tells the extension its path does, when
        // the name is neither empty nor "." (a walked file's never is).
        for text in cases {
            var name = String(text.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
            guard !name.isEmpty, name != "." else { continue }
            var path = text
            let fromPath = path.withUTF8(RelativePath.lowercasedExtension(ofBytes:))
            XCTAssertEqual(name.withUTF8(RelativePath.lowercasedExtension(ofBytes:)), fromPath, text)
        }
    }

    func testResolvingClimbsButNeverAboveTheTop() {
        let trip = RelativePath("trip/day")
        XCTAssertEqual(trip.resolving("a.jpg")?.text, "trip/day/a.jpg")
        XCTAssertEqual(trip.resolving("../a.jpg")?.text, "trip/a.jpg")
        XCTAssertEqual(trip.resolving("../../a.jpg")?.text, "a.jpg")
        XCTAssertNil(trip.resolving("../../../a.jpg"))
        XCTAssertNil(trip.resolving("/etc/passwd"))
        XCTAssertNil(trip.resolving("~/a.jpg"))
        XCTAssertNil(trip.resolving("~"))
        XCTAssertNil(RelativePath.root.resolving(""))
        XCTAssertNil(RelativePath.root.resolving("a/.."))
        XCTAssertEqual(RelativePath.root.resolving("./a//b/./")?.text, "a/b")
        // Lookalikes are names, not climbs.
        for lookalike in ["...", "..a", "a..", ". .", "%2e%2e", "\u{2024}\u{2024}", "\u{FF0E}\u{FF0E}", "..\u{301}"] {
            XCTAssertEqual(RelativePath.root.resolving("\(lookalike)/x")?.components, [lookalike, "x"], lookalike)
        }
    }

    /// A name that begins with a combining mark is its own name: as Characters it would fuse with
    /// the "/" before it, and the path would not split there.
    func testCombiningMarksAfterASlashSplitThere() {
        let path = RelativePath("a/\u{301}b/c")
        XCTAssertEqual(path.components, ["a", "\u{301}b", "c"])
        XCTAssertEqual(path.parent?.text, "a/\u{301}b")
        XCTAssertEqual(RelativePath("a/\u{301}").name, "\u{301}")
    }

    func testNormalFormsAreTwoNames() {
        let composed = RelativePath("Montr\u{E9}al/a.jpg")
        let decomposed = RelativePath("Montre\u{301}al/a.jpg")
        XCTAssertEqual(composed.text, "Montr\u{E9}al/a.jpg")
        XCTAssertNotEqual(composed, decomposed, "two names on Linux")
        XCTAssertEqual(Set([composed, decomposed]).count, 2)
        XCTAssertTrue(composed.text.utf8.elementsEqual("Montr\u{E9}al/a.jpg".utf8), "bytes kept as given")
        XCTAssertTrue(decomposed.name.utf8.elementsEqual("a.jpg".utf8))
        XCTAssertEqual(decomposed.folder.utf8.count, "Montre\u{301}al".utf8.count)
    }

    func testCaseIsKept() {
        XCTAssertNotEqual(RelativePath("A/b.jpg"), RelativePath("a/b.jpg"))
        XCTAssertEqual(RelativePath("A/B.JPG").text, "A/B.JPG")
    }

    func testVeryLongNamesAndDepths() {
        let name = String(repeating: "é", count: 127) + "x"  // 255 bytes
        XCTAssertEqual(name.utf8.count, 255)
        let deep = RelativePath(Array(repeating: name, count: 8).joined(separator: "/") + "/\(name).jpg")
        XCTAssertEqual(deep.components.count, 9)
        XCTAssertEqual(deep.stem, name)
        XCTAssertEqual(deep.parent?.components.count, 8)
        XCTAssertEqual(deep.deletingExtension.name, name)
        let many = RelativePath(Array(repeating: "a", count: 10_000).joined(separator: "/"))
        XCTAssertEqual(many.components.count, 10_000)
    }

    func testOrderIsByBytesAndAFolderComesFirst() {
        let paths = ["b", "a/z", "a", "B", "é", "e\u{301}", "a/b"].map(RelativePath.init)
        XCTAssertEqual(paths.sorted().map(\.text), ["B", "a", "a/b", "a/z", "b", "e\u{301}", "\u{E9}"])
    }

    func testInsideAndHidden() {
        XCTAssertTrue(RelativePath("a/b/c").isInside(RelativePath("a/b")))
        XCTAssertTrue(RelativePath("a/b").isInside(RelativePath("a/b")))
        XCTAssertFalse(RelativePath("a/bc").isInside(RelativePath("a/b")))
        XCTAssertTrue(RelativePath("a/b").isInside(.root))
        XCTAssertTrue(RelativePath("a/.git/x").isHidden)
        XCTAssertFalse(RelativePath("a/b.c/x").isHidden)
    }

    func testPathsUnderAFolderByBytes() {
        XCTAssertEqual("/x/a/b".pathRelative(to: "/x"), "a/b")
        XCTAssertEqual("/x/a/b".pathRelative(to: "/x/"), "a/b")
        XCTAssertEqual("/x".pathRelative(to: "/x"), "")
        XCTAssertEqual("/x/".pathRelative(to: "/x"), "")
        XCTAssertNil("/xy/a".pathRelative(to: "/x"))
        XCTAssertNil("/x".pathRelative(to: "/x/a"))
        XCTAssertEqual("/a".pathRelative(to: "/"), "a")
        XCTAssertEqual("/x/\u{301}a".pathRelative(to: "/x"), "\u{301}a", "a name that starts with a combining mark")
        XCTAssertNil("/x/cafe\u{301}/a".pathRelative(to: "/x/caf\u{E9}"), "the other normal form is another folder")
        XCTAssertNil("/x/caf\u{E9}".pathRelative(to: "/x/cafe\u{301}"))
    }

    /// What the build asked NSString for, now asked here: the album of a photo, its parent album,
    /// a catalog's folder, a photo's stem beside its companions.
    func testTheBuildsOwnQuestions() {
        XCTAssertEqual(AlbumTree.parent(of: "A", settings: [:]), nil)
        XCTAssertEqual(AlbumTree.parent(of: "A/B", settings: [:]), "A")
        XCTAssertEqual(AlbumTree.parent(of: "A/T/G/B", settings: ["A/T": AlbumInfo(path: "A/T", isAlbum: false),
                                                                   "A/T/G": AlbumInfo(path: "A/T/G", isAlbum: false)]), "A",
                       "past folders that are no album")
        XCTAssertEqual(AlbumTree.title(fromFolder: "A"), "A")
        XCTAssertEqual(AlbumTree.title(fromFolder: "x/é"), "é")
        XCTAssertEqual(ContentPath.resolve("B.jpg", in: "A"), "A/B.jpg")
        XCTAssertEqual(ImportStep.title(fromFileName: "A/B.JPG"), "B")
        XCTAssertNil(ImportStep.title(fromFileName: "A/_.jpg"))
    }
}

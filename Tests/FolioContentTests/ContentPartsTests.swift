@testable import FolioContent
import FolioCore
import FolioTestSupport
import Foundation
import XCTest

/// content/ read a part at a time (`ContentParts`) gives what a whole load gives, in parts no
/// larger than asked for; a Google Takeout export comes whole.
final class ContentPartsTests: XCTestCase {
    /// Every part, and the inventory once they are all given.
    func parts(_ site: TestSite, size: ContentParts.Size) -> (parts: [[ContentEntry]], inventory: ContentInventory) {
        var loader = ContentLoader(contentRoot: site.content)
        loader.partSize = size
        var parts = loader.parts(walk: try! LocalFileAccess().listing(under: site.content))
        var given: [[ContentEntry]] = []
        while let part = parts.next() { given.append(part) }
        XCTAssertNil(parts.next(), "nothing after the last part")
        return (given, parts.inventory)
    }

    func testPartsGiveWhatAWholeLoadGivesAPartAtATime() throws {
        let site = try TestSite()
        for folder in ["a", "b", "c"] {
            for n in 0..<3 { try site.photo("\(folder)/\(n).jpg") }
            try site.catalog("\(folder)/catalog.plist", (0..<3).map { ["path": "\($0).jpg", "name": "\(folder) \($0)"] })
        }
        // Uncatalogued photos with the files that are part of them: an XMP sidecar, sigal's
        // description, a Live Photo's clip; and a link to a folder, said of the whole.
        for n in 0..<5 { try site.photo("loose/\(n).jpg") }
        try site.write(Data("<x:xmpmeta xmlns:x='adobe:ns:meta/'/>".utf8), to: "content/loose/0.jpg.xmp")
        try site.write(Data("Title: Zero\n\nThe first.".utf8), to: "content/loose/1.md")
        try site.write(Data("not really a clip".utf8), to: "content/loose/2.mov")
        try site.write(Data("Title: Loose\n\nThe rest.".utf8), to: "content/loose/index.md")
        try FileManager.default.createSymbolicLink(atPath: site.content.appendingPathComponent("elsewhere").path,
                                                   withDestinationPath: site.content.appendingPathComponent("a").path)

        let whole = try ContentLoader(contentRoot: site.content).load()
        let (given, inventory) = parts(site, size: ContentParts.Size(catalogs: 1, files: 2))
        XCTAssertEqual(given.map(\.count), [3, 3, 3, 2, 2, 1], "a catalog a part, then two photos a part")
        XCTAssertEqual(given.flatMap { $0 }, whole.entries)
        XCTAssertEqual(whole.entries.count, 14)
        var rest = whole
        rest.entries = []
        XCTAssertEqual(inventory.issues, rest.issues)
        XCTAssertEqual(inventory.issues.count, 1, "the link to a folder: \(inventory.issues)")
        XCTAssertEqual(inventory.albums.map(\.title), ["Loose"])
        XCTAssertEqual(inventory.skipped.map(\.path), rest.skipped.map(\.path))
        let loose = Dictionary(uniqueKeysWithValues: whole.entries.map { ($0.path, $0) })
        XCTAssertEqual(loose["loose/0.jpg"]?.sidecar?.path, "loose/0.jpg.xmp")
        XCTAssertEqual(loose["loose/1.jpg"]?.markdown?.path, "loose/1.md")
        XCTAssertEqual(loose["loose/2.jpg"]?.clip?.path, "loose/2.mov")
    }

    func testATakeoutExportComesAsOnePart() throws {
        let site = try TestSite()
        for n in 0..<4 {
            try site.photo("Takeout/Google Photos/Trip/IMG_\(n).jpg")
            try site.write(Data(#"{"title": "IMG_\#(n).jpg", "description": "Photo \#(n)"}"#.utf8),
                           to: "content/Takeout/Google Photos/Trip/IMG_\(n).jpg.json")
        }
        let whole = try ContentLoader(contentRoot: site.content).load()
        let (given, inventory) = parts(site, size: ContentParts.Size(catalogs: 1, files: 1))
        XCTAssertEqual(given.map(\.count), [4])
        XCTAssertEqual(given[0], whole.entries)
        XCTAssertEqual(whole.entries.compactMap(\.takeout?.path).count, 4, "each photo has its sidecar")
        XCTAssertEqual(inventory.takeoutGaps, whole.takeoutGaps)
    }
}

@testable import FolioModel
@testable import FolioPipeline
import FolioTestSupport
import Foundation
import XCTest

/// Sites whose folders and files are named anyhow (`RandomContentTree`): each built whole, every
/// photo published under its own bytes, every link resolving, nothing hidden leaking, and the
/// build again finding nothing to do. A failure names its seed: `FOLIO_TREE_SEED=<seed>` makes
/// that tree again.
final class ContentTreeNamesTests: XCTestCase {
    static var seeds: [UInt64] {
        if let seed = ProcessInfo.processInfo.environment["FOLIO_TREE_SEED"].flatMap(UInt64.init) { return [seed] }
        return [19, 20_261_123, 0xF0_11_0]
    }


    func testTreesOfAnyNamesBuildWhole() async throws {
        for seed in Self.seeds {
            var random = SplitMix64(seed)
            let tree = RandomContentTree(photos: 36, using: &random)
            let site = try TestSite()
            try tree.write(to: site.content, photo: TestInputs.photo)
            let report: BuildReport
            do {
                report = try await site.build()
            } catch {
                XCTFail("seed \(seed): the build failed: \(error)")
                continue
            }
            XCTAssertEqual(report.issues.map(\.description), [], "seed \(seed)")
            XCTAssertEqual(report.photos, tree.photos.count, "seed \(seed): photos published")

            // Every photo under its own bytes, with its page; the hidden ones nowhere.
            let stamps = try site.database.knownPhotos(of: .content)
            XCTAssertEqual(Set(stamps.keys), Set(tree.photos.map { PhotoSource.content(path: $0.text) }), "seed \(seed)")
            for photo in tree.photos {
                guard let stamp = stamps[.content(path: photo.text)] else { continue }
                XCTAssertTrue(site.exists("photos/\(stamp.identifier).html"), "seed \(seed): no page for \(photo.text.debugDescription)")
            }
            for path in tree.hidden { XCTAssertNil(stamps[.content(path: path.text)], "seed \(seed): \(path) published") }

            // The catalog's titles reached the photos it names, from whatever folder it is in.
            let database = try site.database
            for record in tree.catalog?.records ?? [] {
                let path = try XCTUnwrap(tree.catalog?.path.parent ?? .root).resolving(try XCTUnwrap(record["path"]))
                let stamp = try XCTUnwrap(stamps[.content(path: try XCTUnwrap(path).text)], "seed \(seed): \(record)")
                XCTAssertEqual(try database.photo(identifier: stamp.identifier)?.title, record["name"], "seed \(seed)")
            }

            XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [], "seed \(seed)")
            let again = try await site.build()
            XCTAssertEqual(again.issues.map(\.description), [], "seed \(seed)")
            XCTAssertEqual(again.imported, 0, "seed \(seed): a second build has nothing to import")
        }
    }

    /// The generator makes what it says it makes, or the test above proves less than it claims.
    func testTheTreesHoldTheHardCases() {
        var random = SplitMix64(7)
        var names: [String] = []
        var depths: [Int] = []
        for _ in 0..<6 {
            let tree = RandomContentTree(photos: 40, using: &random)
            names += tree.photos.flatMap(\.components)
            depths += tree.photos.map { $0.components.count }
        }
        XCTAssertTrue(names.contains { $0.unicodeScalars.count == 1 }, "one-character names")
        XCTAssertTrue(names.contains { $0.utf8.count >= 240 }, "names near the 255-byte limit")
        XCTAssertLessThanOrEqual(names.map(\.utf8.count).max() ?? 0, 255)
        XCTAssertTrue(names.contains { $0.unicodeScalars.first.map { $0.properties.generalCategory == .nonspacingMark } ?? false },
                      "a name that starts with a combining mark")
        XCTAssertTrue(names.contains { $0.unicodeScalars.contains { $0.value < 0x20 } }, "control characters")
        XCTAssertTrue(names.contains { $0.unicodeScalars.contains { $0.value >= 0x10000 } }, "beyond the BMP")
        XCTAssertGreaterThanOrEqual(depths.max() ?? 0, 6, "deep nesting")
        let lowered = Dictionary(grouping: names, by: { $0.lowercased() })
        XCTAssertTrue(lowered.values.contains { group in Set(group.map { Array($0.utf8) }).count > 1 }, "names differing only in case")
        XCTAssertFalse(names.contains { $0.isEmpty || $0 == "." || $0 == ".." || $0.utf8.contains(UInt8(ascii: "/")) })
    }

    func testNamesInTwoNormalFormsAreTwoPhotos() async throws {
        let site = try TestSite()
        try site.write(try TestInputs.photo(1), to: "content/Montr\u{E9}al/a.jpg")
        try site.write(try TestInputs.photo(2), to: "content/Montre\u{301}al/a.jpg")
        try site.write(try TestInputs.photo(3), to: "content/\u{301}/b.jpg")
        let report = try await site.build()
        XCTAssertEqual(report.issues.map(\.description), [])
        XCTAssertEqual(report.photos, 3)
        XCTAssertEqual(try PublicTreeChecks(root: site.publicFolder).problems(), [])
    }

    /// A catalog naming both files finds each record's own file by its path's bytes
    /// (`WalkedFiles`): two photos, each with its record's title.
    func testRecordsNamingBothNormalFormsFindEachTheirOwnFile() async throws {
        let site = try TestSite()
        let (composed, decomposed) = ("Montr\u{E9}al/a.jpg", "Montre\u{301}al/a.jpg")
        try site.write(try TestInputs.photo(1), to: "content/\(composed)")
        try site.write(try TestInputs.photo(2), to: "content/\(decomposed)")
        try site.catalog("catalog.plist", [["path": decomposed, "name": "Typed apart"], ["path": composed, "name": "Typed whole"]])
        let report = try await site.build()
        XCTAssertEqual(report.issues.map(\.description), [])
        XCTAssertEqual(report.photos, 2)
        let photoPages = try FileManager.default.contentsOfDirectory(atPath: site.publicFolder.appendingPathComponent("photos").path)
            .filter { $0.hasSuffix(".html") }
        func pages(titled title: String) throws -> [String] {
            try photoPages.filter { try site.read("photos/\($0)").contains("<h1>\(title)") }
        }
        let (apart, whole) = (try pages(titled: "Typed apart"), try pages(titled: "Typed whole"))
        XCTAssertEqual(apart.count, 1, "\(photoPages)")
        XCTAssertEqual(whole.count, 1, "\(photoPages)")
        XCTAssertNotEqual(apart, whole)
    }
}

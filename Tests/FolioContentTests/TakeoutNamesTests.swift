@testable import FolioContent
import FolioCore
import FolioTestSupport
import Foundation
import XCTest

/// Every naming Google Takeout gives a photo's JSON finds its photo, with a real sidecar's bytes
/// (`Tests/Fixtures/Takeout`, exported by Google): none is a skipped file, and what Takeout
/// left unpaired is named.
final class TakeoutNamesTests: XCTestCase {
    static let fixtures = TestSite.repository.appendingPathComponent("Tests/Fixtures/Takeout")
    static let album = fixtures.appendingPathComponent("Takeout1/Google Photos/Album test 6-10-23")

    func realSidecar() throws -> Data {
        try Data(contentsOf: Self.album.appendingPathComponent("PXL_20231006_063851485.jpg.json"))
    }

    func testEveryNamingTakeoutWritesFindsItsPhoto() throws {
        let site = try TestSite()
        let sidecar = try realSidecar()
        // Takeout cuts a name at 51 characters, here into the photo's own name.
        let long = "Screenshot_20200920-131207_Some Very Long App Name.png"
        let pairs: [(photo: String, sidecar: String)] = [
            ("IMG_1.jpg", "IMG_1.jpg.json"),
            ("IMG_2.jpg", "IMG_2.json"),
            ("IMG_3.jpg", "IMG_3.jpg.supplemental-metadata.json"),
            ("IMG_4.jpg", "IMG_4.jpg.supplemental-metad.json"),
            ("IMG_5.jpg", "IMG_5.jpg.suppl.json"),
            ("IMG_6.jpg", "IMG_6.jpg..json"),
            ("IMG_7.jpg", "IMG_7.jpg.json"),
            ("IMG_7(1).jpg", "IMG_7.jpg(1).json"),
            ("IMG_8(1).jpg", "IMG_8.jpg.supplemental-metadata(1).json"),
            (long, String(long.prefix(46)) + ".json"),
        ]
        for (index, pair) in pairs.enumerated() {
            try site.write(try TestInputs.photo(index), to: "content/Photos from 2020/\(pair.photo)")
            try site.write(sidecar, to: "content/Photos from 2020/\(pair.sidecar)")
        }
        XCTAssertEqual(pairs.last?.sidecar.count, 51)
        let inventory = try ContentLoader(contentRoot: site.content).load()
        let found = Dictionary(uniqueKeysWithValues: inventory.entries.map { (RelativePath($0.path).name, $0.takeout.map { RelativePath($0.path).name }) })
        for pair in pairs {
            XCTAssertEqual(found[pair.photo], pair.sidecar, pair.photo)
        }
        XCTAssertEqual(inventory.skipped, [])
        XCTAssertEqual(inventory.takeoutGaps, TakeoutGaps())
    }

    /// An edited copy (`-edited`, or in the owner's language, in either Unicode form) takes its
    /// original's sidecar and is published in its place, once.
    func testAnEditedCopySharesItsOriginalsSidecarAndIsPublishedAlone() throws {
        let site = try TestSite()
        let sidecar = try realSidecar()
        try site.write(try TestInputs.photo(1), to: "content/Trip/IMG_1.jpg")
        try site.write(try TestInputs.photo(2), to: "content/Trip/IMG_1-edited.jpg")
        try site.write(sidecar, to: "content/Trip/IMG_1.jpg.json")
        try site.write(try TestInputs.photo(3), to: "content/Trip/IMG_2-bearbeitet.jpg")
        try site.write(sidecar, to: "content/Trip/IMG_2.jpg.supplemental-metadata.json")
        try site.write(try TestInputs.photo(4), to: "content/Trip/IMG_3-modifie\u{301}.jpg")
        try site.write(sidecar, to: "content/Trip/IMG_3.jpg.json")
        let inventory = try ContentLoader(contentRoot: site.content).load()
        XCTAssertEqual(inventory.entries.map(\.path).sorted(), ["Trip/IMG_1-edited.jpg", "Trip/IMG_2-bearbeitet.jpg", "Trip/IMG_3-modifie\u{301}.jpg"])
        XCTAssertEqual(inventory.entries.map { $0.takeout?.path }.sorted { ($0 ?? "") < ($1 ?? "") },
                       ["Trip/IMG_1.jpg.json", "Trip/IMG_2.jpg.supplemental-metadata.json", "Trip/IMG_3.jpg.json"])
        XCTAssertEqual(inventory.skipped, [SkippedFile(path: "Trip/IMG_1.jpg", kind: .editedOriginal, companionOf: "Trip/IMG_1-edited.jpg")])
        XCTAssertEqual(SkippedFile.companionLine(inventory.skipped),
                       "1 companion file beside its photo, not imported: 1 .jpg (original of an edited photo)")
    }

    /// An album folder's `metadata.json`, named in the owner's language, titles the album; a
    /// sidecar without its photo and a photo without its sidecar are named, not skipped.
    func testAlbumDescriptionsAndWhatTakeoutLeftUnpaired() throws {
        let site = try TestSite()
        let sidecar = try realSidecar()
        try site.write(try Data(contentsOf: Self.album.appendingPathComponent("métadonnées.json")), to: "content/Album test/métadonnées.json")
        try site.write(try TestInputs.photo(1), to: "content/Album test/IMG_1.jpg")
        try site.write(sidecar, to: "content/Album test/IMG_1.jpg.json")
        try site.write(sidecar, to: "content/Album test/VID_2.mp4.json")
        try site.write(try TestInputs.photo(3), to: "content/Album test/IMG_3.jpg")
        let gophers = Self.fixtures.appendingPathComponent("gophers/Google Photos/gophers/metadata.json")
        try site.write(try Data(contentsOf: gophers), to: "content/gophers/metadata.json")
        try site.write(try TestInputs.photo(4), to: "content/gophers/a.jpg")
        try site.write(Data("{}".utf8), to: "content/print-subscriptions.json")
        // Photos in a folder without any sidecar are no Takeout's, and said nothing of.
        try site.write(try TestInputs.photo(5), to: "content/Other/IMG_5.jpg")

        let inventory = try ContentLoader(contentRoot: site.content).load()
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: inventory.albums.map { ($0.path, $0.title) }),
                       ["Album test": "Album test 6/10/23", "gophers": "Gopher's gallery"])
        var gaps = TakeoutGaps()
        gaps.sidecarsAlone = ["Album test/VID_2.mp4.json"]
        gaps.photosAlone = ["Album test/IMG_3.jpg"]
        XCTAssertEqual(inventory.takeoutGaps, gaps)
        XCTAssertEqual(gaps.lines, [
            "Google Takeout: 1 sidecar without its photo: content/Album test/VID_2.mp4.json",
            "Google Takeout: 1 photo without its sidecar (published with what its file says): content/Album test/IMG_3.jpg",
        ])
        XCTAssertEqual(inventory.skipped, [SkippedFile(path: "print-subscriptions.json", kind: .json)], "Takeout's own files are no photo's")
    }

    /// Takeout gives an album's photo again in its year's folder and in each other album it is
    /// in: one entry, in the first album, listed in the others.
    func testAPhotoTakeoutGivesSeveralTimesIsOneEntry() throws {
        let site = try TestSite()
        let sidecar = try realSidecar()
        let root = "content/Takeout/Google Photos"
        for folder in ["Photos from 2023", "Paris", "Best"] {
            try site.write(try TestInputs.photo(1), to: "\(root)/\(folder)/IMG_1.jpg")
            try site.write(sidecar, to: "\(root)/\(folder)/IMG_1.jpg.json")
        }
        // Older exports wrote a metadata.json in each year's folder too: it is no album for that.
        try site.write(Data(#"{"title": "Photos from 2023"}"#.utf8), to: "\(root)/Photos from 2023/metadata.json")
        // The same name, another photo: not a copy.
        try site.write(try TestInputs.photo(22), to: "\(root)/Other/IMG_1.jpg")
        try site.write(sidecar, to: "\(root)/Other/IMG_1.jpg.json")
        let inventory = try ContentLoader(contentRoot: site.content).load()
        XCTAssertEqual(inventory.entries.map(\.path).sorted(), ["Takeout/Google Photos/Best/IMG_1.jpg", "Takeout/Google Photos/Other/IMG_1.jpg"])
        XCTAssertEqual(inventory.entries.first { $0.path.contains("Best") }?.alsoListedIn, ["Takeout/Google Photos/Paris"])
        XCTAssertEqual(inventory.takeoutGaps.copies, 2)
        let notAlbums = inventory.albums.filter { !$0.isAlbum }.map(\.path).sorted()
        XCTAssertEqual(notAlbums, ["Takeout", "Takeout/Google Photos", "Takeout/Google Photos/Photos from 2023"])
    }

    func testASidecarNameSaysWhichPhotoItDescribes() {
        let cases: [(String, String, Bool)] = [
            ("IMG_1.jpg.json", "IMG_1.jpg", false),
            ("IMG_1.json", "IMG_1", true),
            ("IMG_1.jpg.supplemental-metadata.json", "IMG_1.jpg", false),
            ("IMG_1.jpg.s.json", "IMG_1.jpg", false),
            ("IMG_1.jpg(2).json", "IMG_1(2).jpg", false),
            ("IMG_1.jpg.supplemental-metadata(12).json", "IMG_1(12).jpg", false),
            ("IMG_1(1).jpg.json", "IMG_1(1).jpg", false),
            ("metadata.json", "metadata", true),
        ]
        for (sidecar, name, mayBeCut) in cases {
            XCTAssertEqual(TakeoutNames.described(by: sidecar), .init(name: name, mayBeCut: mayBeCut), sidecar)
        }
        XCTAssertEqual(TakeoutNames.original(ofEdited: "IMG_1-edited.JPG"), "IMG_1.JPG")
        XCTAssertEqual(TakeoutNames.original(ofEdited: "IMG_1.jpg"), nil)
        XCTAssertEqual(TakeoutNames.original(ofEdited: "-edited.jpg"), nil)
    }
}

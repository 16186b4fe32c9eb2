@testable import FolioContent
@testable import FolioCore
@testable import FolioModel
import FolioMetadata
@testable import FolioPipeline
import FolioTestSupport
import Foundation
import GRDB
import XCTest

/// A digest is kept from build to build (the page manifest, the site digest): the same value must
/// give the same number in every process, on every machine, whatever its encoder's insides.
final class ValueDigestTests: XCTestCase {
    struct Sample: Encodable {
        var title = "Café – 東京"
        var count = 42
        var ratio = 0.5
        var flag = true
        var missing: String? = nil
        var list = ["a", "b"]
        var nested = ["one": 1]
        var long = String(repeating: "x", count: 700)
    }

    func testADigestIsTheSameNumberEverywhere() {
        XCTAssertEqual(ValueDigest.of(Sample()), 0x080E_ABC3_CD0E_0059)
    }

    func testDigestsTellApartWhatTheyEncode() {
        XCTAssertNotEqual(ValueDigest.of(["ab"]), ValueDigest.of(["a", "b"]))
        XCTAssertNotEqual(ValueDigest.of(Sample()), ValueDigest.of(Sample(count: 43)))
        XCTAssertNotEqual(ValueDigest.of(Sample()), ValueDigest.of(Sample(missing: "")))
        XCTAssertNotEqual(ValueDigest.of(Sample()), ValueDigest.of(Sample(long: String(repeating: "x", count: 701))))
        XCTAssertEqual(ValueDigest.of(Sample()), ValueDigest.of(Sample()))
    }

    /// A photo's digest is the hash of its packed record (`GalleryPhoto.digest(of:)`): a change to any of its stored
    /// properties moves it (a property added to `Photo` fails here until a change of it is
    /// listed), and values that are not the same never run into each other.
    func testAPhotosDigestTakesEveryPropertyItHas() throws {
        let database = try GalleryDatabase.inMemory()
        try database.apply(ImportBatch(upserts: [
            PhotoImport(source: .content(path: "a/one.jpg"), identifier: "p1", title: "One", description: "The first", person: "Al",
                        place: "Nairobi, Kenya", uploaded: Date(timeIntervalSince1970: 1000), width: 4, height: 3, checksum: "c1",
                        tags: ["x", "y"]),
        ]))
        let photo = try XCTUnwrap(database.snapshot().photos.first?.photo)
        let changes: [String: (inout Photo) -> Void] = [
            "id": { $0.id += 1 }, "identifier": { $0.identifier += "x" }, "source": { $0.source = .content(path: "a/two.jpg") },
            "title": { $0.title = nil }, "description": { $0.description = "" }, "descriptionHTML": { $0.descriptionHTML = "<p>x</p>" },
            "personId": { $0.personId += 1 }, "placeId": { $0.placeId = nil }, "taken": { $0.taken = Date(timeIntervalSince1970: 1) },
            "uploaded": { $0.uploaded += 1 }, "width": { $0.width += 1 }, "height": { $0.height += 1 },
            "favorite": { $0.favorite.toggle() }, "catalogFavorite": { $0.catalogFavorite.toggle() },
            "checksum": { $0.checksum += "0" },
            "format": { $0.format = .png }, "orientation": { $0.orientation = 6 }, "colour": { $0.colour = .cmyk },
            "transparent": { $0.transparent.toggle() }, "animated": { $0.animated.toggle() },
            "motion": { $0.motion = PhotoMotion(kind: .live, duration: 2) }, "camera": { $0.camera = "X100" }, "lens": { $0.lens = "XF23mmF2 R WR" },
            "pictured": { $0.pictured = ["Ada"] }, "alsoListedIn": { $0.alsoListedIn = ["b"] },
            "exposure": { $0.exposure = "1/60" }, "latitude": { $0.latitude = 1.5 }, "longitude": { $0.longitude = -0.0 },
            "tags": { $0.tags = ["x"] }, "lastError": { $0.lastError = "bad" },
            "remote": { $0.remote = RemotePhoto(pageURL: "https://example.org/1", license: nil, sizes: [], placeID: nil) },
            "flickrPlaceId": { $0.flickrPlaceId = "p" },
        ]
        XCTAssertEqual(Set(changes.keys), Set(Mirror(reflecting: photo).children.compactMap(\.label)), "a change for every property")
        var seen = [GalleryPhoto.digest(of: photo): "as read"]
        for (name, change) in changes {
            var changed = photo
            change(&changed)
            XCTAssertNotEqual(changed, photo, name)
            XCTAssertNil(seen[GalleryPhoto.digest(of: changed)], "\(name) gives the digest of \(seen[GalleryPhoto.digest(of: changed)] ?? "")")
            seen[GalleryPhoto.digest(of: changed)] = name
        }
        let read = try XCTUnwrap(database.snapshot().photos.first)
        XCTAssertEqual(GalleryPhoto.digest(of: photo), GalleryPhoto.digest(of: read.photo), "the same photo, the same digest")
        XCTAssertEqual(read.digest, GalleryPhoto.digest(of: photo), "the digest a snapshot keeps")
        // Values that would run into each other written one after the other.
        func differ(_ change: (inout Photo) -> Void, _ other: (inout Photo) -> Void, _ line: UInt = #line) {
            var (a, b) = (photo, photo)
            change(&a)
            other(&b)
            XCTAssertNotEqual(GalleryPhoto.digest(of: a), GalleryPhoto.digest(of: b), line: line)
        }
        differ({ ($0.title, $0.description) = ("ab", "c") }, { ($0.title, $0.description) = ("a", "bc") })
        differ({ $0.tags = ["a", "b"] }, { $0.tags = ["ab"] })
        differ({ $0.tags = ["a"]; $0.lastError = nil }, { $0.tags = []; $0.lastError = "a" })
        differ({ $0.camera = nil }, { $0.camera = "" })
    }
    /// A catalog record's fingerprint is written property by property (`CatalogRecord.fingerprint`)
    /// and must be the number `Encodable` gives, which earlier builds kept in the model: else every
    /// photo of a library is read again once. It takes every property the record has, in order.
    func testARecordsFingerprintIsTheOneEncodableGives() {
        let record = CatalogRecord(location: "content/c.plist, record 1", path: "a.jpg", name: nil, user: nil, description: nil,
                                   place: nil, region: nil, latitude: nil, longitude: nil, taken: nil, uploaded: nil,
                                   favorite: false, tags: [])
        XCTAssertEqual(Mirror(reflecting: record).children.map { $0.label ?? "?" }, CatalogRecord.fingerprintedProperties)
        var random = SplitMix64(0xF1_6E2)
        func text() -> String? {
            switch random.next() % 5 {
            case 0: return nil
            case 1: return ""
            case 2: return "Café – 東京 \(random.next() % 100)"
            default: return String(repeating: "x", count: Int(random.next() % 300))
            }
        }
        func number() -> Double? { random.next() % 3 == 0 ? nil : Double(Int64(bitPattern: random.next())) / 1e12 }
        for round in 0..<2_000 {
            var values = CatalogRecord(
                location: "content/c.plist, record \(round)", path: text() ?? "p.jpg", name: text(), user: text(),
                description: text(), place: text(), region: text(), latitude: number(), longitude: number(),
                taken: number().map { Date(timeIntervalSince1970: $0 * 1e3) }, uploaded: number().map(Date.init(timeIntervalSince1970:)),
                favorite: random.next() % 2 == 0, tags: (0..<Int(random.next() % 4)).map { _ in text() ?? "" })
            let fingerprint = values.fingerprint
            values.location = ""
            XCTAssertEqual(fingerprint, ContentHash.hex(encoding: values), "round \(round)")
        }
    }

    /// The import asks of every photo whether the model's stamp says it is unchanged, without
    /// making the texts it compares: the number is the one the joined text gave (what earlier
    /// models hold, so no photo is read again), and the file stamp matches its own text only.
    func testAnEntrysFingerprintIsTheJoinedTextsAndItsStampIsReadAsWritten() throws {
        var random = SplitMix64(0x1E)
        func stamp() -> FileStamp {
            FileStamp(size: Int(random.next() % 3 == 0 ? 0 : random.next() % 10_000_000),
                      modified: Date(timeIntervalSince1970: Double(Int64(bitPattern: random.next() % 4_000_000_000_000)) / 1000 - 1e6))
        }
        func file(_ name: String) -> Sidecar? { random.next() % 3 == 0 ? Sidecar(path: name, stamp: stamp()) : nil }
        for round in 0..<2_000 {
            let record = random.next() % 4 == 0 ? nil : CatalogRecord(
                location: "c.plist, record \(round)", path: "a/é \(round).jpg", name: round % 2 == 0 ? "Title \(round)" : nil, user: nil,
                description: nil, place: "Kyōto", region: nil, latitude: nil, longitude: Double(round), taken: nil, uploaded: nil,
                favorite: round % 3 == 0, tags: round % 5 == 0 ? ["a", "b c"] : [])
            let entry = ContentEntry(path: "a/é \(round).jpg", record: record, stamp: stamp(), sidecar: file("a/x.xmp"),
                                     markdown: file("a/x.md"), clip: file("a/x.mov"))
            let rating = Int(random.next() % 6)
            // What the import hashed before: each part as text, joined.
            let sidecar = entry.sidecar.map { "\($0.path)@\($0.stamp.text)" } ?? ""
            let markdown = entry.markdown.map { ["\($0.path)@\($0.stamp.text)"] } ?? []
            let clip = entry.clip.map { ["clip \($0.path)@\($0.stamp.text)"] } ?? []
            let joined = ([ImportStep.readerVersion, record?.fingerprint ?? "uncatalogued", sidecar, "\(rating)"] + markdown + clip)
                .joined(separator: "\u{1e}")
            let fingerprint = ImportStep.fingerprint(entry, favorites: FavoriteRule(rating: rating))
            XCTAssertEqual(fingerprint, ContentHash.hex(joined), "round \(round)")

            let known = PhotoMark(fileStamp: entry.stamp.text, fingerprint: fingerprint)
            XCTAssertTrue(ImportStep.isUnchanged(entry, since: known, favorites: FavoriteRule(rating: rating)), "round \(round)")
            XCTAssertFalse(ImportStep.isUnchanged(entry, since: known, favorites: FavoriteRule(rating: rating + 1)), "round \(round)")
            var touched = entry
            touched.stamp.size += 1
            XCTAssertFalse(ImportStep.isUnchanged(touched, since: known, favorites: FavoriteRule(rating: rating)), "round \(round)")
            touched = entry
            touched.stamp.modified.addTimeInterval(0.001)
            XCTAssertFalse(ImportStep.isUnchanged(touched, since: known, favorites: FavoriteRule(rating: rating)), "round \(round)")
        }
        // Only the text the stamp writes is its own.
        let written = FileStamp(size: 120, modified: Date(timeIntervalSince1970: 1.5))
        XCTAssertEqual(written.text, "120:1500")
        XCTAssertTrue(written.isText("120:1500"))
        for other in ["0120:1500", "120:01500", "120:1500 ", "120:", ":1500", "120", "120:1500:1", "+120:1500", "120:1501", "121:1500", ""] {
            XCTAssertFalse(written.isText(other), other)
        }
        let before1970 = FileStamp(size: 0, modified: Date(timeIntervalSince1970: -2.25))
        XCTAssertTrue(before1970.isText(before1970.text), before1970.text)
        XCTAssertFalse(before1970.isText("0:-0"))
        // A mark holds the same: a stored stamp in another form, or a fingerprint not sixteen
        // hex digits (an older model's), is a photo to read again.
        for other in ["0120:1500", "120:1501", "120"] {
            XCTAssertFalse(PhotoMark(fileStamp: other, fingerprint: "0123456789abcdef").isFile(written), other)
        }
        XCTAssertTrue(PhotoMark(fileStamp: "120:1500", fingerprint: "0123456789abcdef").isFile(written))
        XCTAssertEqual(PhotoMark(fileStamp: "120:1500", fingerprint: "0123456789abcdef").fingerprint, 0x0123456789abcdef)
        XCTAssertNil(PhotoMark(fileStamp: "120:1500", fingerprint: "0123456789abcdef0").fingerprint)
        XCTAssertNil(PhotoMark(fileStamp: "120:1500", fingerprint: "").fingerprint)
    }

    /// The model's marks are found by their paths' hashes; paths whose hashes meet are held with
    /// no mark, so the import reads them again rather than take one's mark for the other's.
    func testMarksAreFoundByPathAndAHashTwoPathsShareGivesNoMark() {
        let (a, b, c) = (PhotoMark(fileStamp: "1:1", fingerprint: "000000000000000a"), PhotoMark(fileStamp: "2:2", fingerprint: "000000000000000b"),
                         PhotoMark(fileStamp: "3:3", fingerprint: "000000000000000c"))
        let paths = (0..<1_000).map { "folder \($0 % 7)/photo \($0).jpg" }
        let marks = ContentMarks(paths.reversed().map { (ContentMarks.key(of: $0), $0.hasSuffix("7.jpg") ? a : b) })
        XCTAssertEqual(marks.count, 1_000)
        for path in paths {
            XCTAssertEqual(marks[path]?.fingerprint, path.hasSuffix("7.jpg") ? 10 : 11, path)
            XCTAssertTrue(marks.holds(path))
        }
        XCTAssertNil(marks["folder 0/photo 1000.jpg"])
        XCTAssertFalse(marks.holds("folder 0/photo 1000.jpg"))
        // Two paths given one hash (as if they met), among others.
        let met = ContentMarks([(ContentMarks.key(of: "x.jpg"), a), (ContentMarks.key(of: "x.jpg"), b), (ContentMarks.key(of: "y.jpg"), c),
                                (ContentMarks.key(of: "w.jpg"), a)])
        XCTAssertEqual(met.count, 4)
        XCTAssertNil(met["x.jpg"])
        XCTAssertTrue(met.holds("x.jpg"))
        XCTAssertEqual(met["y.jpg"]?.fingerprint, 12)
        XCTAssertEqual(met["w.jpg"]?.fingerprint, 10)
        XCTAssertFalse(met.holds("z.jpg"))
    }
}

import FolioMetadata
import FolioTestSupport
import Foundation
import XCTest

/// Google Takeout's sidecars, as Google writes them (`Tests/Fixtures/Takeout`), and as they go
/// wrong: each bad value is left out and named by its key, the rest is read.
final class TakeoutSidecarTests: XCTestCase {
    static let album = TestSite.repository.appendingPathComponent("Tests/Fixtures/Takeout/Takeout1/Google Photos/Album test 6-10-23")

    func testARealSidecarGivesTheDatePlaceWordsAndFavorite() throws {
        let data = try Data(contentsOf: Self.album.appendingPathComponent("PXL_20231006_063851485.jpg.json"))
        let (sidecar, problems) = TakeoutSidecar.read(data)
        XCTAssertEqual(problems, [])
        XCTAssertEqual(sidecar, TakeoutSidecar(taken: Date(timeIntervalSince1970: 1_696_574_331), latitude: 48.8583736, longitude: 2.291901,
                                               description: "Description from goggle photos", favorite: true))
    }

    func testPeopleAreReadByName() {
        let data = Data(#"{"photoTakenTime": {"timestamp": "1600000000"}, "people": [{"name": "Ada"}, {"name": "Grace Hopper"}]}"#.utf8)
        XCTAssertEqual(TakeoutSidecar.read(data).sidecar?.people, ["Ada", "Grace Hopper"])
    }

    /// Google writes 0, 0 for no place and a timestamp of 0 for no date: neither is a value.
    func testNoPlaceAndNoDateAreNone() {
        let data = Data(#"{"photoTakenTime": {"timestamp": "0"}, "geoData": {"latitude": 0.0, "longitude": 0.0}, "description": ""}"#.utf8)
        XCTAssertEqual(TakeoutSidecar.read(data).sidecar, TakeoutSidecar())
        XCTAssertEqual(TakeoutSidecar.read(data).problems, [])
    }

    /// `geoData` is Google's place for the photo (moved by its owner); `geoDataExif` is taken
    /// when it has none.
    func testGeoDataExifWhenGeoDataIsNone() {
        let data = Data(#"{"geoData": {"latitude": 0, "longitude": 0}, "geoDataExif": {"latitude": -33.85, "longitude": 151.2}}"#.utf8)
        let sidecar = TakeoutSidecar.read(data).sidecar
        XCTAssertEqual(sidecar?.latitude, -33.85)
        XCTAssertEqual(sidecar?.longitude, 151.2)
    }

    func testBadValuesAreNamedByTheirKeysAndTheRestIsRead() {
        let data = Data(#"""
            {"photoTakenTime": {"timestamp": "99999999999999"}, "geoData": {"latitude": 200, "longitude": 3},
             "description": 7, "favorited": "yes", "people": [{"name": 3}], "geoDataExif": {"latitude": "north"},
             "creationTime": {"timestamp": "1600000000"}}
            """#.utf8)
        let (sidecar, problems) = TakeoutSidecar.read(data)
        XCTAssertEqual(sidecar, TakeoutSidecar())
        XCTAssertEqual(problems, [
            "'photoTakenTime' is out of range (99999999999999); ignored",
            "'geoData' is out of range (200.0, 3.0); ignored",
            "'geoDataExif' has no numeric latitude and longitude; ignored",
            "'description' is not text; ignored",
            "'favorited' is not true or false; ignored",
            "'people' is not a list of names; ignored",
        ])
        XCTAssertEqual(TakeoutSidecar.read(Data(#"{"photoTakenTime": {"timestamp": true}, "favorited": 1}"#.utf8)).problems, [
            "'photoTakenTime' is not a number of seconds; ignored",
            "'favorited' is not true or false; ignored",
        ])
    }

    func testWhatIsNoSidecarIsRefusedWithItsReason() {
        XCTAssertEqual(TakeoutSidecar.read(Data(#"{"title": "IMG_1.jpg", "photoTakenTime": {"#.utf8)).sidecar, nil)
        XCTAssertTrue(TakeoutSidecar.read(Data(#"{"title": "#.utf8)).problems.first?.hasPrefix("is not readable JSON") == true)
        XCTAssertEqual(TakeoutSidecar.read(Data("[1, 2]".utf8)).problems, ["is JSON, but not an object of named values"])
        let deep = Data((String(repeating: "[", count: 200) + String(repeating: "]", count: 200)).utf8)
        XCTAssertEqual(TakeoutSidecar.read(deep).problems, ["nests more than 100 deep (line 1, column 101)"])
    }
}

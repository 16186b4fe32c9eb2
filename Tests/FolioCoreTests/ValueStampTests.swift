import Foundation
import XCTest
@testable import FolioCore

/// A stamp is kept from build to build (the page manifest, the site digest): the same value must
/// give the same number in every process, on every machine, whatever its encoder's insides.
final class ValueStampTests: XCTestCase {
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

    func testAStampIsTheSameNumberEverywhere() {
        XCTAssertEqual(ValueStamp.of(Sample()), 0x080E_ABC3_CD0E_0059)
    }

    func testStampsTellApartWhatTheyEncode() {
        XCTAssertNotEqual(ValueStamp.of(["ab"]), ValueStamp.of(["a", "b"]))
        XCTAssertNotEqual(ValueStamp.of(Sample()), ValueStamp.of(Sample(count: 43)))
        XCTAssertNotEqual(ValueStamp.of(Sample()), ValueStamp.of(Sample(missing: "")))
        XCTAssertNotEqual(ValueStamp.of(Sample()), ValueStamp.of(Sample(long: String(repeating: "x", count: 701))))
        XCTAssertEqual(ValueStamp.of(Sample()), ValueStamp.of(Sample()))
    }
}

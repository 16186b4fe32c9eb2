import FolioTestSupport
import Foundation
import XCTest

/// Every input the fuzzers were seeded with or ever tripped on (`Fuzz/Corpus`, `Fuzz/Regressions`),
/// through the same doors `scripts/fuzz.sh` uses: none may crash or hang Folio again.
final class FuzzRegressionTests: XCTestCase {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")

    func testEveryKeptInputRunsThrough() throws {
        var count = 0
        for target in FuzzTarget.allCases {
            for folder in ["Corpus", "Regressions"] {
                let url = Self.fuzz.appendingPathComponent("\(folder)/\(target.rawValue)")
                for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] where !name.hasPrefix(".") {
                    target.run(try Data(contentsOf: url.appendingPathComponent(name)))
                    count += 1
                }
            }
        }
        XCTAssertGreaterThanOrEqual(count, 20, "the seeds are there")
    }
}

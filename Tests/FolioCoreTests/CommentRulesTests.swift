import Foundation
import XCTest

/// Comments say what holds and why; a measurement (megabytes, milliseconds, "at a million photos")
/// and the story of how it was won go to docs/benchmark-history.md and the commit message. This
/// holds every comment line under Sources/ to it, as the before-stop hook holds new ones.
final class CommentRulesTests: XCTestCase {
    /// What a comment quoting a measurement looks like: the hook's own pattern.
    static let figure = try! NSRegularExpression(pattern: #"[0-9] ?(MB|KB|GB|ms|µs)\b|a million|100,000 photos"#)

    /// Files still being rewritten, whose comments are not held to the rule yet: to be emptied
    /// once the rewrite of the model's photo types lands (paths under Sources/, by prefix).
    static let exempt: [String] = []

    func testNoCommentInSourcesQuotesAMeasurement() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        XCTAssertGreaterThan(files.count, 100, "the sources were not found at \(sources.path)")
        var found: [String] = []
        for file in files {
            let relative = String(file.path.dropFirst(sources.path.count + 1))
            guard !Self.exempt.contains(where: { relative.hasPrefix($0) }) else { continue }
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (number, line) in lines.enumerated() {
                let text = line.trimmingCharacters(in: .whitespaces)
                guard text.hasPrefix("//") || text.hasPrefix("/*") else { continue }
                if Self.figure.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                    found.append("Sources/\(relative):\(number + 1): \(text)")
                }
            }
        }
        XCTAssertEqual(found, [], """
            comments quote measurements: say what holds and why, and put the figures in \
            docs/benchmark-history.md and the commit message
            """)
    }
}

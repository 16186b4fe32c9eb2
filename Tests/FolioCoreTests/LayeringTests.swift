import Foundation
import XCTest

/// The library's folders are layers that point one way: a folder may use the types of the
/// folders below it, never those above. Read from the sources: every top-level type is owned by
/// its folder (private ones cannot be named elsewhere, so they own nothing), and a folder's
/// files may name only their own types and those of the folders allowed here.
final class LayeringTests: XCTestCase {
    static let allowed: [String: Set<String>] = [
        "Core": [],
        "Imaging": ["Core"],
        "Video": ["Core", "Imaging"],
        "Model": ["Core", "Imaging"],
        "Network": ["Core"],
        "Places": ["Core", "Imaging"],
        "Metadata": ["Core", "Imaging"],
        "Media": ["Core", "Imaging", "Model"],
        "Flickr": ["Core", "Network", "Model"],
        "Content": ["Core", "Model", "Imaging"],
        "Site": ["Core", "Model", "Media"],
        "Build": ["Core", "Imaging", "Model", "Network", "Media", "Content", "Site", "Places", "Metadata", "Video"],
        "Preview": ["Core", "Build"],
        "Publish": ["Core", "Network", "Site"],
    ]

    static let library = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/FolioCore")

    func testFoldersUseOnlyTheLayersBelowThem() throws {
        let fm = FileManager.default
        var owner: [String: String] = [:]
        var sources: [String: [String]] = [:]
        let declaration = try NSRegularExpression(
            pattern: #"^(?:public |internal )?(?:final )?(?:struct|class|enum|protocol|actor|typealias) +([A-Z]\w*)"#,
            options: .anchorsMatchLines)
        let folders = try fm.contentsOfDirectory(atPath: Self.library.path).sorted()
        XCTAssertEqual(Set(folders), Set(Self.allowed.keys), "every folder has its place in the layers")
        for folder in folders {
            for file in try fm.contentsOfDirectory(atPath: Self.library.appendingPathComponent(folder).path) where file.hasSuffix(".swift") {
                let text = try String(contentsOf: Self.library.appendingPathComponent("\(folder)/\(file)"), encoding: .utf8)
                sources[folder, default: []].append(text)
                for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    let name = String(text[Range(match.range(at: 1), in: text)!])
                    XCTAssertNil(owner[name].flatMap { $0 == folder ? nil : $0 }, "\(name) is declared in two folders")
                    owner[name] = folder
                }
            }
        }
        XCTAssertGreaterThan(owner.count, 50, "the scan found the library's types")
        let word = try NSRegularExpression(pattern: #"\b[A-Z]\w*\b"#)
        var violations: Set<String> = []
        for (folder, texts) in sources {
            for text in texts {
                let code = text.split(separator: "\n").map { line in line.components(separatedBy: "//")[0] }.joined(separator: "\n")
                for match in word.matches(in: code, range: NSRange(code.startIndex..., in: code)) {
                    let name = String(code[Range(match.range, in: code)!])
                    guard let home = owner[name], home != folder else { continue }
                    if !Self.allowed[folder]!.contains(home) { violations.insert("\(folder) uses \(name) of \(home)") }
                }
            }
        }
        XCTAssertEqual(violations.sorted(), [])
    }
}

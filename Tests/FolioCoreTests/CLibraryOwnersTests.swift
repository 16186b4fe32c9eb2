import Foundation
import XCTest

/// Each C library has one owner: one Swift type calls it (`GDImage` libgd, `RAWDecoder` LibRaw,
/// `ArchiveReader` libarchive, …), as docs/architecture.md's table of C libraries says, so that its
/// rules (who frees what, which calls are thread-safe, what it prints) are kept in one place.
/// The files of one type (`VideoFile.swift`, `VideoFile+Poster.swift`) count as one owner; the
/// system calls Swift's Glibc lacks (`CSystem`) and the test support's writers are no library's owner.
final class CLibraryOwnersTests: XCTestCase {
    func testEachCLibraryIsImportedByOneTypeAlone() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" && !$0.path.contains("/FolioTestSupport/") }
        XCTAssertGreaterThan(files.count, 100, "the sources were not found at \(sources.path)")
        var owners: [String: Set<String>] = [:]
        for file in files {
            let type = String(file.deletingPathExtension().lastPathComponent.split(separator: "+")[0])
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") where line.hasPrefix("import C") {
                let module = String(line.dropFirst("import ".count))
                guard module != "CSystem" else { continue }
                owners[module, default: []].insert(type)
            }
        }
        XCTAssertTrue(owners.keys.contains("CRaw") && owners.keys.contains("CHeif"), "the imports were not found")
        let shared = owners.filter { $0.value.count > 1 }.mapValues { $0.sorted() }
        XCTAssertEqual(shared, [:], "a C library called from more than one type")
    }
}

import Foundation
import XCTest
@testable import FolioCore

/// A site in a fresh temporary folder, removed when the test ends.
final class TestSite {
    let root: URL
    var paths: SitePaths { SitePaths(root: root) }
    var content: URL { paths.content }
    var publicFolder: URL { paths.output }

    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let theme = repository.appendingPathComponent("templates")
    static let seedPhoto = repository.appendingPathComponent("content/photo1.jpg")

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("content"), withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Writes `records` as a catalog at `path` under content/.
    func catalog(_ path: String, _ records: [[String: Any]], format: PropertyListSerialization.PropertyListFormat = .xml) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: records, format: format, options: 0)
        try write(data, to: "content/\(path)")
    }

    /// A real photo (one of the seed JPEGs) at `path` under content/.
    func photo(_ path: String, from source: URL = TestSite.seedPhoto) throws {
        try write(try Data(contentsOf: source), to: "content/\(path)")
    }

    func write(_ data: Data, to path: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    func read(_ path: String) throws -> String {
        try String(contentsOf: publicFolder.appendingPathComponent(path), encoding: .utf8)
    }

    @discardableResult
    func build(now: Date? = nil) async throws -> BuildReport {
        try await SiteBuild(paths: paths, options: BuildOptions(themeFolder: Self.theme, now: now)).run()
    }
}

import FolioContent
import FolioCore
import FolioModel
import FolioPipeline
import Foundation
import XCTest

/// A site in a fresh temporary folder, removed when the test ends.
package final class TestSite {
    package let root: URL
    package var paths: SitePaths { SitePaths(root: root) }
    package var content: URL { paths.content }
    package var publicFolder: URL { paths.output }

    package static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    package static let theme = repository.appendingPathComponent("templates")
    package static let seedPhoto = repository.appendingPathComponent("content/photo1.jpg")

    package init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("content"), withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// A small site: three photos by two people in two places, one favorite, one loose file.
    package static func threePhotos() throws -> TestSite {
        let site = try TestSite()
        try site.photo("one.jpg")
        try site.photo("two.jpg", from: repository.appendingPathComponent("content/photo2.jpg"))
        try site.photo("loose/harbour-at-dawn.jpg", from: repository.appendingPathComponent("content/photo3.jpg"))
        try site.catalog("FakeData.plist", [
            ["path": "one.jpg", "name": "Urban <disaster> & co", "user": "Josh", "description": "Rubble",
             "place": "Palo Alto, California, United States", "favorite": true],
            ["path": "two.jpg", "user": "Al", "place": "Nairobi, Kenya", "taken": Date(timeIntervalSince1970: 1_700_000_000)],
        ])
        return site
    }

    package var database: GalleryDatabase {
        get throws { try GalleryDatabase.open(at: paths.database) }
    }

    /// The identifier (page name) of the photo of `path` under content/.
    package func identifier(_ path: String) throws -> String {
        try XCTUnwrap(database.knownPhotos(of: .content)[.content(path: path)]?.identifier, "no photo of content/\(path)")
    }

    /// The search index's photo file (`search/data/p-<k>.js`) that holds the row of the photo of
    /// `path` under content/.
    package func searchShard(of path: String) throws -> String {
        let identifier = try identifier(path)
        let folder = publicFolder.appendingPathComponent("search/data")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasPrefix("p-") {
            if try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8).contains("\"\(identifier)\"") {
                return "search/data/" + name
            }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "no search shard holds content/\(path)"])
    }

    package func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: publicFolder.appendingPathComponent(path).path)
    }

    /// Writes `records` as a catalog at `path` under content/.
    package func catalog(_ path: String, _ records: [[String: Any]], format: PropertyListSerialization.PropertyListFormat = .xml) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: records, format: format, options: 0)
        try write(data, to: "content/\(path)")
    }

    /// A real photo (one of the seed JPEGs) at `path` under content/.
    package func photo(_ path: String, from source: URL = TestSite.seedPhoto) throws {
        try write(try Data(contentsOf: source), to: "content/\(path)")
    }

    package func write(_ data: Data, to path: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    /// Every file of `public/` by path, with its bytes (the build's own hidden state left out):
    /// what two builds of one site are compared by.
    package func publishedFiles() throws -> [String: Data] { try Self.files(under: publicFolder) }

    /// Every file under `root` by path, with its bytes; hidden ones left out.
    package static func files(under root: URL) throws -> [String: Data] {
        var found: [String: Data] = [:]
        for path in try LocalFileAccess().files(under: root) { found[path] = try Data(contentsOf: root.appendingPathComponent(path)) }
        return found
    }

    package func read(_ path: String) throws -> String {
        try String(contentsOf: publicFolder.appendingPathComponent(path), encoding: .utf8)
    }

    /// `asLarge`: a few photos built as a large library's are: content/ read a catalog or two
    /// photos at a time (`BuildOptions.contentParts`), the photos held as rows
    /// (`BuildOptions.photosHeldUpTo`).
    @discardableResult
    package func build(now: Date? = nil, identity: String? = nil, environment: [String: String]? = nil,
                       asLarge: Bool = false) async throws -> BuildReport {
        var options = BuildOptions(themeFolder: Self.theme, now: now, identity: identity)
        if let environment { options.environment = environment }
        if asLarge {
            options.photosHeldUpTo = 8
            options.contentParts = ContentParts.Size(catalogs: 1, files: 2)
        }
        return try await SiteBuild(paths: paths, options: options).run()
    }
}

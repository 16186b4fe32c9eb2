import Foundation

/// Finds every catalog and image under `content/` and pairs each image with its record.
public struct ContentLoader: Sendable {
    public let contentRoot: URL
    public let files: any FileAccess

    public init(contentRoot: URL, files: any FileAccess = LocalFileAccess()) {
        self.contentRoot = contentRoot.standardizedFileURL
        self.files = files
    }

    public func load() throws -> ContentInventory {
        var inventory = ContentInventory()
        let all = try files.files(under: contentRoot)
        let catalogs = all.filter { ($0 as NSString).pathExtension.lowercased() == "plist" }
        let images = all.filter(ContentPath.isImage)
        let realRoot = files.realPath(contentRoot) + "/"
        inventory.catalogCount = catalogs.count

        var listed = Set<String>()
        let reader = CatalogReader(contentRoot: contentRoot, files: files)
        for catalog in catalogs {
            let result = reader.read(catalog: catalog)
            inventory.issues += result.issues
            for record in result.records {
                guard !listed.contains(record.path) else {
                    inventory.issues.append(.warning(record.location, "'\(record.path)' is listed by an earlier record too; the first one is used"))
                    continue
                }
                guard let entry = entry(record.path, record: record, realRoot: realRoot, catalog: record.location, issues: &inventory.issues) else { continue }
                listed.insert(record.path)
                inventory.entries.append(entry)
            }
        }
        for image in images where !listed.contains(image) {
            if let entry = entry(image, record: nil, realRoot: realRoot, catalog: nil, issues: &inventory.issues) {
                inventory.entries.append(entry)
            }
        }
        return inventory
    }

    private func entry(_ path: String, record: CatalogRecord?, realRoot: String, catalog: String?,
                       issues: inout [BuildIssue]) -> ContentEntry? {
        let url = contentRoot.appendingPathComponent(path)
        let shown = "content/\(path)"
        let blame = catalog.map { "\($0) (\(path))" } ?? shown
        guard let stamp = files.stamp(of: url) else {
            issues.append(.error(blame, "image file not found"))
            return nil
        }
        guard files.realPath(url).hasPrefix(realRoot) else {
            issues.append(.error(blame, "is a link that leads outside content/"))
            return nil
        }
        guard ContentPath.isImage(path) else {
            issues.append(.error(blame, "not an image file (expected .jpg, .png, .gif, .webp or .avif)"))
            return nil
        }
        return ContentEntry(path: path, record: record, stamp: stamp)
    }
}

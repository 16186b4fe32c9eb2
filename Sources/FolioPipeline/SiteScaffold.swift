import FolioCore
import Foundation

/// What `folio new` lays out: a site with an empty catalog and its settings.
public enum SiteScaffold {
    public static func create(at root: URL, title: String) throws {
        let fm = FileManager.default
        let paths = SitePaths(root: root)
        if fm.fileExists(atPath: paths.content.path) {
            throw FolioError(path: paths.content.path, reason: "already exists; not touching an existing site")
        }
        try fm.createDirectory(at: paths.content, withIntermediateDirectories: true)
        var settings = SiteSettings()
        settings.title = title
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(settings).write(to: paths.settings)
        let catalog: [[String: Any]] = []
        let data = try PropertyListSerialization.data(fromPropertyList: catalog, format: .xml, options: 0)
        try data.write(to: paths.content.appendingPathComponent("photos.plist"))
        try "public/\n.public.next/\n.public.next.incoming/\n.public.twin/\nfolio.sqlite\n.folio-lock\n".write(to: root.appendingPathComponent(".gitignore"), atomically: true, encoding: .utf8)
    }
}

import FolioCore
import FolioSite
import Foundation

/// What `folio new` lays out: a site with an empty catalog and its settings.
public enum SiteScaffold {
    /// `language` is the site's `language`; with no `title`, the site is called as the language
    /// says "My photos". Returns the language as resolved, whose issues say when the theme has no
    /// words for it.
    @discardableResult
    public static func create(at root: URL, title: String? = nil, language: String = "en") throws -> SiteLanguage {
        let fm = FileManager.default
        let paths = SitePaths(root: root)
        if fm.fileExists(atPath: paths.content.path) {
            throw FolioError(path: paths.content.path, reason: "already exists; not touching an existing site")
        }
        try fm.createDirectory(at: paths.content, withIntermediateDirectories: true)
        let words = try SiteLanguage(tag: language, words: Theme.defaultFolder().flatMap { try? Theme.words(in: $0) } ?? ThemeWords())
        var settings = SiteSettings()
        settings.title = title ?? words.say(.siteTitle)
        settings.language = language
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(settings).write(to: paths.settings)
        let catalog: [[String: Any]] = []
        let data = try PropertyListSerialization.data(fromPropertyList: catalog, format: .xml, options: 0)
        try data.write(to: paths.content.appendingPathComponent("photos.plist"))
        try "public/\n.public.next/\n.public.next.incoming/\n.public.twin/\nfolio.sqlite\n.folio-lock\n".write(to: root.appendingPathComponent(".gitignore"), atomically: true, encoding: .utf8)
        return words
    }
}

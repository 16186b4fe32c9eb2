import FolioCore
import Foundation

/// The templates and static assets a site is drawn with: the default theme, with any file of
/// the site's own `templates/` taking the place of the default one of the same name.
public struct Theme: Sendable {
    public let library: TemplateLibrary
    /// Asset folders, later ones winning: the default theme's, then the site's.
    public let assetFolders: [URL]
    /// Fingerprint of every template and asset, so a changed theme re-renders the pages.
    public let fingerprint: String
    /// The world the maps are drawn on (`WorldBasemap.source`), as text, with the name of the file
    /// it came from; nil when no theme folder has one.
    public let basemap: (text: String, file: String)?
    /// The catalogues of phrases (`words/<tag>.txt`): the theme's, each with the site's file of
    /// the same name over it phrase by phrase, and the site's own languages.
    public let words: ThemeWords

    static let requiredTemplates = ["layout", "home", "places", "list", "photos", "photo"]

    public static func load(defaultFolder: URL, siteFolder: URL?, files: any FileAccess = LocalFileAccess()) throws -> Theme {
        var library = TemplateLibrary()
        var folders: [URL] = []
        var fingerprintText = ""
        var basemap: (text: String, file: String)?
        var words = ThemeWords()
        for folder in [defaultFolder] + (siteFolder.map { [$0] } ?? []) {
            guard files.isFolder(folder) else { continue }
            for name in try files.files(under: folder) {
                let url = folder.appendingPathComponent(name)
                let data = try files.read(url)
                fingerprintText += "\(name):\(ContentHash.hex(data))\n"
                if name == WorldBasemap.source { basemap = (String(decoding: data, as: UTF8.self), url.path) }
                if let tag = catalogueTag(name) { words.add(tag: tag, file: url.path, text: String(decoding: data, as: UTF8.self)) }
                guard name.hasSuffix(".mustache") else { continue }
                let text = String(decoding: data, as: UTF8.self)
                do {
                    try library.register(text, named: String(name.dropLast(".mustache".count)))
                } catch {
                    throw FolioError(path: url.path, reason: "line \(error.line), column \(error.column): \(error.reason)")
                }
            }
            folders.append(folder.appendingPathComponent("assets"))
        }
        for name in requiredTemplates where !library.has(name) {
            throw FolioError(path: defaultFolder.appendingPathComponent("\(name).mustache").path, reason: "template missing from the theme")
        }
        return Theme(library: library, assetFolders: folders, fingerprint: ContentHash.hex(fingerprintText), basemap: basemap,
                     words: words)
    }

    /// The folder of a theme's catalogues of phrases.
    public static let wordsFolder = "words/"

    /// The language tag a theme file is the catalogue of: "words/pl.txt" → "pl".
    static func catalogueTag(_ name: String) -> String? {
        guard name.hasPrefix(wordsFolder), name.hasSuffix(".txt") else { return nil }
        let tag = name.dropFirst(wordsFolder.count).dropLast(".txt".count)
        return tag.isEmpty || tag.contains("/") ? nil : String(tag)
    }

    /// The catalogues of one theme folder alone.
    public static func words(in folder: URL, files: any FileAccess = LocalFileAccess()) throws -> ThemeWords {
        var words = ThemeWords()
        for name in try files.files(under: folder) {
            guard let tag = catalogueTag(name) else { continue }
            let url = folder.appendingPathComponent(name)
            words.add(tag: tag, file: url.path, text: String(decoding: try files.read(url), as: UTF8.self))
        }
        return words
    }

    /// Every catalogue of one theme folder alone, read, by tag lowercased.
    public static func catalogues(in folder: URL, files: any FileAccess = LocalFileAccess()) throws -> [String: Catalogue] {
        try words(in: folder, files: files).all()
    }

    /// The default theme: `FOLIO_THEME` when set; the `share/folio/templates` an install put
    /// beside the executable; else the `templates/` of the source tree it was built from.
    public static func defaultFolder() -> URL? {
        var candidates: [URL] = []
        if let env = ProcessInfo.processInfo.environment["FOLIO_THEME"], !env.isEmpty {
            candidates.append(URL(fileURLWithPath: env))
        }
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            let bin = executable.deletingLastPathComponent()
            candidates.append(bin.deletingLastPathComponent().appendingPathComponent("share/folio/templates"))
            // .build/<triple>/<config>/folio in a checkout
            var folder = bin
            for _ in 0..<4 {
                folder = folder.deletingLastPathComponent()
                candidates.append(folder.appendingPathComponent("templates"))
            }
        }
        let sourceTree = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(sourceTree.appendingPathComponent("templates"))
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("layout.mustache").path) }
    }
}

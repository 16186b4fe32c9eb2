import Foundation

/// Where a site's inputs and outputs are: any folder with a `content/` in it.
public struct SitePaths: Sendable, Equatable {
    public var root: URL
    public var output: URL

    public init(root: URL, output: URL? = nil) {
        self.root = root.standardizedFileURL
        self.output = (output ?? root.appendingPathComponent("public")).standardizedFileURL
    }

    public var content: URL { root.appendingPathComponent("content") }
    /// The site's own templates, overriding the default theme file by file.
    public var templates: URL { root.appendingPathComponent("templates") }
    public var settings: URL { root.appendingPathComponent("folio.json") }
    /// The model lives with the site, never in `public/`.
    public var database: URL { root.appendingPathComponent("folio.sqlite") }
    /// Downloaded images kept beside the model: a Flickr favorite's screen-sized image, so it
    /// survives its removal from Flickr.
    public var cache: URL { root.appendingPathComponent("folio-cache") }
    /// What a build keeps for the next about the site it published (BuildState): with the site,
    /// never in `public/`.
    public var state: URL { root.appendingPathComponent("folio-state") }
    /// Catalogs as last read, so those that did not change are not parsed again (CatalogCache).
    public var catalogCache: URL { cache.appendingPathComponent("catalogs") }
    /// The offline gazetteer's towns, indexed for lookups by position (`PlaceFinder`).
    public var gazetteer: URL { cache.appendingPathComponent("gazetteer.index") }

    /// Why `output` cannot take a build, or nil. A build replaces the whole folder (the new site
    /// is swapped in, and the old one emptied for the next build): the site's own folder, one
    /// above it, or one it reads from would be lost, and a folder of someone else's files too.
    public func outputRefusal() -> String? {
        func real(_ url: URL) -> String {
            guard let resolved = realpath(url.path, nil) else { return url.standardizedFileURL.path }
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let out = real(output)
        if real(root).pathRelative(to: out) != nil {
            return "is the site's own folder or holds it: a build replaces the whole output folder, content/ and the model with it"
        }
        for (folder, name) in [(content, "content/"), (templates, "templates/"), (cache, "folio-cache/")] where out.pathRelative(to: real(folder)) != nil {
            return "is inside \(name), which a build reads: choose a folder beside it, such as public/"
        }
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter { !$0.hasPrefix(".") }
        // This site's build state names the folder it published; an older Folio left its
        // state in the folder itself; and any Folio's site has its script.
        let madeByFolio = BuildState(paths: self).describesOutput
            || [BuildStamp.legacyFileName, PageManifest.legacyFileName, "assets/folio.js"].contains {
                FileManager.default.fileExists(atPath: out + "/" + $0)
            }
        if !entries.isEmpty && !madeByFolio {
            return "holds files Folio did not make: a build replaces the whole folder; choose an empty or new one"
        }
        return nil
    }

    /// `path` relative to the site root when it is inside it, for messages.
    public func shown(_ url: URL) -> String {
        let full = url.standardizedFileURL.path
        guard let relative = full.pathRelative(to: root.path), !relative.isEmpty else { return full }
        return relative
    }
}

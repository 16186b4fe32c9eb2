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
    /// The photos of the last snapshot a build read whole, so the next reads only the rows changed since (KeptSnapshot).
    public var keptSnapshot: URL { cache.appendingPathComponent("snapshot") }
    /// The offline gazetteer's towns, indexed for lookups by position (`PlaceFinder`).
    public var gazetteer: URL { cache.appendingPathComponent("gazetteer.index") }

    /// `path` relative to the site root when it is inside it, for messages.
    public func shown(_ url: URL) -> String {
        let full = url.standardizedFileURL.path
        guard let relative = full.pathRelative(to: root.path), !relative.isEmpty else { return full }
        return relative
    }
}

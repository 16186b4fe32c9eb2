import Foundation

/// The albums of a gallery: every folder under `content/` that holds photos, or holds folders
/// that do, with the photos directly in it and its sub-albums. Photos at the top of `content/`
/// and photos from Flickr are in no album.
struct AlbumTree: Sendable {
    struct Album: Sendable {
        /// The folder, relative to content/: "travel/japan".
        var path: String
        var title: String
        var description: String?
        var descriptionHTML: String?
        var slug: String
        var parent: String?
        /// Sub-albums' paths, by title.
        var children: [String] = []
        /// The photos directly in the folder.
        var photos: [GalleryPhoto] = []
        /// The photo `album.plist` names as cover, if any.
        var coverFile: String?
        /// Its page: "albums/<slug>.html", or where an unlisted album's link leads.
        var route = Route.album(slug: "")
        var href: String { route.path }
    }

    private(set) var albums: [String: Album] = [:]
    /// Top-level albums' paths, by title.
    private(set) var roots: [String] = []

    init(photos: [GalleryPhoto], settings: [String: AlbumInfo]) {
        for item in photos {
            guard let folder = Self.folder(of: item.photo) else { continue }
            var path: String? = folder
            while let current = path, albums[current] == nil {
                let parent = Self.parent(of: current)
                albums[current] = Album(path: current, title: settings[current]?.title ?? Self.title(fromFolder: current),
                                        description: settings[current]?.description,
                                        descriptionHTML: settings[current]?.descriptionHTML, slug: "", parent: parent,
                                        coverFile: settings[current]?.cover)
                path = parent
            }
            albums[folder]!.photos.append(item)
        }
        var taken = Set<String>()
        for path in albums.keys.sorted() {
            albums[path]!.slug = Slug.unique(path.replacingOccurrences(of: "/", with: " "), in: &taken)
            albums[path]!.route = .album(slug: albums[path]!.slug)
            if let parent = albums[path]!.parent { albums[parent]!.children.append(path) } else { roots.append(path) }
        }
        let byTitle: (String, String) -> Bool = { [albums] a, b in
            let (ta, tb) = (albums[a]!.title, albums[b]!.title)
            return ta == tb ? a < b : ta.localizedStandardCompare(tb) == .orderedAscending
        }
        roots.sort(by: byTitle)
        for path in albums.keys { albums[path]!.children.sort(by: byTitle) }
    }

    /// The folder a photo's file is in, relative to content/; nil at the top or from elsewhere.
    static func folder(of photo: Photo) -> String? {
        guard case .content(let path) = photo.source else { return nil }
        let folder = RelativePath(path).folder
        return folder.isEmpty ? nil : folder
    }

    static func parent(of path: String) -> String? {
        let parent = RelativePath(path).folder
        return parent.isEmpty ? nil : parent
    }

    /// "2024_summer-trip" → "2024 summer trip": the folder's own name, without underscores or dashes.
    static func title(fromFolder path: String) -> String {
        let name = RelativePath(path).name
        let words = name.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ").split(whereSeparator: \.isWhitespace)
        return words.isEmpty ? name : words.joined(separator: " ")
    }

    /// The albums' pages moved to where `href` says (an unlisted album's secret address).
    mutating func relocate(_ route: (Album) -> Route) {
        for path in albums.keys { albums[path]!.route = route(albums[path]!) }
    }

    /// Every photo of an album and of its sub-albums.
    func allPhotos(_ path: String) -> [GalleryPhoto] {
        guard let album = albums[path] else { return [] }
        return album.photos + album.children.flatMap(allPhotos)
    }

    /// The album and the albums above it, the top one first.
    func lineage(_ path: String) -> [Album] {
        var chain: [Album] = []
        var current: String? = path
        while let next = current, let album = albums[next] {
            chain.insert(album, at: 0)
            current = album.parent
        }
        return chain
    }

    /// Albums depth first, each before its sub-albums, in title order.
    var depthFirst: [Album] {
        func walk(_ path: String) -> [Album] { [albums[path]!] + albums[path]!.children.flatMap(walk) }
        return roots.flatMap(walk)
    }
}

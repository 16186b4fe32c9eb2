import FolioCore
import FolioModel
import Foundation

/// The albums of a gallery: every folder under `content/` that holds photos, or holds folders
/// that do, with the photos directly in it and its sub-albums. Photos at the top of `content/`
/// and photos from Flickr are in no album.
///
/// Photos are held as their positions in the array the tree was made from (the builder's
/// `ordered`), each album's in album order, and what a row says of an album and its sub-albums
/// (how many, when, its cover) is worked out once: a large album's pages do not sort or scan it
/// again each.
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
        /// The photos directly in the folder, in album order (`inAlbumOrder`).
        var photos = PositionList()
        /// What its pages list, in turn: its sub-albums, then its own photos (an album of a
        /// thousand folders takes pages of them, as a long album takes pages of photos).
        var entries: Int { children.count + photos.count }
        /// The photo `album.plist` names as cover, if any; and where it is, if it is one of the album's own.
        var coverFile: String?
        var chosenCover: Int?
        /// Its page: "albums/<slug>.html", or where an unlisted album's link leads.
        var route = Route.album(slug: "")
        var href: String { route.path }
        /// Of its photos and its sub-albums': how many, the first and last days taken, and the
        /// cover when none is chosen (the photo taken last; one that does not say when only if
        /// none does).
        var total = 0
        var firstTaken: Date?
        var lastTaken: Date?
        var latestDated: Int?
        var firstUndated: Int?
        var cover: Int? { latestDated ?? firstUndated }
    }

    private(set) var albums: [String: Album] = [:]
    /// Top-level albums' paths, by title.
    private(set) var roots: [String] = []
    /// The albums, by folder, a photo is listed in besides its own folder's, by its identifier.
    private(set) var otherAlbums: [String: [String]] = [:]

    /// Albums by title in `collation`'s order (the site's language's).
    init(photos: some OrderedPhotos, settings: [String: AlbumInfo], collation: Collation = .english) {
        // A photo is in its folder's album, and in the others it is listed in (a Google Takeout
        // photo in several); each album is made with those above it.
        func list(_ position: Int, in folder: String) -> Bool {
            guard settings[folder]?.isAlbum != false else { return false }
            var path: String? = folder
            while let current = path, albums[current] == nil {
                let parent = Self.parent(of: current, settings: settings)
                albums[current] = Album(path: current, title: settings[current]?.title ?? Self.title(fromFolder: current),
                                        description: settings[current]?.description,
                                        descriptionHTML: settings[current]?.descriptionHTML, slug: "", parent: parent,
                                        coverFile: settings[current]?.cover)
                path = parent
            }
            guard albums[folder]!.photos.last != position else { return false }
            albums[folder]!.photos.append(position)
            return true
        }
        for (position, item) in photos.enumerated() {
            if let folder = item.folder { _ = list(position, in: folder) }
            // Not from an unlisted album, whose photos' addresses no other page may give away.
            if item.inOtherAlbums, item.folder.flatMap({ settings[$0]?.unlisted }) != true {
                for folder in item.photo.alsoListedIn where list(position, in: folder) {
                    otherAlbums[item.identifier, default: []].append(folder)
                }
            }
        }
        var taken = Set<String>()
        for path in albums.keys.sorted() {
            albums[path]!.slug = Slug.unique(Self.addressWords(path, settings: settings), in: &taken)
            albums[path]!.route = .album(slug: albums[path]!.slug)
            if let parent = albums[path]!.parent { albums[parent]!.children.append(path) } else { roots.append(path) }
        }
        let byTitle: (String, String) -> Bool = { [albums] a, b in
            let (ta, tb) = (albums[a]!.title, albums[b]!.title)
            return ta == tb ? a < b : collation.precedesAsFileName(ta, tb)
        }
        roots.sort(by: byTitle)
        // A photo's name is in its packed value (`GalleryPhoto.photo`): read once for each photo
        // whose date does not place it (undated, or taken at the moment another was), not at
        // every comparison of a sort; and once for each photo of an album that names its cover.
        var names: [Int: String] = [:]
        func name(_ position: Int) -> String {
            if let name = names[position] { return name }
            let item = photos[position]
            return item.photo.source.contentPath ?? item.identifier
        }
        let inOrder: (Int, Int) -> Bool = { Self.inAlbumOrder((photos[$0], $0), (photos[$1], $1), names: name) }
        for path in albums.keys {
            albums[path]!.children.sort(by: byTitle)
            var taken: [Date?: Int] = [:]
            for position in albums[path]!.photos { taken[photos[position].taken, default: 0] += 1 }
            for position in albums[path]!.photos where photos[position].taken == nil || taken[photos[position].taken]! > 1 {
                names[position] = name(position)
            }
            albums[path]!.photos.sort(by: inOrder)
            if let file = albums[path]!.coverFile {
                let source = PhotoSource.content(path: "\(path)/\(file)")
                albums[path]!.chosenCover = albums[path]!.photos.first { photos[$0].photo.source == source }
            }
            names = [:]
        }
        // Deepest first, so each album's sub-albums are summed before it.
        for path in albums.keys.sorted(by: { $0.utf8.count > $1.utf8.count }) {
            var album = albums[path]!
            album.total = album.photos.count
            let dated = album.photos.filter { photos[$0].taken != nil }
            album.firstTaken = dated.first.flatMap { photos[$0].taken }
            album.lastTaken = dated.last.flatMap { photos[$0].taken }
            album.latestDated = dated.last
            album.firstUndated = album.photos.first { photos[$0].taken == nil }
            for child in album.children.compactMap({ albums[$0] }) {
                album.total += child.total
                album.firstTaken = [album.firstTaken, child.firstTaken].compactMap { $0 }.min()
                album.lastTaken = [album.lastTaken, child.lastTaken].compactMap { $0 }.max()
                album.latestDated = [album.latestDated, child.latestDated].compactMap { $0 }.max(by: inOrder)
                album.firstUndated = [album.firstUndated, child.firstUndated].compactMap { $0 }.min(by: inOrder)
            }
            albums[path] = album
        }
    }

    /// An album's order: as its photos were taken, then those that do not say when, by name
    /// (`names`, by position: the file's path under content/, else the identifier). A file's own
    /// date is when it was copied, not when the photo was taken: it does not count.
    static func inAlbumOrder(_ a: (item: GalleryPhoto, position: Int), _ b: (item: GalleryPhoto, position: Int),
                             names: (Int) -> String) -> Bool {
        switch (a.item.taken, b.item.taken) {
        case let (da?, db?) where da != db: return da < db
        case (_?, nil): return true
        case (nil, _?): return false
        default:
            let (na, nb) = (names(a.position), names(b.position))
            return na != nb ? Collation.precedesAsFileName(na, nb) : a.item.identifier < b.item.identifier
        }
    }

    /// Every album a photo is listed in, by folder: its own folder's first (when it is one), then
    /// the others (`otherAlbums`).
    func albums(of item: GalleryPhoto) -> [String] {
        [item.folder].compactMap { $0 }.filter { albums[$0] != nil } + (otherAlbums[item.identifier] ?? [])
    }

    /// The album an album's folder is in: the nearest folder above it that is one.
    static func parent(of path: String, settings: [String: AlbumInfo]) -> String? {
        var parent = RelativePath.folder(of: path)
        while !parent.isEmpty, settings[parent]?.isAlbum == false { parent = RelativePath.folder(of: parent) }
        return parent.isEmpty ? nil : parent
    }

    /// What an album's address is made of: its folder's path, less the folders above it that are
    /// no album ("Takeout/Google Photos/Trip" → "Trip"), one word a folder.
    static func addressWords(_ path: String, settings: [String: AlbumInfo]) -> String {
        var shown: [Substring] = []
        var above = ""
        for name in path.split(separator: "/") {
            above = above.isEmpty ? String(name) : above + "/" + name
            if settings[above]?.isAlbum != false { shown.append(name) }
        }
        return shown.joined(separator: " ")
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

    /// Each album's photos as a record of `store` (`PositionList.spilled(into:)`).
    mutating func spillPhotos(into store: PackedStore) {
        for path in albums.keys { albums[path]!.photos = albums[path]!.photos.spilled(into: store) }
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

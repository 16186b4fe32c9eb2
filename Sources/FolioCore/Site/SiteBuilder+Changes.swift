import Foundation

/// What the listed site's pages were made from, as numbers: a build keeps it beside its page
/// manifest (`BuildState`), and the next build tells from it, and the model, which pages a
/// change can touch (`SiteBuilder.changes(since:)`). Only those pages' keys are made again; the
/// rest are the last build's, unlooked at. A one-photo edit to a library of 100,000 photos so
/// makes the keys of a few dozen pages, not of every page to compare them.
struct SiteDigest: Sendable, Equatable {
    /// Everything pages show that is no photo's own: the albums as folders, the regions, the
    /// map, how pages are drawn (the theme, the settings, this Folio).
    var structure: UInt64
    /// The photos' identifiers in the site's order. The same order means the same positions,
    /// the same neighbours, the same numbered pages.
    var order: UInt64
    /// When the pages were made: a photo taken within a day of it was in an "hours ago" section.
    var made: Date
    /// Each photo's stamp (what its cards and page show of it), by position.
    var stamps: [UInt64]
    /// Each listing's photos, as a hash of their positions, by the path of its first page.
    var listings: [String: UInt64]
    /// Where each place is on the maps, by the path of its first page: photo pages show it.
    var places: [String: UInt64]

    private static let heading = "folio-site-digest 1"

    func encoded() -> Data {
        var text = "\(Self.heading)\nstructure \(ContentHash.hexText(structure))\norder \(ContentHash.hexText(order))\n"
        text += "made \(Int64(made.timeIntervalSince1970.rounded(.down)))\nstamps \(stamps.count)\n"
        text.reserveCapacity(text.utf8.count + stamps.count * 17 + (listings.count + places.count) * 64)
        for stamp in stamps { text += ContentHash.hexText(stamp) + "\n" }
        for (path, hash) in listings.sorted(by: { $0.key < $1.key }) { text += "listing \(ContentHash.hexText(hash)) \(path)\n" }
        for (path, hash) in places.sorted(by: { $0.key < $1.key }) { text += "place \(ContentHash.hexText(hash)) \(path)\n" }
        return Data(text.utf8)
    }

    /// Nil for anything but a digest this Folio wrote whole: the next build then looks at every page.
    static func decode(_ data: Data) -> SiteDigest? {
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        func value(_ at: Int, _ name: String) -> Substring? {
            guard at < lines.count, lines[at].hasPrefix(name + " ") else { return nil }
            return lines[at].dropFirst(name.count + 1)
        }
        guard lines.first == Substring(heading), let structure = value(1, "structure").flatMap({ UInt64($0, radix: 16) }),
              let order = value(2, "order").flatMap({ UInt64($0, radix: 16) }),
              let made = value(3, "made").flatMap({ Int64($0) }), let count = value(4, "stamps").flatMap({ Int($0) }),
              count >= 0, lines.count >= 5 + count else { return nil }
        var digest = SiteDigest(structure: structure, order: order, made: Date(timeIntervalSince1970: TimeInterval(made)),
                                stamps: [], listings: [:], places: [:])
        digest.stamps.reserveCapacity(count)
        for line in lines[5..<(5 + count)] {
            guard let stamp = UInt64(line, radix: 16) else { return nil }
            digest.stamps.append(stamp)
        }
        for line in lines[(5 + count)...] where !line.isEmpty {
            let parts = line.split(separator: " ", maxSplits: 2)
            guard parts.count == 3, let hash = UInt64(parts[1], radix: 16) else { return nil }
            switch parts[0] {
            case "listing": digest.listings[String(parts[2])] = hash
            case "place": digest.places[String(parts[2])] = hash
            default: return nil
            }
        }
        return digest
    }
}

/// The pages a build must make the keys of again: every page, or those a change can touch.
struct PageChanges: Sendable {
    /// Positions of the photos whose pages may differ; nil when any page may.
    fileprivate var photos: Set<Int>?
    /// The listings (by the path of their first page) whose pages may differ.
    fileprivate var listings: Set<String> = []

    static let everything = PageChanges(photos: nil)

    var isEverything: Bool { photos == nil }

    /// The search index's photo shards whose rows may differ; nil when any may.
    var searchShards: Set<Int>? {
        photos.map { Set($0.map { $0 / SearchIndex.photosPerShard }) }
    }
}

extension SiteBuilder {
    /// The digest of these pages, made as `drawing` says (`BuildStamp.drawing`).
    func digest(drawing: String) -> SiteDigest {
        var identifiers = ordered.map(\.photo.identifier).joined(separator: "\n")
        let order = identifiers.withUTF8 { ContentHash.hash(UnsafeRawBufferPointer($0)) }
        var listings: [String: UInt64] = [:]
        for (path, positions) in listingPhotos() {
            listings[path] = positions.withUnsafeBytes { ContentHash.hash($0) }
        }
        var places: [String: UInt64] = [:]
        for place in index.places {
            places[Route.place(slug: place.slug).path] = index.coordinates[place.id].map { ValueStamp.of($0) } ?? 0
        }
        return SiteDigest(structure: structureStamp(drawing: drawing), order: order, made: now, stamps: stamps,
                          listings: listings, places: places)
    }

    /// The pages whose keys may differ from those of the pages `last` describes. Everything,
    /// unless the photos are the same ones in the same order, under the same albums, regions,
    /// map and drawing: then the pages of the photos whose stamps moved, of their neighbours,
    /// and of every listing they are in or that lost or gained a photo; the photo pages of a
    /// place that moved on the maps, and of an album that lost or gained a photo ("3 of 12");
    /// the indexes (home, Albums, Places, People, Favorites, the Map…), always.
    /// `current` is these pages' own digest.
    func changes(since last: SiteDigest?, to current: SiteDigest) -> PageChanges {
        guard unlisted == nil, let last, last.structure == current.structure, last.order == current.order,
              last.stamps.count == stamps.count else { return .everything }
        // The photos whose cards may differ; and one taken within a day of either build is in an
        // "hours ago" section that may have moved on.
        var changed = Set<Int>()
        let recent = min(last.made, self.now).addingTimeInterval(-24 * 3600)
        for (position, item) in ordered.enumerated() {
            if stamps[position] != last.stamps[position] || Self.when(item) >= recent { changed.insert(position) }
        }
        var albums = Set<String>()
        var changes = PageChanges(photos: [])
        for (path, hash) in current.listings where last.listings[path] != hash {
            changes.listings.insert(path)
        }
        for album in albumTree.albums.values where changes.listings.contains(album.route.path) {
            // Its photos' pages say where they are in it; the albums above it show its count.
            changes.photos?.formUnion(album.photos)
            albums.insert(album.path)
        }
        for position in changed {
            let item = ordered[position]
            changes.photos?.insert(position)
            let neighbours = neighbours(of: position)
            // In the site's order too: a photo in no album leads to the photos beside it, whichever album they are in.
            for near in [neighbours.previous, neighbours.next, position - 1, position + 1].compactMap({ $0 })
            where ordered.indices.contains(near) {
                changes.photos?.insert(near)
            }
            if let folder = AlbumTree.folder(of: item.photo) { albums.insert(folder) }
            if let place = item.place {
                changes.listings.insert(Route.place(slug: place.slug).path)
                changes.listings.insert(Route.favoritePlace(slug: place.slug).path)
            }
            if let region = item.region { changes.listings.insert(Route.region(slug: region.slug).path) }
            changes.listings.insert(Route.person(slug: item.person.slug).path)
        }
        // An album's page shows its sub-albums' covers, counts and dates: every album above a change.
        for folder in albums {
            for album in albumTree.lineage(folder) { changes.listings.insert(album.route.path) }
        }
        for place in index.places {
            let path = Route.place(slug: place.slug).path
            if current.places[path] != last.places[path] { changes.photos?.formUnion(positions(of: place)) }
        }
        return changes
    }

    /// Whether the page at `route` may differ from the last build's, as `changes` says.
    func mayDiffer(_ route: Route, _ changes: PageChanges) -> Bool {
        guard let photos = changes.photos else { return true }
        switch route {
        case .photo(let identifier), .unlistedPhoto(_, let identifier):
            return index.position[identifier].map { photos.contains($0) } ?? true
        case .album, .place, .region, .person, .favoritePlace:
            return changes.listings.contains(route.page(1).path)
        case .home, .recents, .search, .albums, .places, .regions, .map, .people, .favorites, .allFavorites, .unlistedAlbum:
            return true
        }
    }

    /// Every listing of photos, by the path of its first page, with its photos' positions.
    private func listingPhotos() -> [(path: String, positions: [Int])] {
        var listings: [(path: String, positions: [Int])] = albumTree.albums.values.map { ($0.route.path, $0.photos) }
        for place in index.places {
            listings.append((Route.place(slug: place.slug).path, positions(of: place)))
            listings.append((Route.favoritePlace(slug: place.slug).path, index.favorites[place.id] ?? []))
        }
        listings += snapshot.regions.map { (Route.region(slug: $0.slug).path, positions(of: $0)) }
        listings += index.people.map { (Route.person(slug: $0.slug).path, positions(of: $0)) }
        return listings
    }

    /// What every page may show that is no photo's own.
    private func structureStamp(drawing: String) -> UInt64 {
        struct AlbumShape: Encodable {
            var path, title, slug, href: String
            var description, descriptionHTML, parent, coverFile: String?
            var children: [String]
        }
        struct Structure: Encodable {
            var drawing: String
            var albums: [AlbumShape]
            /// What `album.plist` files say, as the model keeps it.
            var settings: [AlbumInfo]
            /// Regions no photo is in: the pages of the others show them through their photos' stamps.
            var emptyRegions: [Region]
            var hasMap: Bool
            var mapInNavigation: Bool?
            var basemap: String?
        }
        let albums = albumTree.albums.values.sorted { $0.path < $1.path }.map {
            AlbumShape(path: $0.path, title: $0.title, slug: $0.slug, href: $0.href, description: $0.description,
                       descriptionHTML: $0.descriptionHTML, parent: $0.parent, coverFile: $0.coverFile, children: $0.children)
        }
        let settings = snapshot.albums.values.sorted { $0.path < $1.path }
        return ValueStamp.of(Structure(drawing: drawing, albums: albums, settings: settings,
                                       emptyRegions: snapshot.regions.filter { positions(of: $0).isEmpty }, hasMap: hasMap,
                                       mapInNavigation: mapInNavigation, basemap: basemap))
    }
}

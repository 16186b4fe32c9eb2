import FolioCore
import FolioModel
import Foundation

/// What the listed site's pages were made from, as numbers: a build keeps it beside its page
/// manifest (`BuildState`), and the next build tells from it, and the model, which pages a
/// change can touch (`SiteBuilder.changes(since:)`). Only those pages' keys are made again; the
/// rest are the last build's, unlooked at, so a one-photo edit makes the keys of a few dozen
/// pages, not of every page to compare them.
package struct SiteDigest: Sendable, Equatable, LedgerFile {
    /// Everything pages show that is no photo's own: the albums as folders, the regions, the
    /// map, how pages are drawn (the theme, the settings, this Folio).
    var structure: UInt64
    /// When the pages were made: a photo taken within a day of it was in an "hours ago" section.
    var made: Date
    /// Each photo's card digest (what its cards and page show of it), by position.
    var cardDigests: [UInt64]
    /// Each photo's identifier, as a hash, by position: what tells a photo added, taken away or
    /// moved from the others, which keep their pages.
    package var identities: [UInt64]
    /// Each listing's photos, as a hash of their identifiers, when each was taken, and what the
    /// listing's headings say of it, by the path of its first page.
    var listings: [String: UInt64]
    /// Where each place is on the maps, by the path of its first page: photo pages show it.
    var places: [String: UInt64]

    private static let heading = "folio-site-digest 3"

    package var ledgerHeading: String {
        "\(Self.heading)\nstructure \(ContentHash.hexText(structure))\nmade \(Int64(made.timeIntervalSince1970.rounded(.down)))\n"
            + "cards \(cardDigests.count)\n"
    }

    package var ledgerSize: Int { cardDigests.count * 34 + (listings.count + places.count) * 64 }

    /// A line a photo (its card digest and identity), then one for each listing and place.
    package func writeLines(into file: inout LedgerWriter) {
        for (cardDigest, identity) in zip(cardDigests, identities) {
            ContentHash.appendHex(cardDigest, to: &file.line)
            file.line.append(0x20)
            ContentHash.appendHex(identity, to: &file.line)
            file.endLine()
        }
        for (kind, hashes) in [("listing ", listings), ("place ", places)] {
            for (path, hash) in hashes.sorted(by: { $0.key < $1.key }) {
                file.line.append(contentsOf: kind.utf8)
                ContentHash.appendHex(hash, to: &file.line)
                file.line.append(0x20)
                file.line.append(contentsOf: path.utf8)
                file.endLine()
            }
        }
    }

    /// Nil for anything but a digest this Folio wrote whole: the next build then looks at every page.
    /// Read a field at a time (`LedgerReader`), not split into a string for each card digest.
    package static func decode(_ data: Data) -> SiteDigest? {
        data.withUnsafeBytes { raw -> SiteDigest? in
            var reader = LedgerReader(bytes: raw.bindMemory(to: UInt8.self))
            guard reader.line() == heading, let structure = reader.line(after: "structure ").flatMap({ UInt64($0, radix: 16) }),
                  let made = reader.line(after: "made ").flatMap({ Int64($0) }),
                  let count = reader.line(after: "cards ").flatMap({ Int($0) }), (0...raw.count / 4).contains(count) else { return nil }
            var digest = SiteDigest(structure: structure, made: Date(timeIntervalSince1970: TimeInterval(made)),
                                    cardDigests: [], identities: [], listings: [:], places: [:])
            digest.cardDigests.reserveCapacity(count)
            digest.identities.reserveCapacity(count)
            for _ in 0..<count {
                guard let cardDigest = reader.number(radix: 16, then: 0x20), let identity = reader.number(radix: 16, then: 0x0A) else { return nil }
                digest.cardDigests.append(cardDigest)
                digest.identities.append(identity)
            }
            while !reader.atEnd {
                guard let kind = reader.word(then: 0x20), let hash = reader.number(radix: 16, then: 0x20), let path = reader.line()
                else { return nil }
                switch kind {
                case "listing": digest.listings[path] = hash
                case "place": digest.places[path] = hash
                default: return nil
                }
            }
            return digest
        }
    }
}

/// The pages a build must make the keys of again: every page, or those a change can touch.
package struct PageChanges: Sendable {
    /// Which of a listing's pages (`ListingPages`, from 0) may differ.
    enum Pages: Sendable, Equatable {
        case all
        case numbered(Set<Int>)

        func contains(_ number: Int) -> Bool {
            switch self {
            case .all: return true
            case .numbered(let numbers): return numbers.contains(number)
            }
        }
    }

    /// Positions of the photos whose pages may differ; nil when any page may.
    fileprivate var photos: Set<Int>?
    /// The listings (by the path of their first page) whose pages may differ, and which of them.
    fileprivate var listings: [String: Pages] = [:]
    static let everything = PageChanges(photos: nil)

    var isEverything: Bool { photos == nil }

    /// Positions (in this build's order) of the photos whose pages, and so whose search rows and
    /// words, may differ; nil when any may.
    package var photoPositions: Set<Int>? { photos }

    /// Marks `pages` of a listing as ones that may differ.
    fileprivate mutating func touch(_ listing: String, _ pages: Pages = .all) {
        switch (listings[listing] ?? .numbered([]), pages) {
        case (.all, _): return
        case (_, .all): listings[listing] = .all
        case (.numbered(let before), .numbered(let more)): listings[listing] = .numbered(before.union(more))
        }
    }
}

extension SiteBuilder {
    /// The digest of these pages, made as `drawing` says (`BuildMark.drawing`).
    package func digest(drawing: String) -> SiteDigest {
        let identities = identities()
        var listings: [String: UInt64] = [:]
        for listing in listingPhotos() {
            // Its photos, when each was taken (its time sections, its dates), and what its pages say of it.
            var words: [UInt64] = []
            words.reserveCapacity(listing.positions.count * 2)
            for position in listing.positions {
                words.append(identities[position])
                words.append(Self.when(ordered[position]).timeIntervalSince1970.bitPattern)
            }
            var bytes = Data(listing.heading.utf8)
            words.withUnsafeBytes { bytes.append(contentsOf: $0) }
            listings[listing.path] = ContentHash.hash(bytes)
        }
        var places: [String: UInt64] = [:]
        for place in index.places {
            places[Route.place(slug: place.slug).path] = index.coordinates[place.id].map { ValueDigest.of($0) } ?? 0
        }
        let cardDigests = ordered.concurrentMap { [cardDigests] in cardDigests[$0] }
        return SiteDigest(structure: structureDigest(drawing: drawing), made: now, cardDigests: cardDigests,
                          identities: identities, listings: listings, places: places)
    }

    /// The pages whose keys may differ from those of the pages `last` describes: every page, unless
    /// the photos are under the same albums, regions, map and drawing; then those a change can
    /// touch, as docs/incremental-builds.md ("Which pages are drawn") lists them. `current` is these
    /// pages' own digest.
    package func changes(since last: SiteDigest?, to current: SiteDigest) -> PageChanges {
        guard unlisted == nil, let last, last.structure == current.structure else { return .everything }
        // Each photo's identity and card digest, by position, as this build's digest lists them.
        let (identities, cards) = (current.identities, current.cardDigests)
        var changes = PageChanges(photos: [])
        for (path, hash) in current.listings where last.listings[path] != hash {
            changes.touch(path)
        }
        // The albums above a change: an album's page shows its sub-albums' covers, counts and dates.
        var above = Set<String>()
        for album in albumTree.albums.values where changes.listings[album.route.path] != nil {
            // Its photos' pages lead to their neighbours in it (and say where they are in it, in an
            // unlisted album); the albums above it show its count.
            changes.photos?.formUnion(album.photos)
            above.formUnion(albumTree.lineage(album.path).map(\.path))
        }
        // The photos whose cards may differ (new, their card digests moved, or their place moved
        // on the maps); and one taken within a day of either build, in an "hours ago" section that
        // may have moved on: by position. Each photo is found in the last build by its identity.
        var changed = Set<Int>()
        let recent = min(last.made, self.now).addingTimeInterval(-24 * 3600)
        var was: [UInt64: Int] = Dictionary(minimumCapacity: last.identities.count)
        for (position, identity) in last.identities.enumerated() { was[identity] = position }
        for (position, item) in ordered.enumerated() {
            guard let old = was[identities[position]] else {
                changed.insert(position)
                continue
            }
            if cards[position] != last.cardDigests[old] || Self.when(item) >= recent {
                changed.insert(position)
            }
            // A photo whose neighbours in the site's order are others (photos added, taken away or
            // moved beside it): its page leads to them when it is in no album.
            let beside = (position > 0 ? identities[position - 1] : nil, position + 1 < identities.count ? identities[position + 1] : nil)
            let wasBeside = (old > 0 ? last.identities[old - 1] : nil, old + 1 < last.identities.count ? last.identities[old + 1] : nil)
            if beside != wasBeside { changes.photos?.insert(position) }
        }
        for place in index.places {
            let path = Route.place(slug: place.slug).path
            if current.places[path] != last.places[path] {
                changed.formUnion(positions(of: place))
            }
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
            func pages(in listing: PositionList, _ route: Route) -> PageChanges.Pages {
                self.pages(showing: listing.sortedIndex(of: position), of: listingPages(route))
            }
            if let folder = item.folder, let album = albumTree.albums[folder] {
                above.formUnion(albumTree.lineage(folder).dropLast().map(\.path))
                changes.touch(album.route.path, self.pages(showing: index.inAlbum[position], of: listingPages(album.route)))
            }
            // The other albums it is listed in show it too (which they are is the structure's).
            for folder in albumTree.otherAlbums[item.identifier] ?? [] {
                let album = albumTree.albums[folder]!
                above.formUnion(albumTree.lineage(folder).dropLast().map(\.path))
                changes.touch(album.route.path, self.pages(showing: album.photos.firstIndex(of: position), of: listingPages(album.route)))
            }
            if let place = item.place {
                changes.touch(Route.place(slug: place.slug).path, pages(in: positions(of: place), .place(slug: place.slug)))
                changes.touch(Route.favoritePlace(slug: place.slug).path,
                              pages(in: index.favorites[place.id] ?? [], .favoritePlace(slug: place.slug)))
            }
            if let region = item.region {
                changes.touch(Route.region(slug: region.slug).path, pages(in: positions(of: region), .region(slug: region.slug)))
            }
            changes.touch(Route.person(slug: item.person.slug).path, pages(in: positions(of: item.person), .person(slug: item.person.slug)))
        }
        for folder in above {
            if let album = albumTree.albums[folder] { changes.touch(album.route.path) }
        }
        return changes
    }

    /// The pages of a listing cut into `pages` a change to its photo at `at` may touch: the page
    /// that shows it (its days in the pager and title, its link preview when it is the page's
    /// first), the next (whose first section says whether it carries on this photo's), the first
    /// (its map, its sub-albums' rows, its link preview's cover). None when it is not in the listing.
    private func pages(showing at: Int?, of pages: ListingPages) -> PageChanges.Pages {
        guard let at else { return .numbered([]) }
        let page = pages.page(showing: at)
        return .numbered(at == pages.range(page).upperBound - 1 ? [0, page, page + 1] : [0, page])
    }

    /// Whether the page at `route` may differ from the last build's, as `changes` says. `photo`
    /// is for a photo's route: the photo's position in `ordered`, when the caller has it
    /// (`photoPosition`).
    package func mayDiffer(_ route: Route, photo: Int? = nil, _ changes: PageChanges) -> Bool {
        guard let photos = changes.photos else { return true }
        switch route {
        case .photo, .unlistedPhoto:
            return photoPosition(route, known: photo).map { photos.contains($0) } ?? true
        case .album(_, let name), .place(_, let name), .region(_, let name), .person(_, let name), .favoritePlace(_, let name):
            guard let touched = changes.listings[route.firstPage.path] else { return false }
            return listingPages(route).page(named: name).map(touched.contains) ?? true
        case .home, .recents, .search, .albums, .places, .regions, .map, .people, .favorites, .allFavorites, .unlistedAlbum:
            return true
        }
    }

    /// Every listing of photos, by the path of its first page, with its photos' positions and
    /// what its pages' headings say of it beside its photos.
    private func listingPhotos() -> [(path: String, positions: PositionList, heading: String)] {
        var listings: [(path: String, positions: PositionList, heading: String)] = albumTree.albums.values.map {
            ($0.route.path, $0.photos, "")
        }
        for place in index.places {
            let heading = "\(place.title)\n\(place.subtitle)"
            listings.append((Route.place(slug: place.slug).path, positions(of: place), heading))
            listings.append((Route.favoritePlace(slug: place.slug).path, index.favorites[place.id] ?? [], heading))
        }
        listings += snapshot.regions.map { (Route.region(slug: $0.slug).path, positions(of: $0), "\($0.name)\n\($0.photographerCount)") }
        listings += index.people.map { (Route.person(slug: $0.slug).path, positions(of: $0), $0.name) }
        return listings
    }

    /// What every page may show that is no photo's own.
    private func structureDigest(drawing: String) -> UInt64 {
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
            /// Regions no photo is in: the pages of the others show them through their photos' card digests.
            var emptyRegions: [Region]
            var hasMap: Bool
            var mapInNavigation: Bool?
            var basemap: String?
            /// The photos listed in albums besides their folder's, and in which; nil when none is.
            var otherAlbums: [[String]]?
        }
        let albums = albumTree.albums.values.sorted { $0.path < $1.path }.map {
            AlbumShape(path: $0.path, title: $0.title, slug: $0.slug, href: $0.href, description: $0.description,
                       descriptionHTML: $0.descriptionHTML, parent: $0.parent, coverFile: $0.coverFile, children: $0.children)
        }
        let settings = snapshot.albums.values.sorted { $0.path < $1.path }
        let otherAlbums = albumTree.otherAlbums.sorted { $0.key < $1.key }.map { [$0.key] + $0.value }
        return ValueDigest.of(Structure(drawing: drawing, albums: albums, settings: settings,
                                       emptyRegions: snapshot.regions.filter { positions(of: $0).isEmpty }, hasMap: hasMap,
                                       mapInNavigation: mapInNavigation, basemap: basemap,
                                       otherAlbums: otherAlbums.isEmpty ? nil : otherAlbums))
    }
}

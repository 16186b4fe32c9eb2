import Foundation

extension SiteBuilder {
    /// The Albums page: every album, each above its sub-albums.
    func albumsIndex(page number: Int) -> ListPage? {
        let albums = albumTree.depthFirst
        guard let shown = slice(albums, number: number) else { return nil }
        var page = ListPage(frame: PageFrame(.albums(page: number), title: "Albums",
                                             subheading: PhotoText.count(albumTree.albums.count, "album")))
        page.rows = shown.map { album in
            row(album, title: albumTree.lineage(album.path).map(\.title).joined(separator: " › "))
        }
        page.emptyMessage = albumTree.albums.isEmpty ? "No albums yet: photos in folders under content/ make them." : nil
        page.frame = framed(page.frame, route: .albums(), number: number, count: albums.count)
        return page
    }

    /// An album's page: its sub-albums (on its first page), then its own photos in the order
    /// they were taken.
    func albumPage(_ album: AlbumTree.Album, number: Int) -> AlbumPage? {
        let taken = album.photos.sorted(by: Self.inAlbumOrder)
        guard let shown = slice(taken, number: number) else { return nil }
        let all = albumTree.allPhotos(album.path)
        // A description in Markdown is shown as such, under the heading; its text stays the
        // page's meta description.
        let described = album.descriptionHTML == nil ? album.description : nil
        var frame = PageFrame(album.route.page(number), title: album.title,
                              subheading: [described, summary(all)].compactMap { $0 }.joined(separator: " · "))
        frame.descriptionHTML = album.descriptionHTML
        frame.origin = "album content/\(album.path)"
        frame.social = socialCard(listing: frame, cover: chosenCover(album) ?? Self.albumCover(all))
        if described == nil, let text = album.description {
            // A link preview has no room for HTML: the Markdown's words.
            frame.social?.description = [text, summary(all)].joined(separator: " · ")
        }
        let above = albumTree.lineage(album.path).dropLast()
        if let unlisted {
            frame.crumbs = above.filter { unlisted.contains($0.path) }.map { Crumb(title: $0.title, href: $0.href) }
            frame = unlistedFrame(frame, of: unlisted)
        } else {
            frame.crumbs = [Crumb(title: "Albums", href: Route.albums().path)] + above.map { Crumb(title: $0.title, href: $0.href) }
        }
        var page = AlbumPage(frame: framed(frame, route: album.route, number: number, count: taken.count))
        if !album.children.isEmpty, number == 1 {
            page.rowsTitle = "Albums"
            page.rows = album.children.compactMap { albumTree.albums[$0] }.map { row($0, title: $0.title) }
        }
        if !shown.isEmpty {
            page.photoSections = [PhotoSection(title: album.children.isEmpty ? nil : "Photos", photos: shown.map(shapedCard),
                                               keepsShapes: true)].firstScreenEager()
        }
        return page
    }

    /// An album as a row: its cover (the photo `album.plist` names, else the newest), its title,
    /// how many photos it holds with those of its sub-albums, and when they were taken.
    private func row(_ album: AlbumTree.Album, title: String) -> ListRow {
        let all = albumTree.allPhotos(album.path)
        let (thumb, alt) = (chosenCover(album) ?? Self.albumCover(all)).map { (images[$0.photo.id]?.thumb, PhotoText.alt($0)) } ?? (nil, "")
        return ListRow(href: album.href, title: title, subtitle: summary(all), thumb: thumb, alt: alt)
    }

    /// The photo `album.plist` names as the album's cover, if it is one of the album's own.
    private func chosenCover(_ album: AlbumTree.Album) -> GalleryPhoto? {
        album.coverFile.flatMap { file in album.photos.first { $0.photo.source == .content(path: "\(album.path)/\(file)") } }
    }

    /// An album's order: as its photos were taken, then those that do not say when, by name. A
    /// file's own date is when it was copied, not when the photo was taken: it does not count.
    static func inAlbumOrder(_ a: GalleryPhoto, _ b: GalleryPhoto) -> Bool {
        switch (a.photo.taken, b.photo.taken) {
        case let (da?, db?) where da != db: return da < db
        case (_?, nil): return true
        case (nil, _?): return false
        default:
            let (na, nb) = (a.photo.source.contentPath ?? a.photo.identifier, b.photo.source.contentPath ?? b.photo.identifier)
            return na != nb ? na.localizedStandardCompare(nb) == .orderedAscending : a.photo.identifier < b.photo.identifier
        }
    }

    /// The cover when none is chosen: the photo taken last; one that does not say when only if
    /// none does.
    static func albumCover(_ photos: [GalleryPhoto]) -> GalleryPhoto? {
        photos.filter { $0.photo.taken != nil }.max(by: inAlbumOrder) ?? photos.min(by: inAlbumOrder)
    }

    /// "12 photos · 3 March 2025 – 20 November 2026", from the photos that say when they were taken.
    private func summary(_ photos: [GalleryPhoto]) -> String {
        let dates = photos.compactMap(\.photo.taken)
        guard let first = dates.min(), let last = dates.max() else { return PhotoText.count(photos.count, "photo") }
        let (from, to) = (PhotoText.day(first), PhotoText.day(last))
        return PhotoText.count(photos.count, "photo") + " · " + (from == to ? from : "\(from) – \(to)")
    }
}

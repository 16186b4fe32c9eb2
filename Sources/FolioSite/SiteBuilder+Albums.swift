import Foundation

extension SiteBuilder {
    /// The Albums page: every album, each above its sub-albums.
    func albumsIndex(page number: Int) -> ListPage? {
        let albums = albumTree.depthFirst
        guard let shown = slice(albums, number: number) else { return nil }
        var page = ListPage(frame: PageFrame(.albums(page: number), title: language.say(.sectionAlbums),
                                             subheading: language.count(.countAlbums, albumTree.albums.count)))
        page.rows = shown.map { album in
            row(album, title: albumTree.lineage(album.path).map(\.title).joined(separator: " › "))
        }
        page.emptyMessage = albumTree.albums.isEmpty ? language.say(.albumsEmpty) : nil
        page.frame = framed(page.frame, route: .albums(), number: number, count: albums.count)
        return page
    }

    /// An album's page: its sub-albums on the first, then its own photos in the order they were
    /// taken, cut into pages where they say (`ListingPages`).
    func albumPage(_ album: AlbumTree.Album, name: String?) -> AlbumPage? {
        guard let (number, pages, shown) = listingPage(album.route, name: name, album.photos) else { return nil }
        let rows = number == 0 ? album.children : []
        // A description in Markdown is shown as such, under the heading; its text stays the
        // page's meta description. How many photos it holds, and when, on its first page.
        let described = album.descriptionHTML == nil ? album.description : nil
        var frame = PageFrame(album.route.page(named: name), title: album.title,
                              subheading: [described, number == 0 ? summary(album) : nil].compactMap { $0 }.joined(separator: " · ").nilIfEmpty)
        frame.descriptionHTML = album.descriptionHTML
        frame.origin = "album content/\(album.path)"
        frame.sequence = sequence(album)
        frame.social = socialCard(listing: frame, cover: (number == 0 ? chosenCover(album) ?? album.cover : shown.first).map { ordered[$0] })
        if described == nil, let text = album.description {
            // A link preview has no room for HTML: the Markdown's words.
            frame.social?.description = ([text] + (number == 0 ? [summary(album)] : [])).joined(separator: " · ")
        }
        let above = albumTree.lineage(album.path).dropLast()
        if let unlisted {
            frame.crumbs = above.filter { unlisted.contains($0.path) }.map { Crumb(title: $0.title, href: $0.href) }
            frame = unlistedFrame(frame, of: unlisted)
        } else {
            frame.crumbs = [Crumb(title: language.say(.sectionAlbums), href: Route.albums().path)] + above.map { Crumb(title: $0.title, href: $0.href) }
        }
        var page = AlbumPage(frame: framed(frame, route: album.route, page: number, of: pages, shown: shown))
        if !rows.isEmpty {
            page.rowsTitle = language.say(.sectionAlbums)
            // A page's worth of them: the rest on the Albums page, where this album's sub-albums
            // follow it, a page at a time, so no album page grows with its folders. An unlisted
            // album is on no Albums page: it lists them all.
            let listed = unlisted == nil ? rows.prefix(settings.pageSize) : rows[...]
            page.rows = listed.compactMap { albumTree.albums[$0] }.map { row($0, title: $0.title) }
            if listed.count < rows.count, let at = albumTree.depthFirst.firstIndex(where: { $0.path == album.path }) {
                page.rowsMore = Crumb(title: language.count(.albumAllAlbums, rows.count), href: Route.albums(page: at / settings.pageSize + 1).path)
            }
        }
        if !shown.isEmpty {
            page.photoSections = [PhotoSection(title: album.children.isEmpty ? nil : language.say(.albumPhotos), photos: shown.map { shapedCard(ordered[$0]) },
                                               keepsShapes: true)].firstScreenEager()
        }
        return page
    }

    /// An album as a row: its cover (the photo `album.plist` names, else the newest), its title,
    /// how many photos it holds with those of its sub-albums, and when they were taken.
    private func row(_ album: AlbumTree.Album, title: String) -> ListRow {
        let cover = (chosenCover(album) ?? album.cover).map { ordered[$0] }
        let (thumb, alt) = cover.map { item in
            let photo = item.photo
            return (images[photo]?.thumb, PhotoText.alt(item, of: photo, language))
        } ?? (nil, "")
        return ListRow(href: album.href, title: title, subtitle: summary(album), thumb: thumb, alt: alt)
    }

    /// The photo `album.plist` names as the album's cover, if it is one of the album's own.
    func chosenCover(_ album: AlbumTree.Album) -> Int? { album.chosenCover }

    /// "12 photos · 3 March – 20 November 2026", from the photos that say when they were taken.
    private func summary(_ album: AlbumTree.Album) -> String {
        let photos = language.count(.countPhotos, album.total)
        guard let first = album.firstTaken, let last = album.lastTaken else { return photos }
        return photos + " · " + language.days(from: first, to: last)
    }
}

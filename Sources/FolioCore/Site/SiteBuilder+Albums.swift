import Foundation

extension SiteBuilder {
    /// The Albums page (every album, each above its sub-albums) and a page per album: its
    /// sub-albums, then its own photos in the order they were taken.
    func albumPages() -> [Page] {
        var index = Page(path: "albums/index.html", template: "list", section: .albums, title: "Albums",
                         subheading: PhotoText.count(albumTree.albums.count, "album"))
        var pages: [Page] = []
        index.rows = albumTree.depthFirst.map { album in
            let lineage = albumTree.lineage(album.path).map(\.title)
            return row(album, title: lineage.joined(separator: " › "))
        }
        index.emptyMessage = albumTree.albums.isEmpty ? "No albums yet: photos in folders under content/ make them." : nil
        for album in albumTree.albums.values.sorted(by: { $0.path < $1.path }) {
            let all = albumTree.allPhotos(album.path)
            // A description in Markdown is shown as such, under the heading; its text stays the
            // page's meta description.
            let described = album.descriptionHTML == nil ? album.description : nil
            var page = Page(path: album.href, template: "album", section: .albums, title: album.title,
                            subheading: [described, summary(all)].compactMap { $0 }.joined(separator: " · "))
            page.descriptionHTML = album.descriptionHTML
            page.origin = "album content/\(album.path)"
            page.social = socialCard(listing: page, photos: all, cover: chosenCover(album))
            page.crumbs = [Crumb(title: "Albums", href: "albums/index.html")]
                + albumTree.lineage(album.path).dropLast().map { Crumb(title: $0.title, href: $0.href) }
            if !album.children.isEmpty {
                page.rowsTitle = "Albums"
                page.rows = album.children.compactMap { albumTree.albums[$0] }.map { row($0, title: $0.title) }
            }
            let taken = album.photos.sorted { a, b in
                let (da, db) = (Self.when(a), Self.when(b))
                return da != db ? da < db : a.photo.identifier < b.photo.identifier
            }
            if !taken.isEmpty {
                page.photoSections = [PhotoSection(title: album.children.isEmpty ? nil : "Photos", photos: taken.map(shapedCard), keepsShapes: true)]
            }
            pages.append(page)
        }
        return [index] + pages
    }

    /// An album as a row: its cover (the photo `album.plist` names, else the newest), its title,
    /// how many photos it holds with those of its sub-albums, and when they were taken.
    private func row(_ album: AlbumTree.Album, title: String) -> ListRow {
        let all = albumTree.allPhotos(album.path)
        let (thumb, alt) = chosenCover(album).map { (images[$0.photo.id!]?.thumb, PhotoText.alt($0)) } ?? cover(all)
        return ListRow(href: album.href, title: title, subtitle: summary(all), thumb: thumb, alt: alt)
    }

    /// The photo `album.plist` names as the album's cover, if it is one of the album's own.
    private func chosenCover(_ album: AlbumTree.Album) -> GalleryPhoto? {
        album.coverFile.flatMap { file in album.photos.first { $0.photo.source == .content(path: "\(album.path)/\(file)") } }
    }

    /// "12 photos · 3 March 2025 – 20 November 2026"
    private func summary(_ photos: [GalleryPhoto]) -> String {
        let dates = photos.map(Self.when)
        guard let first = dates.min(), let last = dates.max() else { return PhotoText.count(0, "photo") }
        let (from, to) = (PhotoText.day(first), PhotoText.day(last))
        return PhotoText.count(photos.count, "photo") + " · " + (from == to ? from : "\(from) – \(to)")
    }
}

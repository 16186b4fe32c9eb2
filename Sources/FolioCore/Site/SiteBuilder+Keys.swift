extension SiteBuilder {
    /// What the page at `route` is made of, decided from the model without drawing its photos:
    /// the render step compares it with the last build's, and a page whose key is as it was is
    /// neither made nor drawn. A one-photo edit to a large library so draws the few pages that
    /// show that photo, not every page to compare them.
    ///
    /// A listing's key is its page made with every card standing as its photo's stamp (its
    /// title, place, people, dates, files…, see `ShownPhoto`), and all else as it is: titles,
    /// counts, crumbs, paging, covers, sections. A photo's page shows the photo and links to the
    /// ones before and after it, and names its album: its key is their stamps and the album's
    /// lineage. Nil for a route this site has no page at.
    func key(_ route: Route) -> UInt64? {
        switch route {
        case .photo(let identifier), .unlistedPhoto(_, let identifier):
            guard let position = index.position[identifier] else { return nil }
            let item = ordered[position]
            var key = PhotoPageKey(path: route.path, stamps: [stamps[position]], lock: unlisted?.lock, hasMap: mapInNavigation ?? hasMap,
                                   coordinate: locatorCoordinate(item))
            key.stamps.append(position > 0 ? stamps[position - 1] : 0)
            key.stamps.append(position + 1 < stamps.count ? stamps[position + 1] : 0)
            if let folder = AlbumTree.folder(of: item.photo) {
                key.album = albumTree.lineage(folder).map { Crumb(title: $0.title, href: $0.href) }
            }
            return ValueStamp.of(key)
        default:
            var keyed = self
            keyed.stampsOnly = true
            return keyed.page(route).map { ValueStamp.of($0) }
        }
    }

    private struct PhotoPageKey: Encodable {
        var path: String
        /// The photo's, the one before's and the one after's.
        var stamps: [UInt64]
        var lock: String?
        /// The navigation's Map link, and where the locator puts its place (the centre of all its
        /// photos: another photo's new GPS moves it).
        var hasMap: Bool
        var coordinate: MapCoordinate?
        var album: [Crumb] = []
    }
}

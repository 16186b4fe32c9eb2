import FolioCore
extension SiteBuilder {
    /// What the page at `route` is made of, decided from the model without drawing its photos: a
    /// page whose key is as it was is neither made nor drawn. A listing's key is its page made with
    /// every card standing as its photo's stamp (`SiteBuilder.stamps(of:)`) and all else as it is;
    /// a photo page's, the stamps of the photo and its neighbours, its album's lineage and its
    /// number of the album's count. Nil for a route this site has no page at.
    package func key(_ route: Route) -> UInt64? {
        switch route {
        case .photo(let identifier), .unlistedPhoto(_, let identifier):
            guard let position = index.position[identifier] else { return nil }
            let item = ordered[position]
            var key = PhotoPageKey(path: route.path, stamps: [stamps[position]], lock: unlisted?.lock, hasMap: mapInNavigation ?? hasMap,
                                   coordinate: locatorCoordinate(item))
            let neighbours = neighbours(of: position)
            key.stamps.append(neighbours.previous.map { stamps[$0] } ?? 0)
            key.stamps.append(neighbours.next.map { stamps[$0] } ?? 0)
            key.sequence = neighbours.place
            if let folder = item.folder {
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
        /// The navigation's Map link, and where the locator puts its place (the median of its
        /// photos' positions: another photo's new GPS, or a photo joining or leaving, may move it).
        var hasMap: Bool
        var coordinate: MapCoordinate?
        var album: [Crumb] = []
        /// Where it is in its album: "3 of 12 in Travel".
        var sequence: SequencePlace?
    }
}

import FolioCore
extension SiteBuilder {
    /// What the page at `route` is made of, decided from the model without drawing its photos: a
    /// page whose key is as it was is neither made nor drawn. A listing's key is its page made with
    /// every card standing as its photo's card digest (`SiteBuilder.CardDigests`) and all else as it is;
    /// a photo page's, the card digests of the photo and its neighbours, its album's lineage and its
    /// number of the album's count. Nil for a route this site has no page at. `photo` is for a
    /// photo's route: the photo's position in `ordered`, when the caller has it (`photoPosition`).
    package func key(_ route: Route, photo: Int? = nil) -> UInt64? {
        switch route {
        case .photo, .unlistedPhoto:
            guard let position = photoPosition(route, known: photo) else { return nil }
            let item = ordered[position]
            var key = PhotoPageKey(path: route.path, cardDigests: [cardDigests[item]], lock: unlisted?.lock, hasMap: mapInNavigation ?? hasMap,
                                   coordinate: locatorCoordinate(item))
            let neighbours = neighbours(of: position)
            key.cardDigests.append(neighbours.previous.map { cardDigests[ordered[$0]] } ?? 0)
            key.cardDigests.append(neighbours.next.map { cardDigests[ordered[$0]] } ?? 0)
            key.sequence = neighbours.place
            key.album = albumTree.albums(of: item).flatMap { albumTree.lineage($0) }.map { Crumb(title: $0.title, href: $0.href) }
            return ValueDigest.of(key)
        default:
            var keyed = self
            keyed.digestsOnly = true
            return keyed.page(route).map { ValueDigest.of($0) }
        }
    }

    private struct PhotoPageKey: Encodable {
        var path: String
        /// The photo's, the one before's and the one after's.
        var cardDigests: [UInt64]
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

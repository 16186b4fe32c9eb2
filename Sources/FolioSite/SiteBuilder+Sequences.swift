import FolioModel
extension SiteBuilder {
    /// The list an album's pages walk through (nil in an unlisted album, whose photos the
    /// search index does not hold).
    func sequence(_ album: AlbumTree.Album) -> PhotoSequence? {
        unlisted == nil ? PhotoSequence(kind: .album, slug: album.slug, title: album.title) : nil
    }

    func sequence(_ place: Place) -> PhotoSequence { PhotoSequence(kind: .place, slug: place.slug, title: place.title) }
    func sequence(_ region: Region) -> PhotoSequence { PhotoSequence(kind: .region, slug: region.slug, title: region.name) }
    func sequence(_ person: Person) -> PhotoSequence { PhotoSequence(kind: .person, slug: person.slug, title: person.name) }
    func favoritesSequence(_ place: Place) -> PhotoSequence {
        PhotoSequence(kind: .favorites, slug: place.slug, title: language.say(.favoritesInPlace, ["place": place.title]))
    }
    var latestSequence: PhotoSequence { PhotoSequence(kind: .latest, slug: "added", title: language.say(.homeLatest)) }

    /// The photos the home page and Recents list without JavaScript, last added first.
    var latestPositions: ArraySlice<Int> { index.latestAdded.prefix(max(Self.recentsCount, settings.latestCount)) }

    /// Every list a listing page names, with its photos' positions in `ordered`, in the list's
    /// order (written as their numbers in the search index).
    func sequences() -> [(sequence: PhotoSequence, positions: PositionList)] {
        var lists: [(sequence: PhotoSequence, positions: PositionList)] = []
        for album in albumTree.albums.values.sorted(by: { $0.path < $1.path }) where !album.photos.isEmpty {
            if let sequence = sequence(album) { lists.append((sequence, album.photos)) }
        }
        lists += index.places.map { (sequence($0), positions(of: $0)) }
        lists += snapshot.regions.map { (sequence($0), positions(of: $0)) }.filter { !$0.1.isEmpty }
        lists += index.people.map { (sequence($0), positions(of: $0)) }
        lists += index.placesWithFavorites.map { (favoritesSequence($0.place), $0.favorites) }
        if !ordered.isEmpty { lists.append((latestSequence, PositionList(latestPositions))) }
        return lists
    }

    /// The photos a photo's page leads to as written: its album's, in album order, with where it
    /// is there; for a photo in no album (at the top of content/, from Flickr), the site's.
    func neighbours(of position: Int) -> (previous: Int?, next: Int?, place: SequencePlace?) {
        if let folder = ordered[position].folder, let album = albumTree.albums[folder],
           let at = index.inAlbum[position] {
            let photos = album.photos
            let list = sequence(album)
            // The photo and those either side of it, read at once from a spilled list.
            let around = max(at - 1, 0)..<min(at + 2, photos.count)
            let near = photos.positions(in: around)
            return (at > 0 ? near[0] : nil, at + 1 < photos.count ? near[near.count - 1] : nil,
                    SequencePlace(key: list?.key, file: list?.file, number: list == nil ? at + 1 : nil, count: list == nil ? photos.count : nil,
                                  title: album.title, href: album.href))
        }
        return (position > 0 ? position - 1 : nil, position + 1 < ordered.count ? position + 1 : nil, nil)
    }
}

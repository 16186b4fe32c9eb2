import FolioCore
import FolioModel
import Foundation

/// How a builder finds its photos: by position, place, region, person and album, and each
/// photo's card digest.
extension SiteBuilder {
    struct Index: Sendable {
        var byPlace: [Int64: PositionList] = [:]
        var byRegion: [Int64: PositionList] = [:]
        var byPerson: [Int64: PositionList] = [:]
        /// Places A–Z, titles that start with no letter last (the "#" section).
        var places: [Place] = []
        /// The same, under their letters (`indexLetter`), A–Z then "#".
        var placesByLetter: [(letter: String, places: [Place])] = []
        /// The favorites of each place that holds any (positions, newest first).
        var favorites: [Int64: PositionList] = [:]
        /// How many photos are favorites, with a place or not (the home page's count).
        var favoriteCount = 0

        /// Places that hold favorites, A–Z, with their favorites.
        var placesWithFavorites: [(place: Place, favorites: PositionList)] {
            places.compactMap { place in favorites[place.id].map { (place, $0) } }
        }
        /// Everyone named, A–Z: never the person of photos no one is named for (`Person.isUnknown`).
        var people: [Person] = []
        var place: [String: Place] = [:]
        var region: [String: Region] = [:]
        var person: [String: Person] = [:]
        var album: [String: String] = [:]
        /// Positions, the photos last added first: as many as a page or the feed lists
        /// (`latestKept`), not every photo.
        var latestAdded: [Int] = []
        /// Where each place with GPS among its photos is on the maps (`MapCoordinate`).
        var coordinates: [Int64: MapCoordinate] = [:]
        /// Where each photo is in its album's own order, by position (`SiteBuilder.neighbours`).
        var inAlbum = AlbumOrder(count: 0)
        /// Each listing of photos cut into pages, by the path of its first page.
        var pages: [String: ListingPages] = [:]

        /// The lists by place, region and person, and the places' favorites, as records of `store`.
        mutating func spillLists(into store: PackedStore) {
            for lists in [\Index.byPlace, \.byRegion, \.byPerson, \.favorites] {
                self[keyPath: lists] = self[keyPath: lists].mapValues { $0.spilled(into: store) }
            }
        }
    }

    /// Where each photo is in its album's own order, by its position in `ordered`: a number each,
    /// not a dictionary.
    struct AlbumOrder: Sendable {
        private var places: [Int32]

        init(count: Int) {
            places = [Int32](repeating: -1, count: count)
        }

        /// Nil for a photo in no album.
        subscript(position: Int) -> Int? {
            get { places.indices.contains(position) && places[position] >= 0 ? Int(places[position]) : nil }
            set { places[position] = newValue.map { Int32($0) } ?? -1 }
        }
    }

    /// Each photo's card digest: what its cards and page show of it, the photo
    /// (`GalleryPhoto.digest(of:)`) and whom and where it names; not what the model keeps of its
    /// place and region for other pages (whether the place holds favorites, how many
    /// photographers the region has), which would move the card digests of every photo there when
    /// one photo is made a favorite or given to someone else. Each person, place and region is
    /// digested once, here, for all the photos that name it; a photo's own digest is made when
    /// asked for, from the photo.
    struct CardDigests: Sendable {
        private var people: [Int64: UInt64] = [:]
        private var places: [Int64: UInt64] = [:]
        private var regions: [Int64: UInt64] = [:]

        init(of photos: some OrderedPhotos) {
            // By their ids: each person, place and region is copied once, to be digested.
            for item in photos {
                if people[item.personId] == nil { people[item.personId] = ValueDigest.of(item.person) }
                if let id = item.placeId, places[id] == nil, var place = item.place {
                    place.hasFavorites = false
                    places[id] = ValueDigest.of(place)
                }
                if let id = item.regionId, regions[id] == nil, var region = item.region {
                    region.photographerCount = 0
                    regions[id] = ValueDigest.of(region)
                }
            }
        }

        subscript(item: GalleryPhoto) -> UInt64 {
            let parts = (item.digest, people[item.personId] ?? 0, item.placeId.flatMap { places[$0] } ?? 0,
                         item.regionId.flatMap { regions[$0] } ?? 0)
            return withUnsafeBytes(of: parts) { ContentHash.hash($0) }
        }
    }

    /// The photos' positions by place, region and person; the places and the people named, and the centre of each place's photos
    /// with GPS (`MapCoordinate.Centre`).
    static func filed(_ ordered: some OrderedPhotos)
        -> (Index, places: [Int64: Place], people: [Int64: Person], centres: [Int64: (latitude: Double, longitude: Double)]) {
        var index = Index()
        var places: [Int64: Place] = [:]
        var people: [Int64: Person] = [:]
        // Each list made with room for its photos, then held in no more than it takes: grown by
        // doubling, a list holds up to twice the room it needs.
        var counts: (place: [Int64: Int], region: [Int64: Int], person: [Int64: Int]) = ([:], [:], [:])
        for item in ordered {
            if let id = item.placeId { counts.place[id, default: 0] += 1 }
            if let id = item.regionId { counts.region[id, default: 0] += 1 }
            counts.person[item.personId, default: 0] += 1
        }
        func lists(_ counts: [Int64: Int]) -> [Int64: PositionList] {
            counts.mapValues { count in
                var list = PositionList()
                list.reserveCapacity(count)
                return list
            }
        }
        (index.byPlace, index.byRegion, index.byPerson) = (lists(counts.place), lists(counts.region), lists(counts.person))
        for (position, item) in ordered.enumerated() {
            if let place = item.place {
                index.byPlace[place.id, default: []].append(position)
                places[place.id] = place
            }
            if let id = item.regionId { index.byRegion[id, default: []].append(position) }
            index.byPerson[item.personId, default: []].append(position)
            // No one named is no one: not in People, with no page and no list to walk.
            if !item.person.isUnknown { people[item.person.id] = item.person }
        }
        for id in Array(index.byPlace.keys) { index.byPlace[id]!.letGoOfRoom() }
        for id in Array(index.byRegion.keys) { index.byRegion[id]!.letGoOfRoom() }
        for id in Array(index.byPerson.keys) { index.byPerson[id]!.letGoOfRoom() }
        // One place at a time, through one set of points: never every place's points at once.
        var centres: [Int64: (latitude: Double, longitude: Double)] = [:]
        var centre = MapCoordinate.Centre()
        for (id, positions) in index.byPlace {
            centre.removeAll()
            for position in positions {
                if let latitude = ordered[position].latitude, let longitude = ordered[position].longitude {
                    centre.add(latitude: latitude, longitude: longitude)
                }
            }
            if let median = centre.median() { centres[id] = median }
        }
        return (index, places, people, centres)
    }

    /// The positions of the `count` photos last added, last first (photos added at the same
    /// moment by their identifiers, then their positions). Chosen a batch at a time, never all
    /// sorted for the fifty a page shows.
    static func latestAdded(_ ordered: some OrderedPhotos, count: Int) -> [Int] {
        func before(_ a: Int, _ b: Int) -> Bool {
            let (pa, pb) = (ordered[a], ordered[b])
            if pa.uploaded != pb.uploaded { return pa.uploaded > pb.uploaded }
            return pa.identifier != pb.identifier ? pa.identifier < pb.identifier : a < b
        }
        guard count > 0 else { return [] }
        var kept: [Int] = []
        kept.reserveCapacity(2 * count)
        for position in ordered.indices {
            kept.append(position)
            if kept.count == 2 * count {
                kept.sort(by: before)
                kept.removeLast(count)
            }
        }
        kept.sort(by: before)
        return Array(kept.prefix(count))
    }

    /// How many photos Recents lists without JavaScript, last added first.
    static let recentsCount = 50

    /// How many of the photos last added a page or the feed lists at most (`Index.latestAdded`):
    /// Recents' `recentsCount`, the home page's `latestCount`, the feed's `feedCount`.
    static func latestKept(_ settings: SiteSettings) -> Int {
        max(recentsCount, settings.latestCount, settings.feedCount)
    }
}

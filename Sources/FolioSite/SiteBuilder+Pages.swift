import FolioModel
import Foundation

extension SiteBuilder {
    func home() -> HomePage {
        var page = HomePage(frame: PageFrame(.home, title: settings.title, subheading: siteDescription))
        let favorites = index.favoriteCount
        // A count that says nothing of a small gallery ("1 People" in one photographer's
        // portfolio) is left out; Favorites and Recents stay, as the visitor's browser adds to them.
        page.stats = [
            StatLink(label: language.say(.sectionAlbums), count: albumTree.albums.count, href: Route.albums().path, name: "albums"),
            StatLink(label: language.say(.sectionPlaces), count: index.places.count, href: Route.places().path, name: "places"),
            StatLink(label: language.say(.sectionRegions), count: snapshot.topRegions.count, href: Route.regions.path, name: "regions"),
            StatLink(label: language.say(.sectionPeople), count: index.people.count, href: Route.people().path, name: "people"),
            StatLink(label: language.say(.sectionFavorites), count: favorites, href: Route.favorites().path, name: "favorites"),
            // Recents are what this visitor viewed: no count the build could know (the script shows theirs).
            StatLink(label: language.say(.sectionRecents), count: nil, href: Route.recents.path, name: "recents",
                     note: language.say(.homeYouViewed)),
        ].filter { $0.count.map { $0 >= 2 } ?? true || $0.name == "favorites" }
        for at in page.stats.indices { page.stats[at].countText = page.stats[at].count.map(language.number) }
        page.photoSections = [PhotoSection(title: language.say(.homeLatest), photos: latestAdded(settings.latestCount).map(card))]
            .firstScreenEager()
        page.emptyMessage = ordered.isEmpty ? language.say(.homeEmpty) : nil
        if !ordered.isEmpty { page.frame.sequence = latestSequence }
        page.frame.social = socialCard(listing: page.frame, cover: ordered.first)
        return page
    }

    /// The `count` photos last added, last first: what is new to a visitor, rather than what
    /// was taken last.
    func latestAdded(_ count: Int) -> [GalleryPhoto] {
        index.latestAdded.prefix(count).map { ordered[$0] }
    }

    /// Without JavaScript, Recents is the recently added photos; the visitor's own recents
    /// (what they viewed) are the theme's script's business.
    func recents() -> PhotosPage {
        var page = PhotosPage(frame: PageFrame(.recents, title: language.say(.sectionRecents), subheading: language.say(.recentsAdded)))
        let latest = latestAdded(Self.recentsCount)
        page.photoSections = [PhotoSection(title: nil, photos: latest.map(card))].firstScreenEager()
        page.emptyMessage = latest.isEmpty ? language.say(.recentsEmpty) : nil
        if !latest.isEmpty { page.frame.sequence = latestSequence }
        return page
    }

    /// The Search page: the form works without JavaScript only as far as sending the query;
    /// the theme's script finds and shows the results.
    func search() -> SearchPage {
        var page = SearchPage(frame: PageFrame(.search, title: language.say(.sectionSearch), subheading: language.say(.searchSubheading)))
        let root = page.frame.root
        func link(_ phrase: Phrase, _ route: Route) -> String {
            "<a href=\"\(HTMLText.escape(root + route.path))\">\(HTMLText.escape(language.say(phrase)))</a>"
        }
        page.noscriptHTML = language.html(.searchNoscript, markup: ["places": link(.sectionPlaces, .places()),
                                                                    "regions": link(.sectionRegions, .regions),
                                                                    "people": link(.sectionPeople, .people())])
        return page
    }

    /// The index's routes: one page A–Z; or, when the places are more than a page holds, pages
    /// per letter (the first letter's at the index's own address), each cut into pages.
    func placesIndexRoutes() -> [Route] {
        guard index.places.count > settings.pageSize else { return [.places()] }
        return index.placesByLetter.enumerated().flatMap { position, entry in
            paged(position == 0 ? .places() : .places(letter: entry.letter), count: entry.places.count)
        }
    }

    /// The Places index: every place under its letter, each letter's section linked from the
    /// A–Z bar; for a long list, the page of one letter (nil for the first letter's own, which
    /// the index's address shows).
    func placesIndex(letter: String?, number: Int) -> PlacesPage? {
        let letters = index.placesByLetter
        let large = index.places.count > settings.pageSize
        var page = PlacesPage(frame: PageFrame(.places(letter: letter, page: number), title: language.say(.sectionPlaces),
                                               subheading: language.count(.countPlaces, index.places.count)))
        func row(_ place: Place) -> ListRow {
            let (thumb, alt) = cover(positions(of: place))
            return ListRow(href: Route.place(slug: place.slug).path, title: place.title, subtitle: place.subtitle, thumb: thumb, alt: alt)
        }
        func id(_ letter: String) -> String { "letter-\(letter == PlacesIndex.other ? "other" : letter)" }
        func label(_ letter: String) -> String { letter == PlacesIndex.other ? language.say(.placesOtherLetter) : letter }
        let present = Set(letters.map(\.letter))
        func target(_ shown: String) -> String {
            guard large else { return "#\(id(shown))" }
            let route: Route = shown == letters.first?.letter ? .places() : .places(letter: shown)
            return page.frame.root + route.path
        }
        let alphabet = PlacesIndex(language).letters + [PlacesIndex.other]
        let currentLetter: String? = large ? (letter ?? letters.first?.letter) : nil
        page.letters = alphabet.filter { $0 != PlacesIndex.other || present.contains($0) }.map { shown -> IndexLetter in
            let isPresent = present.contains(shown)
            return IndexLetter(letter: label(shown), id: id(shown), href: isPresent ? target(shown) : nil, present: isPresent,
                               current: shown == currentLetter)
        }
        if large {
            let shown = letter ?? letters.first?.letter
            guard let entry = letters.first(where: { $0.letter == shown }), entry.letter != letters.first?.letter || letter == nil,
                  let rows = slice(entry.places, number: number) else { return nil }
            page.rowSections = [RowSection(id: id(entry.letter), title: label(entry.letter), rows: rows.map(row))]
            page.frame = framed(page.frame, route: .places(letter: letter), number: number, count: entry.places.count)
            if letter != nil {
                page.frame.title = number > 1
                    ? language.say(.placesLetterPage, ["letter": label(entry.letter), "number": language.number(number)])
                    : language.say(.placesLetter, ["letter": label(entry.letter)])
            }
        } else {
            guard letter == nil, number == 1 else { return nil }
            page.rowSections = letters.map { RowSection(id: id($0.letter), title: label($0.letter), rows: $0.places.map(row)) }
        }
        page.emptyMessage = index.places.isEmpty ? language.say(.placesEmpty) : nil
        return page
    }

    func placePage(_ place: Place, name: String?) -> PhotosPage? {
        let photos = positions(of: place)
        let route = Route.place(slug: place.slug)
        guard let (number, pages, shown) = listingPage(route, name: name, photos) else { return nil }
        var frame = PageFrame(route.page(named: name), title: place.title, subheading: place.subtitle.isEmpty ? nil : place.subtitle)
        frame.origin = "place '\(place.name)'"
        frame.sequence = sequence(place)
        frame.crumbs = [Crumb(title: language.say(.sectionPlaces), href: Route.places().path)]
        if let region = photos.first.flatMap({ ordered[$0].region }) {
            frame.crumbs.append(Crumb(title: region.name, href: Route.region(slug: region.slug).path))
        }
        frame.social = socialCard(listing: frame, cover: shown.first.map { ordered[$0] })
        return PhotosPage(frame: framed(frame, route: route, page: number, of: pages, shown: shown),
                          photoSections: timeline(photos, shown: shown, from: pages.range(number).lowerBound), map: number == 0 ? placeLocator(place, root: frame.root) : nil)
    }

    func regionsIndex() -> ListPage {
        var page = ListPage(frame: PageFrame(.regions, title: language.say(.sectionRegions), subheading: language.say(.regionsSubheading)))
        page.rows = snapshot.topRegions.map { region in
            let (thumb, alt) = cover(positions(of: region))
            return ListRow(href: Route.region(slug: region.slug).path, title: region.name,
                           subtitle: language.count(.countPhotographers, region.photographerCount), thumb: thumb, alt: alt)
        }
        page.emptyMessage = page.rows.isEmpty ? language.say(.placesEmpty) : nil
        return page
    }

    /// Every region has its page, in the top 50 or not, so links from photos always resolve.
    func regionPage(_ region: Region, name: String?) -> PhotosPage? {
        let photos = positions(of: region)
        let route = Route.region(slug: region.slug)
        guard let (number, pages, shown) = listingPage(route, name: name, photos) else { return nil }
        // How many photos it holds, on its first page: the others are the same until their own photos change.
        var frame = PageFrame(route.page(named: name), title: region.name, subheading: number > 0 ? nil
                              : language.say(.regionSubheading, ["photos": language.count(.countPhotos, photos.count),
                                                                 "photographers": language.count(.countPhotographers, region.photographerCount)]))
        frame.origin = "region '\(region.name)'"
        frame.sequence = sequence(region)
        frame.crumbs = [Crumb(title: language.say(.sectionRegions), href: Route.regions.path)]
        frame.social = socialCard(listing: frame, cover: shown.first.map { ordered[$0] })
        return PhotosPage(frame: framed(frame, route: route, page: number, of: pages, shown: shown), photoSections: grid(shown),
                          map: number == 0 ? regionMap(region, root: frame.root) : nil)
    }

    func peopleIndex(number: Int) -> ListPage? {
        guard let people = slice(index.people, number: number) else { return nil }
        var page = ListPage(frame: PageFrame(.people(page: number), title: language.say(.sectionPeople),
                                             subheading: language.count(.countPhotographers, index.people.count)))
        page.rows = people.map { person in
            let photos = positions(of: person)
            let (thumb, alt) = cover(photos)
            return ListRow(href: Route.person(slug: person.slug).path, title: person.name,
                           subtitle: language.count(.countPhotos, photos.count), thumb: thumb, alt: alt)
        }
        page.frame = framed(page.frame, route: .people(), number: number, count: index.people.count)
        return page
    }

    func personPage(_ person: Person, name: String?) -> PhotosPage? {
        let photos = positions(of: person)
        let route = Route.person(slug: person.slug)
        guard let (number, pages, shown) = listingPage(route, name: name, photos) else { return nil }
        var frame = PageFrame(route.page(named: name), title: person.name, subheading: number > 0 ? nil : language.count(.countPhotos, photos.count))
        frame.origin = "person '\(person.name)'"
        frame.sequence = sequence(person)
        frame.crumbs = [Crumb(title: language.say(.sectionPeople), href: Route.people().path)]
        frame.social = socialCard(listing: frame, cover: shown.first.map { ordered[$0] })
        return PhotosPage(frame: framed(frame, route: route, page: number, of: pages, shown: shown), photoSections: grid(shown))
    }

    /// Favorites lists the places that hold favorites, each leading to the favorites taken
    /// there; "All places" lists every place. Two pages, so the switch works without JavaScript.
    func favoritesIndex(onlyFavorites: Bool, number: Int) -> ListPage? {
        let route: Route = onlyFavorites ? .favorites() : .allFavorites()
        var page = ListPage(frame: PageFrame(route.page(number), title: language.say(.sectionFavorites),
                                             subheading: language.say(onlyFavorites ? .favoritesSubheading : .favoritesAllPlaces)))
        page.favoritesSwitch = FavoritesSwitch(onlyFavorites: onlyFavorites, onlyHref: Route.favorites().path,
                                               allHref: Route.allFavorites().path)
        if onlyFavorites {
            // The favorites themselves, by place: a place's first few here, all of them on its own
            // page. Cut into pages by photos, as every listing of photos is: no page grows with the library.
            let entries = favoritesIndexEntries()
            guard let shown = slice(entries, number: number) else { return nil }
            var sections: [PhotoSection] = []
            for (at, entry) in zip(shown.indices, shown) {
                let place = entry.place
                let href = Route.favoritePlace(slug: place.slug).path
                if sections.last?.href != href {
                    var section = PhotoSection(title: place.title, photos: [], keepsShapes: true)
                    section.href = href
                    section.subtitle = place.subtitle.nilIfEmpty
                    section.continued = at > entries.startIndex && entries[at - 1].place.id == place.id
                    sections.append(section)
                }
                sections[sections.count - 1].photos.append(shapedCard(ordered[entry.position]))
                let last = at + 1 == entries.endIndex || entries[at + 1].place.id != place.id
                if last, entry.count > Self.favoritesShown {
                    sections[sections.count - 1].more = Crumb(title: language.count(.favoritesAllIn, entry.count, ["place": place.title]), href: href)
                }
            }
            page.photoSections = sections.firstScreenEager()
            page.emptyMessage = entries.isEmpty ? language.say(.favoritesEmpty) : nil
            page.frame = framed(page.frame, route: route, number: number, count: entries.count)
        } else {
            guard let shown = slice(index.places, number: number) else { return nil }
            page.rows = shown.map { place in
                let (thumb, alt) = cover(positions(of: place))
                return ListRow(href: Route.place(slug: place.slug).path, title: place.title, subtitle: place.subtitle, thumb: thumb, alt: alt)
            }
            page.emptyMessage = index.places.isEmpty ? language.say(.placesEmpty) : nil
            page.frame = framed(page.frame, route: route, number: number, count: index.places.count)
        }
        return page
    }

    /// How many of a place's favorites the Favorites page shows before leading to the place's own.
    static let favoritesShown = 12

    /// What the Favorites page shows, in order: each place's first favorites (A–Z by place), with
    /// how many the place holds.
    func favoritesIndexEntries() -> [(place: Place, position: Int, count: Int)] {
        index.placesWithFavorites.flatMap { place, favorites in
            favorites.prefix(Self.favoritesShown).map { (place, $0, favorites.count) }
        }
    }

    func favoritesPage(_ place: Place, name: String?) -> PhotosPage? {
        let route = Route.favoritePlace(slug: place.slug)
        guard let favorites = index.favorites[place.id], let (number, pages, shown) = listingPage(route, name: name, favorites) else { return nil }
        var frame = PageFrame(route.page(named: name), title: language.say(.favoritesInPlace, ["place": place.title]),
                              subheading: place.subtitle.isEmpty ? nil : place.subtitle)
        frame.origin = "the favorites of place '\(place.name)'"
        frame.crumbs = [Crumb(title: language.say(.sectionFavorites), href: Route.favorites().path), Crumb(title: place.title, href: Route.place(slug: place.slug).path)]
        frame.placeSlug = place.slug
        frame.sequence = favoritesSequence(place)
        return PhotosPage(frame: framed(frame, route: route, page: number, of: pages, shown: shown), photoSections: grid(shown))
    }

    func photoPage(at position: Int) -> PhotoPage {
        let item = ordered[position]
        let photo = item.photo
        var frame = PageFrame(route(of: item), title: PhotoText.title(photo, language))
        frame.origin = "photo \(photo.source)"
        // Facts that say nothing of this photo are left out: a photographer no one named, the
        // day a file of content/ was first built (the build's, not the photographer's).
        var facts: [Fact] = []
        if !item.person.isUnknown {
            facts.append(fact(.photographer, item.person.name, href: Route.person(slug: item.person.slug).path))
        }
        for folder in albumTree.albums(of: item) {
            facts.append(fact(.album, albumTree.lineage(folder).map(\.title).joined(separator: " › "), href: albumTree.albums[folder]!.href))
        }
        if let place = item.place {
            facts.append(fact(.place, place.name, href: Route.place(slug: place.slug).path))
        }
        if let region = item.region {
            facts.append(fact(.region, region.name, href: Route.region(slug: region.slug).path))
        }
        let images = self.images[photo]
        let marks = MediaMarks(photo, video: images?.video, language: language)
        if let taken = photo.taken { facts.append(fact(.taken, language.dateTime(taken))) }
        if let added = marks.added { facts.append(added) }
        if let camera = photo.camera { facts.append(fact(.camera, camera)) }
        if let lens = photo.lens { facts.append(fact(.lens, lens)) }
        if let exposure = photo.exposure { facts.append(fact(.exposure, exposure)) }
        if !photo.pictured.isEmpty { facts.append(fact(.pictured, language.list(photo.pictured))) }
        facts.append(fact(.size, language.say(.factSizeValue, ["width": language.digits(photo.width), "height": language.digits(photo.height)])))
        facts += marks.facts

        let neighbours = neighbours(of: position)
        let previous = neighbours.previous.map { ordered[$0] }
        let next = neighbours.next.map { ordered[$0] }
        let nextPhoto = next?.photo
        let detail = PhotoDetail(
            identifier: photo.identifier, title: PhotoText.title(photo, language),
            description: PhotoText.subtitle(photo).isEmpty ? nil : PhotoText.subtitle(photo),
            descriptionHTML: PhotoText.subtitle(photo).isEmpty ? nil : photo.descriptionHTML,
            alt: PhotoText.alt(item, of: photo, language), image: images?.screen, thumb: images?.thumb,
            originalWidth: photo.width, originalHeight: photo.height,
            fillSizes: Self.fillSizes(width: photo.width, height: photo.height), zoom: images?.zoom, zoomDescriptor: images?.zoom?.descriptor, facts: facts,
            tags: photo.tags, favorite: photo.favorite,
            previous: previous.map { Crumb(title: PhotoText.title($0.photo, language), href: photoPath($0)) },
            next: next.map { Crumb(title: PhotoText.title(nextPhoto!, language), href: photoPath($0)) },
            nextImage: nextPhoto.flatMap { self.images[$0]?.screen },
            nextSizes: nextPhoto.map { Self.fillSizes(width: $0.width, height: $0.height) },
            video: marks.video, liveVideo: marks.liveVideo,
            sequence: neighbours.place.map { sequenceLine($0, root: frame.root) })
        frame.crumbs = item.person.isUnknown ? [] : [Crumb(title: item.person.name, href: Route.person(slug: item.person.slug).path)]
        var page = PhotoPage(frame: frame, photo: detail, map: unlisted == nil ? photoLocator(item, root: frame.root) : nil)
        page.frame.social = socialCard(photo: page.frame, item, photo, images: images)
        if let unlisted { page = unlistedPhoto(page, of: unlisted) }
        return page
    }

    /// A fact of a photo's page, named in the site's language.
    func fact(_ kind: Fact.Kind, _ value: String, href: String? = nil) -> Fact {
        Fact(kind: kind, label: language.say(kind.phrase), value: value, href: href)
    }

    /// Where the photo is in its list, as its page says it: "3 of 12 in Travel", the list a link.
    func sequenceLine(_ place: SequencePlace, root: String) -> SequencePlace {
        var place = place
        let list = "<a class=\"sequence-list\" href=\"\(HTMLText.escape(root + place.href))\">\(HTMLText.escape(place.title))</a>"
        if let number = place.number, let count = place.count {
            let count = language.say(.photoCount, ["number": language.number(number), "count": language.number(count)])
            place.html = language.html(.photoPosition, markup: ["count": "<span class=\"sequence-count\">\(HTMLText.escape(count))</span>", "list": list])
        } else {
            place.html = language.html(.photoInList, markup: ["list": list])
        }
        return place
    }

    /// The `sizes` of a photo shown aspect-fill: the screen's width on a screen wider than the
    /// photo, else the photo's width at the screen's height (a media condition, not `max()`,
    /// which validators still refuse in `sizes`).
    static func fillSizes(width: Int, height: Int) -> String {
        guard width > 0, height > 0 else { return "100vw" }
        let widthAtScreenHeight = Int((Double(width) / Double(height) * 100).rounded(.up))
        return "(min-aspect-ratio: \(width)/\(height)) 100vw, \(widthAtScreenHeight)vh"
    }
}

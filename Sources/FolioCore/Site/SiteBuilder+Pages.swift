import Foundation

extension SiteBuilder {
    func home() -> Page {
        var page = Page(path: "index.html", template: "home", section: .home, title: settings.title,
                        subheading: settings.description)
        let people = Set(snapshot.photos.map(\.person.id))
        let favorites = snapshot.photos.filter(\.photo.favorite).count
        page.stats = [
            StatLink(label: "Albums", count: albumTree.albums.count, href: "albums/index.html", name: "albums"),
            StatLink(label: "Places", count: places.count, href: "places/index.html", name: "places"),
            StatLink(label: "Top Regions", count: snapshot.topRegions.count, href: "regions/index.html", name: "regions"),
            StatLink(label: "People", count: people.count, href: "people/index.html", name: "people"),
            StatLink(label: "Favorites", count: favorites, href: "favorites/index.html", name: "favorites"),
            // Recents are what this visitor viewed: no count the build could know (the script shows theirs).
            StatLink(label: "Recents", count: nil, href: "recents/index.html", name: "recents", note: "You viewed"),
        ]
        let latest = snapshot.photos.sorted { a, b in
            a.photo.uploaded != b.photo.uploaded ? a.photo.uploaded > b.photo.uploaded : a.photo.identifier < b.photo.identifier
        }
        page.photoSections = [PhotoSection(title: "Latest photos", photos: latest.prefix(settings.latestCount).map(card))]
        page.emptyMessage = snapshot.photos.isEmpty ? "No photos yet: put some in content/ and build again." : nil
        page.social = socialCard(listing: page, photos: snapshot.photos)
        return page
    }

    /// Without JavaScript, Recents is the recently added photos; the visitor's own recents
    /// (what they viewed) are the theme's script's business.
    func recents() -> Page {
        var page = Page(path: "recents/index.html", template: "photos", section: .recents, title: "Recents",
                        subheading: "Recently added photos")
        let latest = snapshot.photos.sorted { a, b in
            a.photo.uploaded != b.photo.uploaded ? a.photo.uploaded > b.photo.uploaded : a.photo.identifier < b.photo.identifier
        }
        page.photoSections = [PhotoSection(title: nil, photos: latest.prefix(50).map(card))]
        page.emptyMessage = latest.isEmpty ? "Nothing has been added yet." : nil
        return page
    }

    func placePages() -> [Page] {
        let byPlace = photosByPlace
        var index = Page(path: "places/index.html", template: "places", section: .places, title: "Places",
                         subheading: PhotoText.count(places.count, "place"))
        var sections: [RowSection] = []
        var pages: [Page] = []
        for place in places {
            let photos = byPlace[place.id] ?? []
            let (thumb, alt) = cover(photos)
            let row = ListRow(href: "places/\(place.slug).html", title: place.title, subtitle: place.subtitle, thumb: thumb, alt: alt)
            let letter = Self.indexLetter(place.title)
            if sections.last?.title == letter {
                sections[sections.count - 1].rows.append(row)
            } else {
                sections.append(RowSection(id: "letter-\(letter == "#" ? "other" : letter)", title: letter, rows: [row]))
            }

            var page = Page(path: row.href, template: "photos", section: .places, title: place.title,
                            subheading: place.subtitle.isEmpty ? nil : place.subtitle)
            page.origin = "place '\(place.name)'"
            page.crumbs = [Crumb(title: "Places", href: "places/index.html")]
            if let region = photos.first?.region {
                page.crumbs.append(Crumb(title: region.name, href: "regions/\(region.slug).html"))
            }
            page.photoSections = timeline(photos)
            page.social = socialCard(listing: page, photos: photos)
            pages.append(page)
        }
        index.rowSections = sections
        let present = Set(sections.map(\.title))
        index.letters = (Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ").map(String.init) + ["#"]).map {
            IndexLetter(letter: $0, id: "letter-\($0 == "#" ? "other" : $0)", present: present.contains($0))
        }.filter { $0.letter != "#" || $0.present }
        index.emptyMessage = places.isEmpty ? "No photo has a place yet." : nil
        return [index] + pages
    }

    /// The A–Z section a title files under; anything that is not a letter goes under "#".
    static func indexLetter(_ title: String) -> String {
        let folded = title.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        guard let first = folded.unicodeScalars.first, first.isASCII, CharacterSet.letters.contains(first) else { return "#" }
        return String(first).uppercased()
    }

    func regionPages() -> [Page] {
        var index = Page(path: "regions/index.html", template: "list", section: .regions, title: "Top Regions",
                         subheading: "The most photographed regions, by number of photographers")
        let byRegion = Dictionary(grouping: snapshot.photos.filter { $0.region != nil }, by: { $0.region!.id })
        index.rows = snapshot.topRegions.map { region in
            let (thumb, alt) = cover(byRegion[region.id] ?? [])
            return ListRow(href: "regions/\(region.slug).html", title: region.name,
                           subtitle: PhotoText.count(region.photographerCount, "photographer"), thumb: thumb, alt: alt)
        }
        index.emptyMessage = index.rows!.isEmpty ? "No photo has a place yet." : nil
        // Every region gets its page, in the top 50 or not, so links from photos always resolve.
        let pages = snapshot.regions.map { region -> Page in
            let photos = byRegion[region.id] ?? []
            var page = Page(path: "regions/\(region.slug).html", template: "photos", section: .regions, title: region.name,
                            subheading: "\(PhotoText.count(photos.count, "photo")) by \(PhotoText.count(region.photographerCount, "photographer"))")
            page.origin = "region '\(region.name)'"
            page.crumbs = [Crumb(title: "Top Regions", href: "regions/index.html")]
            page.photoSections = grid(photos)
            page.social = socialCard(listing: page, photos: photos)
            return page
        }
        return [index] + pages
    }

    func peoplePages() -> [Page] {
        let byPerson = Dictionary(grouping: snapshot.photos, by: { $0.person.id })
        let people = Set(snapshot.photos.map(\.person)).sorted { Self.byName($0.name, $1.name) }
        var index = Page(path: "people/index.html", template: "list", section: .people, title: "People",
                         subheading: PhotoText.count(people.count, "photographer"))
        var pages: [Page] = []
        index.rows = people.map { person in
            let photos = byPerson[person.id] ?? []
            let (thumb, alt) = cover(photos)
            var page = Page(path: "people/\(person.slug).html", template: "photos", section: .people, title: person.name,
                            subheading: PhotoText.count(photos.count, "photo"))
            page.origin = "person '\(person.name)'"
            page.crumbs = [Crumb(title: "People", href: "people/index.html")]
            page.photoSections = grid(photos)
            page.social = socialCard(listing: page, photos: photos)
            pages.append(page)
            return ListRow(href: page.path, title: person.name, subtitle: PhotoText.count(photos.count, "photo"), thumb: thumb, alt: alt)
        }
        return [index] + pages
    }

    /// Favorites lists the places that hold favorites, each leading to the favorites taken
    /// there; "All places" lists every place. Two pages, so the switch works without JavaScript.
    func favoritesPages() -> [Page] {
        let byPlace = photosByPlace
        var only = Page(path: "favorites/index.html", template: "list", section: .favorites, title: "Favorites",
                        subheading: "Places that hold favorite photos")
        var all = Page(path: "favorites/all.html", template: "list", section: .favorites, title: "Favorites",
                       subheading: "All places")
        only.favoritesSwitch = FavoritesSwitch(onlyFavorites: true, onlyHref: "favorites/index.html", allHref: "favorites/all.html")
        all.favoritesSwitch = FavoritesSwitch(onlyFavorites: false, onlyHref: "favorites/index.html", allHref: "favorites/all.html")

        var pages: [Page] = []
        var onlyRows: [ListRow] = []
        var allRows: [ListRow] = []
        for place in places {
            let photos = byPlace[place.id] ?? []
            let favorites = photos.filter(\.photo.favorite)
            if place.hasFavorites, !favorites.isEmpty {
                let (thumb, alt) = cover(favorites)
                let href = "favorites/\(place.slug).html"
                onlyRows.append(ListRow(href: href, title: place.title,
                                        subtitle: [place.subtitle, PhotoText.count(favorites.count, "favorite")].filter { !$0.isEmpty }.joined(separator: " · "),
                                        thumb: thumb, alt: alt))
                var page = Page(path: href, template: "photos", section: .favorites, title: "Favorites in \(place.title)",
                                subheading: place.subtitle.isEmpty ? nil : place.subtitle)
                page.origin = "the favorites of place '\(place.name)'"
                page.crumbs = [Crumb(title: "Favorites", href: "favorites/index.html"), Crumb(title: place.title, href: "places/\(place.slug).html")]
                page.placeSlug = place.slug
                page.photoSections = grid(favorites)
                pages.append(page)
            }
            let (thumb, alt) = cover(photos)
            allRows.append(ListRow(href: "places/\(place.slug).html", title: place.title, subtitle: place.subtitle, thumb: thumb, alt: alt))
        }
        only.rows = onlyRows
        only.emptyMessage = onlyRows.isEmpty ? "No favorites yet." : nil
        all.rows = allRows
        all.emptyMessage = allRows.isEmpty ? "No photo has a place yet." : nil
        return [only, all] + pages
    }

    func photoPages() -> [Page] {
        ordered.enumerated().map { index, item in
            let photo = item.photo
            var page = Page(path: photoPath(item), template: "photo", section: .photo, title: PhotoText.title(photo))
            page.origin = "photo \(photo.source)"
            var facts = [Fact(label: "Photographer", value: item.person.name, href: "people/\(item.person.slug).html")]
            if let folder = AlbumTree.folder(of: photo), let album = albumTree.albums[folder] {
                facts.append(Fact(label: "Album", value: albumTree.lineage(folder).map(\.title).joined(separator: " › "), href: album.href))
            }
            if let place = item.place {
                facts.append(Fact(label: "Place", value: place.name, href: "places/\(place.slug).html"))
            }
            if let region = item.region {
                facts.append(Fact(label: "Region", value: region.name, href: "regions/\(region.slug).html"))
            }
            if let taken = photo.taken { facts.append(Fact(label: "Taken", value: PhotoText.dateTime(taken))) }
            facts.append(Fact(label: "Added", value: PhotoText.day(photo.uploaded)))
            if let camera = photo.camera { facts.append(Fact(label: "Camera", value: camera)) }
            if let exposure = photo.exposure { facts.append(Fact(label: "Exposure", value: exposure)) }
            facts.append(Fact(label: "Size", value: "\(photo.width) × \(photo.height) pixels"))
            if let remote = photo.remote { facts += FlickrLicence.facts(remote) }

            let previous = index > 0 ? ordered[index - 1] : nil
            let next = index + 1 < ordered.count ? ordered[index + 1] : nil
            let images = self.images[photo.id]
            page.photo = PhotoDetail(
                identifier: photo.identifier, title: PhotoText.title(photo),
                description: PhotoText.subtitle(photo).isEmpty ? nil : PhotoText.subtitle(photo),
                descriptionHTML: PhotoText.subtitle(photo).isEmpty ? nil : photo.descriptionHTML,
                alt: PhotoText.alt(item), image: images?.screen, thumb: images?.thumb,
                originalWidth: photo.width, originalHeight: photo.height,
                fillSizes: Self.fillSizes(width: photo.width, height: photo.height), zoom: images?.zoom, facts: facts,
                tags: photo.tags, favorite: photo.favorite,
                previous: previous.map { Crumb(title: PhotoText.title($0.photo), href: photoPath($0)) },
                next: next.map { Crumb(title: PhotoText.title($0.photo), href: photoPath($0)) },
                nextImage: next.flatMap { self.images[$0.photo.id]?.screen },
                nextSizes: next.map { Self.fillSizes(width: $0.photo.width, height: $0.photo.height) })
            page.crumbs = [Crumb(title: item.person.name, href: "people/\(item.person.slug).html")]
            page.social = socialCard(photo: page, item)
            return page
        }
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

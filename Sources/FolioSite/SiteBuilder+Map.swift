import FolioCore
import FolioModel
import Foundation

extension SiteBuilder {
    /// How many places the list beside the Map names, those with the most photos: a phone's
    /// page stays light however many places the gallery has (Places lists them all).
    static let mapListLimit = 100

    /// Whether the site has a Map: the setting allows it, and some place has photos with GPS.
    /// A gallery without any has no Map link rather than an empty map.
    package var hasMap: Bool { settings.map && unlisted == nil && !index.coordinates.isEmpty }

    /// Each mapped place as a pin, most photos first.
    func pins(_ places: [Place]) -> [MapFigure.Pin] {
        places.compactMap { place -> MapFigure.Pin? in
            guard let coordinate = index.coordinates[place.id] else { return nil }
            return MapFigure.Pin(coordinate: coordinate, photos: positions(of: place).count, title: place.title,
                                 subtitle: place.subtitle, name: place.name, slug: place.slug, href: Route.place(slug: place.slug).path)
        }
        .sorted { $0.photos != $1.photos ? $0.photos > $1.photos : $0.href < $1.href }
    }

    func mapPage() -> MapPage {
        let pins = pins(index.places)
        var frame = PageFrame(.map, title: language.say(.sectionMap),
                              subheading: language.say(.mapSubheading, ["places": language.count(.countPlaces, pins.count)]))
        frame.origin = "the map"
        let map = MapFigure(kind: "world", label: language.say(.mapWorld), pins: pins, frame: .world,
                            displayWidth: 1000, basemap: basemap, root: frame.root, language: language)
        let listed = pins.prefix(Self.mapListLimit).map { pin in
            MapListItem(href: pin.href, title: pin.title, subtitle: pin.subtitle.nilIfEmpty, photos: language.count(.countPhotos, pin.photos))
        }
        let left = pins.count - listed.count
        let places = "<a href=\"\(HTMLText.escape(frame.root + Route.places().path))\">\(HTMLText.escape(language.say(.sectionPlaces)))</a>"
        let more = language.html(.mapMore, values: ["shown": language.count(.countPlaces, listed.count),
                                                    "more": language.count(.countMorePlaces, left)], markup: ["places": places])
        return MapPage(frame: frame, map: map, places: listed, moreNoteHTML: left > 0 ? more : nil, mapData: mapData().map(\.path))
    }

    /// A region's places, framed to them; nil when none of them is on the map.
    func regionMap(_ region: Region, root: String) -> MapFigure? {
        guard hasMap else { return nil }
        let places = Set(positions(of: region).compactMap { ordered[$0].place })
        let pins = pins(Array(places))
        guard !pins.isEmpty else { return nil }
        return MapFigure(kind: "region", label: language.say(.mapRegion, ["region": region.name]), pins: pins,
                         frame: .around(pins.map(\.coordinate), minimumWidth: 150), displayWidth: 720, basemap: basemap, root: root,
                         language: language)
    }

    /// Where a place is, on a small map around it: its marker one size, named without a count
    /// of photos, so a photo's page (whose key holds only the place's position) is as it was
    /// when another photo joins the place.
    func placeLocator(_ place: Place, root: String) -> MapFigure? {
        guard hasMap, let pin = pins([place]).first else { return nil }
        return MapFigure(kind: "locator", label: language.say(.mapLocator, ["place": place.name]), pins: [pin],
                         frame: .around([pin.coordinate], minimumWidth: 120), displayWidth: 320, basemap: basemap, root: root,
                         language: language, counts: false)
    }

    /// Where a photo's place is: the place's position on the maps, never the photo's own GPS.
    func photoLocator(_ item: GalleryPhoto, root: String) -> MapFigure? {
        item.place.flatMap { placeLocator($0, root: root) }
    }

    /// What a photo page's key holds of its locator.
    func locatorCoordinate(_ item: GalleryPhoto) -> MapCoordinate? {
        guard hasMap, let place = item.place else { return nil }
        return index.coordinates[place.id]
    }

    /// The places for the theme's map script, which clusters them again as the visitor zooms: a
    /// script (a page opened from disk cannot fetch JSON) published with the media, named by its
    /// content's hash, loaded once the map is on screen. Each place is [x, y, photos, slug, title,
    /// index of its subtitle in `subtitles`]; `place` is a place's address with "*" for its slug.
    /// Nil when the site has no Map.
    package func mapData() -> SiteFile? {
        guard hasMap else { return nil }
        var data = MapData(place: Route.place(slug: "*").path)
        var subtitles: [String: Int] = [:]
        for pin in pins(index.places) {
            let subtitle = subtitles[pin.subtitle] ?? {
                data.subtitles.append(pin.subtitle)
                subtitles[pin.subtitle] = data.subtitles.count - 1
                return data.subtitles.count - 1
            }()
            data.places.append(MapData.Entry(pin: pin, subtitle: subtitle))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        guard let json = try? encoder.encode(data) else { return nil }
        let text = "window.folioMapPlaces = " + String(decoding: json, as: UTF8.self) + ";\n"
        return SiteFile(path: "media/map-places-\(ContentHash.hex(Data(text.utf8)).prefix(12)).js", text: text)
    }

    private struct MapData: Encodable {
        var place: String
        var subtitles: [String] = []
        var places: [Entry] = []

        struct Entry: Encodable {
            var pin: MapFigure.Pin
            var subtitle: Int

            func encode(to encoder: Encoder) throws {
                var c = encoder.unkeyedContainer()
                try c.encode((pin.coordinate.x * 10).rounded() / 10)
                try c.encode((pin.coordinate.y * 10).rounded() / 10)
                try c.encode(pin.photos)
                try c.encode(pin.slug)
                try c.encode(pin.title)
                try c.encode(subtitle)
            }
        }
    }
}

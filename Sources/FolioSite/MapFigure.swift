import Foundation

/// A map as a page shows it, drawn at build time as inline SVG: the world's outlines (the
/// `WorldBasemap` file, an image every map shares) under a marker per place, each a link to the
/// place's page named in words ("Paris, France: 12 photos"). Markers that would overlap at the
/// size the map is drawn are one marker for them all, sized by their photos and labelled with
/// the number of places, linking to the one with the most photos. Without JavaScript this is
/// the whole map; the theme's map.js adds panning and zooming, and splits clusters as the
/// visitor zooms in.
public struct MapFigure: Sendable, Encodable, Equatable {
    /// "world", "region" or "locator": how the theme lays it out.
    public var kind: String
    /// The SVG element, markup made here with every text escaped.
    public var svg: String
    /// What the map shows, in words, for its caption and screen readers.
    public var label: String
    /// The part of the world shown: "x y width height" in map units.
    public var viewBox: String

    /// A place on a map.
    public struct Pin: Sendable, Equatable {
        public var coordinate: MapCoordinate
        public var photos: Int
        /// Its title ("Paris"), on a cluster's marker beside "and 3 more places".
        public var title: String
        /// The rest of its name ("France").
        public var subtitle: String
        /// Its full name, in its marker's name ("Paris, France: 12 photos").
        public var name: String
        public var slug: String
        /// Relative to the public root.
        public var href: String
    }

    /// Markers that overlap drawn as one: the pin with the most photos, and those near it.
    struct Cluster {
        var lead: Pin
        var pins: [Pin]
        var photos: Int { pins.reduce(0) { $0 + $1.photos } }
    }

    /// The part of the world a map shows, in map units.
    public struct Frame: Sendable, Equatable {
        public var x: Double, y: Double, width: Double, height: Double

        public static let world = Frame(x: 0, y: 0, width: MapProjection.width, height: MapProjection.height)

        /// Around `points` with a margin, at least `minimumWidth` wide, as wide for its height as
        /// the world is, and inside the world where it fits.
        public static func around(_ points: [MapCoordinate], minimumWidth: Double) -> Frame {
            guard let first = points.first else { return world }
            var (x0, y0, x1, y1) = (first.x, first.y, first.x, first.y)
            for p in points.dropFirst() {
                (x0, y0, x1, y1) = (min(x0, p.x), min(y0, p.y), max(x1, p.x), max(y1, p.y))
            }
            let aspect = MapProjection.width / MapProjection.height
            var width = max(minimumWidth, (x1 - x0) * 1.4, (y1 - y0) * 1.4 * aspect)
            width = min(width, MapProjection.width)
            let height = width / aspect
            let (cx, cy) = ((x0 + x1) / 2, (y0 + y1) / 2)
            let x = min(max(0, cx - width / 2), MapProjection.width - width)
            let y = min(max(0, cy - height / 2), MapProjection.height - height)
            return Frame(x: x, y: y, width: width, height: height)
        }

        var text: String { [x, y, width, height].map { MapFigure.number($0) }.joined(separator: " ") }
    }

    /// A map of `pins` in `frame`, drawn for about `displayWidth` CSS pixels: markers are sized
    /// in pixels at that width, and those closer than a marker's reach are clustered.
    /// `basemap` and every pin's `href` are relative to the public root, `root` the way there
    /// from the page. A map that does not `count` photos (a photo page's locator) draws every
    /// marker one size and names places alone: another photo of the place changes nothing on it,
    /// so its pages are not drawn again.
    public init(kind: String, label: String, pins: [Pin], frame: Frame, displayWidth: Double, basemap: String?, root: String,
                language: SiteLanguage = .defaultTheme, counts: Bool = true) {
        self.kind = kind
        self.label = label
        viewBox = frame.text
        let unitsPerPixel = frame.width / displayWidth
        let clusters = Self.clusters(pins, radius: Self.reach * unitsPerPixel)
        // Named by the figure's caption; its links by their own names.
        var svg = #"<svg class="map-svg" viewBox="\#(viewBox)">"#
        if let basemap {
            svg += #"<image class="map-basemap" href="\#(XMLText.escape(root + basemap))" x="0" y="0" width="\#(Self.number(MapProjection.width))" height="\#(Self.number(MapProjection.height))" preserveAspectRatio="none"/>"#
        }
        svg += #"<g class="map-markers">"#
        for cluster in clusters {
            // A cluster is large enough for its number to be read.
            let radius = max(Self.radius(photos: counts ? cluster.photos : 1), cluster.pins.count > 1 ? 9 : 0) * unitsPerPixel
            let (x, y) = (Self.number(cluster.lead.coordinate.x), Self.number(cluster.lead.coordinate.y))
            let name = XMLText.escape(counts ? Self.name(cluster, language) : cluster.lead.name)
            let many = cluster.pins.count > 1
            svg += #"<a\#(many ? #" class="map-cluster""# : "") href="\#(XMLText.escape(root + cluster.lead.href))" aria-label="\#(name)">"#
            svg += #"<circle cx="\#(x)" cy="\#(y)" r="\#(Self.number(radius))"/>"#
            if many {
                svg += #"<text x="\#(x)" y="\#(y)" font-size="\#(Self.number(radius * 1.05))" dy=".35em">\#(cluster.pins.count)</text>"#
            }
            svg += "</a>"
        }
        svg += "</g></svg>"
        self.svg = svg
    }

    /// How near, in CSS pixels, markers are clustered: about two markers' widths, so the page of a
    /// library with places all over the world draws a few hundred markers, not thousands.
    static let reach = 20.0

    /// A marker's radius in CSS pixels: one photo 5, a hundred 11, ten thousand 17.
    static func radius(photos: Int) -> Double {
        5 + 3 * log10(Double(max(1, photos)))
    }

    /// What a marker is called: "Paris, France: 12 photos"; "Paris and 3 more places: 40 photos".
    static func name(_ cluster: Cluster, _ language: SiteLanguage) -> String {
        let photos = language.count(.countPhotos, cluster.photos)
        guard cluster.pins.count > 1 else { return language.say(.mapMarker, ["place": cluster.lead.name, "photos": photos]) }
        return language.say(.mapCluster, ["place": cluster.lead.title, "more": language.count(.countMorePlaces, cluster.pins.count - 1),
                                          "photos": photos])
    }

    /// Pins, most photos first, each joining the first cluster whose lead is within `radius`, else
    /// leading one of its own: places merge into the markers of the places with the most photos.
    /// Pins are bucketed in cells of `radius`, so each looks only at the clusters near it.
    static func clusters(_ pins: [Pin], radius: Double) -> [Cluster] {
        let sorted = pins.sorted { $0.photos != $1.photos ? $0.photos > $1.photos : $0.href < $1.href }
        guard radius > 0 else { return sorted.map { Cluster(lead: $0, pins: [$0]) } }
        var clusters: [Cluster] = []
        var cells: [Int: [Int]] = [:]
        func cell(_ x: Double, _ y: Double) -> (Int, Int) { (Int((x / radius).rounded(.down)), Int((y / radius).rounded(.down))) }
        func key(_ c: (Int, Int)) -> Int { c.0 &* 1_000_003 &+ c.1 }
        for pin in sorted {
            let (cx, cy) = cell(pin.coordinate.x, pin.coordinate.y)
            var joined: Int?
            for dx in -1...1 {
                for dy in -1...1 {
                    for index in cells[key((cx + dx, cy + dy))] ?? [] {
                        let lead = clusters[index].lead.coordinate
                        if (lead.x - pin.coordinate.x) * (lead.x - pin.coordinate.x) + (lead.y - pin.coordinate.y) * (lead.y - pin.coordinate.y) < radius * radius,
                           joined.map({ index < $0 }) ?? true {
                            joined = index
                        }
                    }
                }
            }
            if let joined {
                clusters[joined].pins.append(pin)
            } else {
                cells[key((cx, cy)), default: []].append(clusters.count)
                clusters.append(Cluster(lead: pin, pins: [pin]))
            }
        }
        return clusters
    }

    /// A map coordinate as SVG reads it, in tenths: 4 km at the equator, a fraction of a pixel
    /// on every map the theme draws (the world 1000 units wide, a locator 120).
    static func number(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return WorldBasemap.number(tenths)
    }
}

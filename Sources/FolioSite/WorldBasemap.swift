import FolioCore
import Foundation

/// The world the site's maps are drawn on: the theme's `map/world.txt` (Natural Earth's country
/// outlines, made by `scripts/make-basemap.py`), projected and drawn once per build as an SVG
/// file the maps show under their markers. It is published with the media, named by its content's
/// hash, so browsers and hosts keep it for good (as `folio publish` and `folio serve` tell them)
/// and a new theme's world is a new file.
public struct WorldBasemap: Sendable {
    /// The SVG document.
    public let svg: Data
    /// Relative to the public root: "media/world-<hash>.svg".
    public let path: String

    /// How far apart, in tenths of a map unit (across plus down), consecutive points of an outline
    /// are kept: 0.4 units, a third of a pixel at the closest zoom the map allows (16 times).
    static let detail = 4

    /// Where the theme keeps the outlines, under its folder.
    public static let source = "map/world.txt"

    /// The outlines in `text`: one ring per line, longitude and latitude in hundredths of a degree,
    /// the first point whole and each next as a difference; lines starting with "#" say what it is.
    /// Fails naming the line that is not such a ring.
    public init(text: String, named name: String = "templates/" + WorldBasemap.source) throws {
        var land = ""
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let numbers = trimmed.split(separator: " ").map { Int($0) }
            guard numbers.count >= 6, numbers.count % 2 == 0, numbers.allSatisfy({ $0 != nil }) else {
                throw FolioError(path: name, reason: "line \(lineNumber) is not a ring of whole-number points (longitude latitude pairs, at least three)")
            }
            var longitude = 0, latitude = 0
            var points: [(Int, Int)] = []
            for index in stride(from: 0, to: numbers.count, by: 2) {
                longitude += numbers[index]!
                latitude += numbers[index + 1]!
                let (x, y) = MapProjection.point(latitude: Double(latitude) / 100, longitude: Double(longitude) / 100)
                // Tenths of a map unit: finer than any screen shows the whole world at.
                let point = (Int((x * 10).rounded()), Int((y * 10).rounded()))
                // A point closer than `Self.detail` to the last one kept adds nothing the maps show.
                if let last = points.last, abs(point.0 - last.0) + abs(point.1 - last.1) < Self.detail { continue }
                points.append(point)
            }
            // An island smaller than that is a speck at every zoom the maps allow; it goes.
            guard points.count >= 3 else { continue }
            var ring = "M" + Self.number(points[0].0) + "," + Self.number(points[0].1) + "l"
            for (index, point) in points.enumerated().dropFirst() {
                let delta = (point.0 - points[index - 1].0, point.1 - points[index - 1].1)
                ring += (index == 1 ? Self.number(delta.0) : Self.signed(delta.0)) + Self.signed(delta.1)
            }
            land += ring + "z"
        }
        guard !land.isEmpty else { throw FolioError(path: name, reason: "holds no outline") }
        let width = Self.number(Int(MapProjection.width * 10)), height = Self.number(Int((MapProjection.height * 10).rounded()))
        let document = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(width) \(height)" width="\(width)" height="\(height)">\
            <style>.sea{fill:#dce8f0}.land{fill:#f3efe6;stroke:#b8ae9c;stroke-width:.3;stroke-linejoin:round}\
            @media (prefers-color-scheme:dark){.sea{fill:#17212b}.land{fill:#2c3138;stroke:#57606b}}</style>\
            <path class="sea" d="\(Self.outline())"/><path class="land" fill-rule="evenodd" d="\(land)"/></svg>

            """
        svg = Data(document.utf8)
        path = "media/world-\(ContentHash.hex(svg).prefix(12)).svg"
    }

    /// The world's edge, the meridians ±180° from pole to pole: the sea drawn inside it.
    static func outline() -> String {
        var east: [String] = [], west: [String] = []
        for step in 0...36 {
            let latitude = 90.0 - Double(step) * 5
            let (x1, y1) = MapProjection.point(latitude: latitude, longitude: 180)
            let (x0, y0) = MapProjection.point(latitude: -latitude, longitude: -180)
            east.append(number(Int((x1 * 10).rounded())) + "," + number(Int((y1 * 10).rounded())))
            west.append(number(Int((x0 * 10).rounded())) + "," + number(Int((y0 * 10).rounded())))
        }
        return "M" + east.joined(separator: "L") + "L" + west.joined(separator: "L") + "z"
    }

    /// Tenths as SVG reads them: 123 → "12.3", -5 → "-.5", 40 → "4".
    static func number(_ tenths: Int) -> String {
        let sign = tenths < 0 ? "-" : ""
        let whole = abs(tenths) / 10, fraction = abs(tenths) % 10
        if fraction == 0 { return sign + String(whole) }
        return sign + (whole == 0 ? "" : String(whole)) + "." + String(fraction)
    }

    /// A number after another in a path: parted from it by its minus sign, else by a space.
    static func signed(_ tenths: Int) -> String {
        let text = number(tenths)
        return text.hasPrefix("-") ? text : " " + text
    }
}

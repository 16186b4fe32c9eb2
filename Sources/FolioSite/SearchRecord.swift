import Foundation

/// What a search result, a visitor's favorite or a recent shows of a photo: one row of a photo
/// file under `search/data/`. The fields are named here once: `meta.js` carries their names
/// (`fields`) in the order rows hold them, and the theme's script reads rows by those names, so
/// a field added here reaches the script without either side counting positions.
struct SearchRecord: Sendable, Equatable {
    enum Field: String, CaseIterable, Sendable {
        case id, title, thumb, thumbWidth, thumbHeight, srcset, alt, person, placeTitle, placeSubtitle, placeSlug, pick, duration, live
    }

    struct Thumb: Sendable, Equatable {
        /// Relative to the site's root.
        var src: String
        var width: Int
        var height: Int
        /// "src width w, …", or nil when there is one size only.
        var srcset: String?
    }

    var id: String
    var title: String
    var thumb: Thumb?
    var alt: String
    /// Who took it; nil for no one named, whom cards leave out as photo pages do.
    var person: String?
    var placeTitle: String?
    var placeSubtitle: String?
    var placeSlug: String?
    /// The photographer's pick (the model's favorite): the home page counts the visitor's
    /// favorites beside the picks, each photo once.
    var pick = false
    /// A video's length ("0:07"), and whether it is a Live Photo: the marks its cards carry
    /// wherever they are drawn, by the build or by the script.
    var duration: String?
    var live = false

    /// The field as JSON text (null when absent).
    func json(_ field: Field) -> String {
        func text(_ value: String?) -> String { value.map(JSONText.string) ?? "null" }
        switch field {
        case .id: return text(id)
        case .title: return text(title)
        case .thumb: return text(thumb?.src)
        case .thumbWidth: return String(thumb?.width ?? 0)
        case .thumbHeight: return String(thumb?.height ?? 0)
        case .srcset: return text(thumb?.srcset)
        case .alt: return text(alt)
        case .person: return text(person)
        case .placeTitle: return text(placeTitle)
        case .placeSubtitle: return text(placeSubtitle)
        case .placeSlug: return text(placeSlug)
        case .pick: return pick ? "true" : "false"
        case .duration: return text(duration)
        case .live: return live ? "true" : "false"
        }
    }

    /// The row a photo file holds: every field, in `Field.allCases` order.
    var row: String { "[" + Field.allCases.map(json).joined(separator: ",") + "]" }

    /// The names `meta.js` gives the script, in the rows' order.
    static var schema: String { "[" + Field.allCases.map { JSONText.string($0.rawValue) }.joined(separator: ",") + "]" }
}

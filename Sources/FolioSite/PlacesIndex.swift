import Foundation

/// The letters of the Places index in the site's language (the catalogue's `places.letters`:
/// A–Z in English, with Ł, Ś, Ż… in Polish, Ñ in Spanish), and the letter each title files under:
/// its first letter if the language has it as a letter of its own, else that letter without its
/// accents ("Éze" under E), else none (`other`, "#"): digits, punctuation, and scripts the
/// language's index does not spell (Chinese and Japanese names, which need a reading to file).
struct PlacesIndex: Sendable {
    /// Where titles under no letter go: in routes ("places/index/other.html") and ids.
    static let other = "#"

    let letters: [String]
    private let positions: [String: Int]

    init(_ language: SiteLanguage) {
        letters = language.say(.placesLetters).split(whereSeparator: \.isWhitespace).map(String.init)
        positions = Dictionary(letters.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The letter `title` files under.
    func letter(_ title: String) -> String {
        guard let first = title.first else { return Self.other }
        let upper = String(first).uppercased()
        if positions[upper] != nil { return upper }
        if let folded = SearchText.fold(String(first)).first.map({ String($0).uppercased() }), positions[folded] != nil {
            return folded
        }
        return Self.other
    }

    /// Whether letter `a` comes before `b` on the index: the language's order, `other` last.
    func order(_ a: String, _ b: String) -> Bool {
        (positions[a] ?? Int.max) < (positions[b] ?? Int.max)
    }
}

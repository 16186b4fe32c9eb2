/// A phrase's text cut once at its `{name}`s, so filling it in is a join: a build says phrases
/// on every page it draws (titles, alternative text, counts, facts).
struct PhraseText: Sendable {
    enum Piece: Sendable {
        case words(String)
        case slot(String)
    }

    let pieces: [Piece]
    let text: String

    init(_ text: String) {
        self.text = text
        var pieces: [Piece] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { pieces.append(.words(String(rest[..<open]))) }
            pieces.append(.slot(String(rest[rest.index(after: open)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.words(String(rest))) }
        self.pieces = pieces
    }

    /// The text with each `{name}` that `value` knows filled in (`words` turns the phrase's own
    /// words, `value`'s results are put in as they are); a name it does not know stays as written.
    func filled(words: (String) -> String = { $0 }, _ value: (String) -> String?) -> String {
        var out = ""
        for piece in pieces {
            switch piece {
            case .words(let text): out += words(text)
            case .slot(let name): out += value(name) ?? words("{\(name)}")
            }
        }
        return out
    }

    /// Filled from `values`, the first of a name winning.
    func filled(_ values: [(String, String)]) -> String {
        guard pieces.contains(where: { if case .slot = $0 { true } else { false } }), !values.isEmpty else { return text }
        return filled { name in values.first { $0.0 == name }?.1 }
    }
}

/// One of the site's `exclude` settings: a glob over paths under `content/`, as .gitignore reads
/// them. `*` is any run of characters within a name, `?` one character, `[abc]`, `[a-z]` and
/// `[!abc]` one of (or none of) a set, `**` any number of whole folders. A pattern without "/" is
/// matched against every name on the path (`Private` leaves out each folder of that name and all
/// under it; `*.tmp.jpg` each such file); one with "/" is matched from the top of `content/`
/// (`trips/2019/**`, `**/Private/**`). A folder matched leaves out everything under it.
public struct ExcludePattern: Sendable, Equatable, CustomStringConvertible {
    public let text: String
    private let names: [Name]
    private let anchored: Bool

    /// One name's pattern, as scalars and the sets between brackets.
    private enum Piece: Sendable, Equatable {
        case scalar(Unicode.Scalar)
        case any
        case anyRun
        case set([ClosedRange<Unicode.Scalar>], negated: Bool)
    }

    private enum Name: Sendable, Equatable {
        case folders
        case pattern([Piece])
    }

    /// The pattern, or why `text` is none: empty, a "[" never closed, a range that runs backwards.
    public static func parse(_ text: String) -> Result<ExcludePattern, PatternError> {
        let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !parts.isEmpty else { return .failure(PatternError(pattern: text, reason: "an empty pattern matches nothing")) }
        var names: [Name] = []
        for part in parts {
            if part == "**" {
                if names.last != .folders { names.append(.folders) }
                continue
            }
            var problem = ""
            guard let pieces = pieces(part, problem: &problem) else {
                return .failure(PatternError(pattern: text, reason: problem))
            }
            names.append(.pattern(pieces))
        }
        return .success(ExcludePattern(text: text, names: names, anchored: trimmed.contains("/")))
    }

    public struct PatternError: Error, Sendable, Equatable, CustomStringConvertible {
        public var pattern: String
        public var reason: String
        public var description: String { "pattern '\(pattern)': \(reason)" }
    }

    public var description: String { text }

    /// Whether `path`, or a folder it is in, is left out by this pattern.
    public func matches(_ path: RelativePath) -> Bool {
        let components = path.components
        if !anchored, names.count == 1, case .pattern(let pieces) = names[0] {
            return components.contains { Self.match(pieces[...], Array($0.unicodeScalars)[...]) }
        }
        // A folder matched leaves out what is under it: any leading run of the path may match.
        return (1...max(1, components.count)).contains { Self.match(names[...], components.prefix($0)) }
    }

    private static func match(_ names: ArraySlice<Name>, _ components: ArraySlice<String>) -> Bool {
        guard let first = names.first else { return components.isEmpty }
        switch first {
        case .folders:
            return (0...components.count).contains { match(names.dropFirst(), components.dropFirst($0)) }
        case .pattern(let pieces):
            guard let component = components.first else { return false }
            return match(pieces[...], Array(component.unicodeScalars)[...]) && match(names.dropFirst(), components.dropFirst())
        }
    }

    /// A name against its pattern, by Unicode scalars (as the file system stores them).
    private static func match(_ pieces: ArraySlice<Piece>, _ name: ArraySlice<Unicode.Scalar>) -> Bool {
        // Iterative with one back-tracking point for "*", as shell globs are matched: linear in
        // practice, never exponential.
        var p = pieces.startIndex, n = name.startIndex
        var star: (piece: Int, name: Int)?
        while n < name.endIndex {
            if p < pieces.endIndex {
                switch pieces[p] {
                case .anyRun:
                    star = (p, n)
                    p += 1
                    continue
                case .any:
                    p += 1; n += 1
                    continue
                case .scalar(let scalar) where scalar == name[n]:
                    p += 1; n += 1
                    continue
                case .set(let ranges, let negated) where ranges.contains(where: { $0.contains(name[n]) }) != negated:
                    p += 1; n += 1
                    continue
                default: break
                }
            }
            guard let back = star else { return false }
            p = back.piece + 1
            n = back.name + 1
            star = (back.piece, back.name + 1)
        }
        while p < pieces.endIndex, pieces[p] == .anyRun { p += 1 }
        return p == pieces.endIndex
    }

    /// One name's pattern; nil, with the problem, when it is none.
    private static func pieces(_ part: String, problem: inout String) -> [Piece]? {
        var pieces: [Piece] = []
        let scalars = Array(part.unicodeScalars)
        var i = 0
        while i < scalars.count {
            switch scalars[i] {
            case "*":
                if pieces.last != .anyRun { pieces.append(.anyRun) }
            case "?":
                pieces.append(.any)
            case "\\" where i + 1 < scalars.count:
                i += 1
                pieces.append(.scalar(scalars[i]))
            case "[":
                var j = i + 1
                let negated = j < scalars.count && (scalars[j] == "!" || scalars[j] == "^")
                if negated { j += 1 }
                var ranges: [ClosedRange<Unicode.Scalar>] = []
                var first = true
                while j < scalars.count, scalars[j] != "]" || first {
                    first = false
                    let low = scalars[j]
                    if j + 2 < scalars.count, scalars[j + 1] == "-", scalars[j + 2] != "]" {
                        let high = scalars[j + 2]
                        guard low <= high else {
                            problem = "the range \(low)-\(high) in '[…]' runs backwards"
                            return nil
                        }
                        ranges.append(low...high)
                        j += 3
                    } else {
                        ranges.append(low...low)
                        j += 1
                    }
                }
                guard j < scalars.count else {
                    problem = "a '[' is never closed with ']'"
                    return nil
                }
                pieces.append(.set(ranges, negated: negated))
                i = j
            default:
                pieces.append(.scalar(scalars[i]))
            }
            i += 1
        }
        return pieces
    }
}

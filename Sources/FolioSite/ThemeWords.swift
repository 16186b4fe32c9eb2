import FolioCore

/// A theme's catalogues of phrases as their files hold them (`words/<tag>.txt`, a site's file over
/// the theme's of the same name), each read into a `Catalogue` only when a site speaks its language:
/// a build reads English and its own language, and a catalogue of another language that does not
/// read stops nothing.
public struct ThemeWords: Sendable {
    struct Source: Sendable {
        var tag: String
        var file: String
        var text: String
    }

    /// Each language's files by tag lowercased, the theme's first.
    private var sources: [String: [Source]] = [:]

    public init() {}

    mutating func add(tag: String, file: String, text: String) {
        sources[tag.lowercased(), default: []].append(Source(tag: tag, file: file, text: text))
    }

    /// The tags the theme has a catalogue for, lowercased.
    public var tags: Set<String> { Set(sources.keys) }

    /// The catalogue of `tag` (any case), each later file over the earlier; nil when there is none.
    /// A file that does not read is an error naming it and its line.
    public func catalogue(_ tag: String) throws -> Catalogue? {
        guard let files = sources[tag.lowercased()] else { return nil }
        var merged: Catalogue?
        for source in files {
            let read = try Catalogue.parse(source.text, tag: source.tag, file: source.file)
            merged = merged.map { $0.overridden(by: read) } ?? read
        }
        return merged
    }

    /// Every catalogue, by tag lowercased.
    public func all() throws -> [String: Catalogue] {
        var all: [String: Catalogue] = [:]
        for tag in sources.keys { all[tag] = try catalogue(tag) }
        return all
    }
}

import FolioCore
import Foundation

/// A description file as sigal has them: an album's `index.md`, a photo's `<photo stem>.md`
/// (`11.md` beside `11.jpg`). Meta lines come first, read as Python-Markdown's meta extension
/// (which sigal uses) reads them: an optional `---`, then `Key: value` lines, keys in any case, a
/// line indented four spaces going on with the value before it, up to a blank line, `---` or
/// `...`, or a line that is none of these; the rest is the body, in Markdown.
public struct SigalMarkdown: Sendable, Equatable {
    /// An album's description file, in its folder.
    public static let albumFileName = "index.md"

    /// Values by lower-cased key, in order (a key may be given more than once).
    public var meta: [String: [String]] = [:]
    public var body: RenderedMarkdown?
    /// What was left out of the file, in a warning's words: a body nested too deep to show.
    public var problem: String?

    /// sigal's `Title:`, its first value.
    public var title: String? { first("title") }
    /// sigal's `Thumbnail:` of an album: its cover, a file of the folder.
    public var thumbnail: String? { first("thumbnail") }

    public init(_ source: String) {
        // No control characters in what pages show; a byte-order mark is not text.
        var lines = CleanText.paragraph(source).replacingOccurrences(of: "\r\n", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = String(first.dropFirst()) }
        if let first = lines.first, Self.isFence(first, dots: false) { lines.removeFirst() }
        var key: String?
        while let line = lines.first {
            if line.trimmingCharacters(in: .whitespaces).isEmpty || Self.isFence(line, dots: true) {
                lines.removeFirst()
                break
            }
            if let (name, value) = Self.metaLine(line) {
                meta[name, default: []].append(value)
                key = name
            } else if let key, line.hasPrefix("    ") {
                meta[key, default: []].append(line.trimmingCharacters(in: .whitespaces))
            } else {
                break
            }
            lines.removeFirst()
        }
        do {
            body = try RenderedMarkdown(lines.joined(separator: "\n"))
        } catch {
            problem = "its Markdown nests more than \(ReadingLimits.nesting) deep; its text is left out"
        }
    }

    /// The description file at `url`, whose size the walk found (nil: not known), and what is
    /// wrong with it in a warning's words: nil when it cannot be read, is larger than Folio reads,
    /// or is not UTF-8.
    package static func read(_ url: URL, size: Int?, files: any FileAccess) -> (markdown: SigalMarkdown?, problem: String?) {
        func tooLarge(_ size: Int) -> String {
            "a description of \(size) bytes is larger than the \(ReadingLimits.megabytes(ReadingLimits.markdownBytes)) Folio reads; ignored"
        }
        if let size, size > ReadingLimits.markdownBytes { return (nil, tooLarge(size)) }
        let data: Data
        do {
            data = try files.read(url)
        } catch {
            return (nil, "cannot be read: \(error.localizedDescription); ignored")
        }
        guard data.count <= ReadingLimits.markdownBytes else { return (nil, tooLarge(data.count)) }
        guard let text = String(data: data, encoding: .utf8) else { return (nil, "is not UTF-8 text; ignored") }
        let markdown = SigalMarkdown(text)
        return (markdown, markdown.problem)
    }

    private func first(_ key: String) -> String? {
        meta[key]?.first.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `---` (and, closing the meta lines only, `...`), alone or followed by blanks and anything.
    private static func isFence(_ line: String, dots: Bool) -> Bool {
        for fence in dots ? ["---", "..."] : ["---"] where line.hasPrefix(fence) {
            let rest = line.dropFirst(3)
            if rest.isEmpty || rest.first!.isWhitespace { return true }
        }
        return false
    }

    /// `Key: value`: up to three spaces, then letters, digits, `_` or `-`, a colon.
    private static func metaLine(_ line: String) -> (String, String)? {
        let indent = line.prefix { $0 == " " }.count
        guard indent <= 3, let colon = line.firstIndex(of: ":") else { return nil }
        let name = line[line.index(line.startIndex, offsetBy: indent)..<colon]
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else { return nil }
        return (name.lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
}

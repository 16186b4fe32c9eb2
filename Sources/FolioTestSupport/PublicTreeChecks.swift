import FolioCore
import FolioImaging
import Foundation

/// Checks over a whole built `public/`: every local link and image (srcset candidates too)
/// resolves, every image has alt text and its size, no absolute or root-relative links (the site
/// must work from any sub-path), and every image the pages name decodes.
public struct PublicTreeChecks {
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    public var pages: [String] {
        let walker = FileManager.default.enumerator(atPath: root.path)
        var found: [String] = []
        while let path = walker?.nextObject() as? String {
            if path.hasSuffix(".html") { found.append(path) }
        }
        return found.sorted()
    }

    public func html(_ page: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
    }

    /// The first group of every match of `pattern`; a pattern that does not compile matches
    /// nothing, which fails the caller's assertions rather than the whole test run.
    public static func matches(_ pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// Whether `text` holds `part`, byte for byte. As Characters, a quote followed by a combining
    /// mark (an alt text that begins with one) is not a quote, and `contains` would miss it.
    public static func holds(_ text: String, _ part: String) -> Bool {
        let bytes = Array(text.utf8), needle = Array(part.utf8)
        guard !needle.isEmpty, bytes.count >= needle.count else { return needle.isEmpty }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// Problems found, one line each; empty when the tree is sound.
    public func problems() throws -> [String] {
        var problems: [String] = []
        var images = Set<URL>()
        for page in pages {
            let text = try html(page)
            let folder = RelativePath(page).folder
            let ids = Set(Self.matches(#"\sid="([^"]+)""#, in: text))
            let candidates = Self.matches(#"\ssrcset="([^"]*)""#, in: text).flatMap { srcset in
                srcset.split(separator: ",").compactMap { $0.split(separator: " ").first.map(String.init) }
            }
            for link in Self.matches(#"(?:href|src)="([^"]*)""#, in: text) + candidates {
                if link.hasPrefix("http://") || link.hasPrefix("https://") || link.hasPrefix("mailto:") { continue }
                if link.hasPrefix("/") { problems.append("\(page): root-relative link \(link)"); continue }
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                if parts[0].isEmpty {
                    if parts.count > 1, !ids.contains(parts[1]) { problems.append("\(page): no element with id \(parts[1])") }
                    continue
                }
                let target = URL(fileURLWithPath: root.appendingPathComponent(folder).path)
                    .appendingPathComponent(parts[0].removingPercentEncoding ?? parts[0]).standardizedFileURL
                if target.path.pathRelative(to: root.standardizedFileURL.path) == nil {
                    problems.append("\(page): link leaves the site: \(link)")
                } else if !FileManager.default.fileExists(atPath: target.path) {
                    problems.append("\(page): broken link \(link)")
                } else if ["jpg", "webp", "avif", "png"].contains(target.pathExtension) {
                    images.insert(target)
                }
            }
            for image in Self.matches(#"(<img\b[^>]*>)"#, in: text) {
                for attribute in ["alt", "width", "height"] where !Self.holds(image, " \(attribute)=\"") {
                    problems.append("\(page): <img> without \(attribute): \(image)")
                }
                if Self.holds(image, #"alt="""#) { problems.append("\(page): empty alt: \(image)") }
            }
        }
        let decoder = ImageProcessor()
        for image in images.sorted(by: { $0.path < $1.path }) {
            do {
                _ = try decoder.pixels(of: try Data(contentsOf: image))
            } catch {
                problems.append("\(image.path.dropFirst(root.path.count + 1)): does not decode: \(error)")
            }
        }
        return problems
    }
}

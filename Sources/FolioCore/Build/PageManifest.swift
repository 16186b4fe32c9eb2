import Foundation

/// What every page of the last build was made from and came out as, kept in
/// `public/.folio-pages`: a page whose values are as they were is not even rendered again, and
/// one that renders the same is left untouched (same file, same mtime) instead of written.
struct PageManifest {
    static let fileName = ".folio-pages"

    struct Entry: Equatable {
        /// ContentHash of the HTML.
        var checksum: String
        /// ContentHash of the page's values and of how they are drawn (theme and settings).
        var input: String
    }

    var entries: [String: Entry] = [:]

    static func read(from output: URL) -> PageManifest {
        var manifest = PageManifest()
        guard let text = try? String(contentsOf: output.appendingPathComponent(fileName), encoding: .utf8) else { return manifest }
        for line in text.split(separator: "\n") {
            // "checksum input path"; the path may hold spaces.
            let parts = line.split(separator: " ", maxSplits: 2)
            if parts.count == 3 { manifest.entries[String(parts[2])] = Entry(checksum: String(parts[0]), input: String(parts[1])) }
        }
        return manifest
    }

    func encoded() -> Data {
        Data(entries.sorted { $0.key < $1.key }.map { "\($0.value.checksum) \($0.value.input) \($0.key)\n" }.joined().utf8)
    }

    /// The input fingerprint of `page`, drawn as `drawing` says: its values, encoded with sorted
    /// keys (Swift's own Hasher is seeded anew in every process, so it cannot serve).
    static func input(of page: Page, drawing: String, encoder: JSONEncoder) throws -> String {
        var bytes = Data(drawing.utf8)
        bytes.append(try encoder.encode(page))
        return ContentHash.hex(bytes)
    }
}

import Foundation

/// What every page of the last build was made from and came out as, kept in the site's build
/// state (see BuildState): a page whose values are as they were is not even rendered again, and
/// one that renders the same is left untouched (same file, same mtime) instead of written.
///
/// It also keeps when each page's HTML last changed, which is what the sitemap's `lastmod`
/// says: not the build's time (a rebuild that changes nothing would claim every page changed)
/// and not the photos' dates (a page changes with its theme and its neighbours too).
struct PageManifest {
    /// Where an older Folio kept it: in `public/` itself.
    static let legacyFileName = ".folio-pages"

    struct Entry: Equatable {
        /// ContentHash of the HTML.
        var checksum: String
        /// ContentHash of the page's values and of how they are drawn (theme and settings).
        var input: String
        /// When the HTML last came out different; nil in a manifest an older Folio wrote.
        var changed: Date?
    }

    var entries: [String: Entry] = [:]

    static func decode(_ text: String) -> PageManifest {
        var manifest = PageManifest()
        for line in text.split(separator: "\n") {
            // "checksum input @seconds path", or an older Folio's "checksum input path"; the
            // path may hold spaces, and Folio's own paths never start with "@".
            let parts = line.split(separator: " ", maxSplits: 3)
            guard parts.count >= 3 else { continue }
            if parts.count == 4, parts[2].hasPrefix("@"), let seconds = Int64(parts[2].dropFirst()) {
                manifest.entries[String(parts[3])] = Entry(checksum: String(parts[0]), input: String(parts[1]),
                                                           changed: Date(timeIntervalSince1970: TimeInterval(seconds)))
            } else {
                let path = parts.dropFirst(2).joined(separator: " ")
                manifest.entries[path] = Entry(checksum: String(parts[0]), input: String(parts[1]), changed: nil)
            }
        }
        return manifest
    }

    func encoded() -> Data {
        Data(entries.sorted { $0.key < $1.key }.map { path, entry in
            let seconds = Int64((entry.changed ?? Date(timeIntervalSince1970: 0)).timeIntervalSince1970.rounded(.down))
            return "\(entry.checksum) \(entry.input) @\(seconds) \(path)\n"
        }.joined().utf8)
    }

    /// The input fingerprint of a page whose key (`SiteBuilder.key`) is `key`, drawn as
    /// `drawing` says.
    static func input(key: UInt64, drawing: String) -> String {
        ContentHash.hex("\(drawing)|\(String(key, radix: 16))")
    }
}

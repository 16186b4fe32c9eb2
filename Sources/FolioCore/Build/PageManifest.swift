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

    /// Numbers, written as sixteen hex digits: as text, each would be a string of its own on
    /// the heap, twice for each of a large library's hundred thousand pages.
    struct Entry: Equatable {
        /// ContentHash of the HTML (of the bytes, for a whole file).
        var checksum: UInt64
        /// ContentHash of the page's values and of how they are drawn (theme and settings);
        /// `wholeFile` for a file written whole.
        var input: UInt64
        /// When the HTML last came out different; nil in a manifest an older Folio wrote.
        var changed: Date?

        /// Whether it is a page: the sitemap lists pages, not the search index's files.
        var isPage: Bool { input != PageManifest.wholeFile }
    }

    /// The input of a file written whole (the search index's, the feed, the sitemap): kept so
    /// that one whose bytes are as last time is taken over rather than written again.
    static let wholeFile: UInt64 = 0

    var entries: [String: Entry] = [:]

    static func decode(_ text: String) -> PageManifest {
        var manifest = PageManifest()
        for line in text.split(separator: "\n") {
            // "checksum input @seconds path", or an older Folio's "checksum input path"; the
            // path may hold spaces, and Folio's own paths never start with "@".
            let parts = line.split(separator: " ", maxSplits: 3)
            guard parts.count >= 3 else { continue }
            if parts.count == 4, parts[2].hasPrefix("@"), let seconds = Int64(parts[2].dropFirst()) {
                manifest.entries[String(parts[3])] = Entry(checksum: number(parts[0]), input: number(parts[1]),
                                                           changed: Date(timeIntervalSince1970: TimeInterval(seconds)))
            } else {
                let path = parts.dropFirst(2).joined(separator: " ")
                manifest.entries[path] = Entry(checksum: number(parts[0]), input: number(parts[1]), changed: nil)
            }
        }
        return manifest
    }

    /// A hash as written; an older Folio's longer digests read as 1, which matches no
    /// hash this one makes in practice: such a page is drawn and compared again, once.
    private static func number(_ text: Substring) -> UInt64 {
        UInt64(text, radix: 16) ?? 1
    }

    func encoded() -> Data {
        Data(entries.sorted { $0.key < $1.key }.map { path, entry in
            let seconds = Int64((entry.changed ?? Date(timeIntervalSince1970: 0)).timeIntervalSince1970.rounded(.down))
            return "\(ContentHash.hexText(entry.checksum)) \(ContentHash.hexText(entry.input)) @\(seconds) \(path)\n"
        }.joined().utf8)
    }

    /// The input fingerprint of a page whose key (`SiteBuilder.key`) is `key`, drawn as
    /// `drawing` says.
    static func input(key: UInt64, drawing: String) -> UInt64 {
        var text = "\(drawing)|\(String(key, radix: 16))"
        let input = text.withUTF8 { ContentHash.hash(UnsafeRawBufferPointer($0)) }
        return input == wholeFile ? 2 : input
    }
}

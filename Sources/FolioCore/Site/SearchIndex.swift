import Foundation

/// The data the theme's script searches and lists the visitor's favorites and recents from,
/// as small script files under `search/data/` that a page loads only as it needs them.
///
/// Each file is one call, `folioData(kind, key, value)`, loaded with a `<script>` element: that
/// works from `file://`, where `fetch` of a local file does not. Photos are numbered newest
/// first (the site's order), so the lowest numbers are the newest.
///
/// - `meta.js`: how many photos, how they are cut into files, and which word files exist.
/// - `t-<key>.js`: every word starting with `key` (its first two characters) and the photos
///   that have it, each as `number * 2 + 1` when the word is in the title, else `number * 2`,
///   in increasing order and written as the difference from the one before (small numbers
///   for common words: "the" in 6,000 photos of 10,000 takes some 15 KB, not 35).
/// - `p-<k>.js`: photos `k * photosPerShard ..<` the next shard, each as
///   `[identifier, title, thumb, thumbWidth, thumbHeight, thumbSrcset, alt, person,
///   placeTitle, placeSubtitle, placeSlug]` (paths relative to the site root; null when absent).
/// - `i-<b>.js`: identifier → number for the identifiers in bucket `b` (`SearchText.bucket`):
///   favorites and recents keep identifiers, which survive rebuilds, and numbers do not.
public struct SearchIndex: Sendable {
    public struct File: Sendable, Equatable {
        public var path: String
        public var data: Data
    }

    public static let folder = "search/data/"
    public static let photosPerShard = 50
    /// Identifiers per bucket the bucket count aims at.
    static let identifiersPerBucket = 64

    public var files: [File]
    public var photoCount: Int
    public var wordCount: Int

    /// The identifier buckets for a site of `count` photos: a power of two, at most 256.
    public static func bucketCount(for count: Int) -> Int {
        var buckets = 1
        while buckets * identifiersPerBucket < count, buckets < 256 { buckets *= 2 }
        return buckets
    }
}

extension SiteBuilder {
    /// The search index of every photo, in the order of the site's lists.
    public func searchIndex() -> SearchIndex {
        var postings: [String: [Int]] = [:]
        var records: [String] = []
        records.reserveCapacity(ordered.count)
        for (number, item) in ordered.enumerated() {
            let photo = item.photo
            let title = PhotoText.title(photo)
            let titleWords = Set(SearchText.words(title))
            var words = titleWords
            for field in [photo.description, item.person.name, item.place?.name, item.region?.name] {
                if let field { words.formUnion(SearchText.words(field)) }
            }
            // A photo is found by the titles of its album and the albums above it.
            if let folder = AlbumTree.folder(of: photo) {
                for album in albumTree.lineage(folder) { words.formUnion(SearchText.words(album.title)) }
            }
            for tag in photo.tags { words.formUnion(SearchText.words(tag)) }
            for word in words {
                postings[word, default: []].append(number * 2 + (titleWords.contains(word) ? 1 : 0))
            }
            records.append(record(item, title: title))
        }

        var files: [SearchIndex.File] = []
        func add(_ name: String, _ kind: String, _ key: String, _ value: String) {
            let text = "folioData(\(JSONText.string(kind)),\(JSONText.string(key)),\(value));\n"
            files.append(SearchIndex.File(path: SearchIndex.folder + name, data: Data(text.utf8)))
        }

        let byKey = Dictionary(grouping: postings.keys, by: SearchText.shardKey)
        let keys = byKey.keys.sorted()
        for key in keys {
            let entries = byKey[key]!.sorted().map { word in
                var previous = 0
                let deltas = postings[word]!.map { value -> String in
                    defer { previous = value }
                    return String(value - previous)
                }
                return JSONText.string(word) + ":[" + deltas.joined(separator: ",") + "]"
            }
            add("t-\(SearchText.fileName(forKey: key)).js", "t", key, "{" + entries.joined(separator: ",") + "}")
        }

        let size = SearchIndex.photosPerShard
        for start in stride(from: 0, to: records.count, by: size) {
            let shard = start / size
            add("p-\(shard).js", "p", String(shard), "[" + records[start..<min(start + size, records.count)].joined(separator: ",\n") + "]")
        }

        let bucketCount = SearchIndex.bucketCount(for: ordered.count)
        var buckets = [[String]](repeating: [], count: bucketCount)
        for (number, item) in ordered.enumerated() {
            let identifier = item.photo.identifier
            buckets[SearchText.bucket(identifier, of: bucketCount)].append("\(JSONText.string(identifier)):\(number)")
        }
        for (bucket, entries) in buckets.enumerated() {
            add("i-\(bucket).js", "i", String(bucket), "{" + entries.joined(separator: ",") + "}")
        }

        let meta = "{\"version\":1,\"photos\":\(ordered.count),\"shard\":\(size),\"buckets\":\(bucketCount),"
            + "\"keys\":[" + keys.map(JSONText.string).joined(separator: ",") + "]}"
        add("meta.js", "meta", "", meta)
        return SearchIndex(files: files, photoCount: ordered.count, wordCount: postings.count)
    }

    /// What a search result, a visitor's favorite or a recent shows of a photo.
    func record(_ item: GalleryPhoto, title: String) -> String {
        let thumb = images[item.photo.id]?.thumb
        let srcset = thumb.flatMap { $0.candidates.count > 1 ? $0.candidates.map { "\($0.src) \($0.width)w" }.joined(separator: ", ") : nil }
        let fields: [String] = [
            JSONText.string(item.photo.identifier), JSONText.string(title),
            thumb.map { JSONText.string($0.src) } ?? "null", thumb.map { String($0.width) } ?? "0", thumb.map { String($0.height) } ?? "0",
            srcset.map(JSONText.string) ?? "null",
            JSONText.string(PhotoText.alt(item)), JSONText.string(item.person.name),
            item.place.map { JSONText.string($0.title) } ?? "null",
            item.place.map { JSONText.string($0.subtitle) } ?? "null",
            item.place.map { JSONText.string($0.slug) } ?? "null",
        ]
        return "[" + fields.joined(separator: ",") + "]"
    }
}

/// JSON text for the index's strings, written by hand so shards come out the same byte for byte.
enum JSONText {
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // Also escaped: the line separators, which older script parsers refuse in strings, and "<".
            case "\u{2028}", "\u{2029}", "<":
                out += String(format: "\\u%04x", scalar.value)
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

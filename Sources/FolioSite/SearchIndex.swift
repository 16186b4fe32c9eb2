import FolioCore
import FolioModel
import Foundation

/// The data the theme's script searches and lists the visitor's favorites and recents from,
/// as small script files under `search/data/` that a page loads only as it needs them.
///
/// Each file is one call, `folioData(kind, key, value)`, loaded with a `<script>` element: that
/// works from `file://`, where `fetch` of a local file does not. Photos are numbered by when
/// they were taken (`SearchNumbering`), so the highest numbers are the newest, and a photo keeps
/// its number while the photos near it in time stay.
///
/// - `meta.js`: how many photos, how they are cut into files, the names of a photo row's fields
///   (`fields`, from `SearchRecord.Field`), where a photo's and a place's pages are (`pages`:
///   `Route`'s paths with a field's name in braces, so the script spells no path) and the keys
///   of the word files (`keys`).
/// - `t-<key>.js`: the words starting with `key` and the photos that have them, each as
///   `number * 2 + 1` when the word is in the title, else `number * 2`, in increasing order and
///   written as the difference from the one before (small numbers for common words). A key is
///   a word's first two characters (code points), or its only one; a file that would pass
///   `wordFileBudget` is cut by one more character, and again, so at any size of library a
///   query loads only the files of the words it names (`SearchText.wordKeys` says which). A
///   word is in the file of the longest key it starts with.
/// - `p-<k>.js`: the photos numbered `k * slots ..<` the next shard (`SearchNumbering.slots`),
///   each a `SearchRecord` row, in the order of their numbers.
/// - `i-<b>.js`: identifier → number for the identifiers in bucket `b` (`SearchText.bucket`):
///   favorites and recents keep identifiers, which survive rebuilds, and numbers do not.
/// - `s-<kind>-<slug>.js`: a list's photos as numbers, in the list's order (`PhotoSequence`).
public struct SearchIndex: Sendable {
    public struct File: Sendable, Equatable {
        public var path: String
        public var data: Data
    }

    /// One photo as search sees it.
    struct Entry: Sendable {
        var words: Set<String>
        /// The words of its title (a subset of `words`): a match there ranks higher.
        var titleWords: Set<String>
        var id: String
        /// Nil for a photo of a shard that is not made again (`Making.remaking`).
        var record: SearchRecord?
    }

    public static let folder = "search/data/"
    /// The photos of a shard on average: few, because a page of results may come from as many
    /// files as it shows photos.
    public static let photosPerShard = 20
    /// Bytes past which a word file is cut by one more character of its words.
    static let wordFileBudget = 32 * 1024
    /// Identifiers per bucket the bucket count aims at.
    static let identifiersPerBucket = 64
    /// Photos per part of the postings (`SearchPostings.part(of:parts:)`) the part count aims
    /// at: a part is all a build holds of them at once.
    static let photosPerPart = 50_000

    /// How many parts the postings of `photos` photos are made in: one for a small site, and at
    /// most 64 (each part looks through every word, and through the word files' keys, once).
    package static func parts(photos: Int) -> Int {
        min(64, max(1, photos / photosPerPart))
    }

    /// Whether postings kept in `parts` parts are updated in those parts for `photos` photos. An
    /// update keeps the last build's parts, so a library that grew to call for twice as many
    /// (`parts(photos:)`) has its index made whole once, in as many as it calls for: else one
    /// imported a little at a time would hold all its words at once. One that shrank keeps them:
    /// a part of few photos costs no more, and a library that comes and goes across a count is
    /// not made whole each time.
    package static func updates(parts: Int, photos: Int) -> Bool {
        parts * 2 > Self.parts(photos: photos)
    }

    /// Up to how many photos an update puts back (`SearchMoves.put`): it holds every one's words
    /// at once, as text, where a whole index holds one part's, as numbers. Past this (every
    /// photo's file touched, the busiest person renamed) the whole index is made instead, so what
    /// an edit holds of the index is bounded whatever the library's size.
    static let mostPutBack = photosPerPart / 5

    /// Whether an update that puts back `put` photos is made, rather than the whole index.
    package static func updates(puttingBack put: Int) -> Bool {
        put <= mostPutBack
    }

    /// The files made, unless they were handed on as they were made (`Making.emit`).
    public var files: [File]
    /// Files not made again, the same as the last build's: the photo shards and identifier
    /// buckets of a site whose photos are in the same order, but for the shards of those whose
    /// rows changed.
    public var kept: [String] = []
    public var photoCount: Int
    public var wordCount: Int
    /// Its words and their photos, to keep in the build state (`KeptPostings`).
    package var postings: MadePostings?

    static func wordName(_ key: String) -> String { "t-\(SearchText.fileName(forKey: key)).js" }
    static func shardName(_ shard: Int) -> String { "p-\(shard).js" }
    static func bucketName(_ bucket: Int) -> String { "i-\(bucket).js" }
    static func wordFile(_ key: String) -> String { folder + wordName(key) }
    package static func shardFile(_ shard: Int) -> String { folder + shardName(shard) }
    package static func bucketFile(_ bucket: Int) -> String { folder + bucketName(bucket) }

    /// The identifier buckets for a site of `count` photos: a power of two, at most 16,384, each
    /// of about `identifiersPerBucket` identifiers, so a visitor's favorites load small files.
    public static func bucketCount(for count: Int) -> Int {
        var buckets = 1
        while buckets * identifiersPerBucket < count, buckets < 1 << 14 { buckets *= 2 }
        return buckets
    }

    /// The index of `entries` in the site's order, numbered by `numbering`, or as photos with
    /// nothing said of them (`SearchNumbering(count:)`).
    init(entries: [Entry], numbering: SearchNumbering? = nil) {
        let identifiers = entries.map(\.id)
        var making = Making(numbering: numbering ?? SearchNumbering(count: entries.count), identifiers: { identifiers[$0] })
        for entry in entries.reversed() { making.add(entry) }
        self = making.finishWhole(sequences: [])
    }

    init(files: [File], photoCount: Int, wordCount: Int) {
        self.files = files
        self.photoCount = photoCount
        self.wordCount = wordCount
    }

    /// The word files of the words under `key` (sorted, each starting with `key`): one when they
    /// fit `wordFileBudget`, else the word that is `key` itself and, for each next character, the
    /// cut of those under it. Each file's words are a run of `words`, not a copy, and each word's
    /// size (`sizes`, in the same order) is counted once: a group of many words ("photo-…" file
    /// names) is cut at character after character.
    static func cut(_ key: String, words: [String], sizes: [Int]) -> [(key: String, words: ArraySlice<String>)] {
        // The sizes of the words before each: the size of any run of them is a difference.
        var before = [Int]()
        before.reserveCapacity(words.count + 1)
        before.append(0)
        for size in sizes { before.append(before[before.count - 1] + size) }
        var files: [(key: String, words: ArraySlice<String>)] = []
        func cut(_ key: String, depth: Int, _ run: Range<Int>) {
            guard run.count > 1, before[run.upperBound] - before[run.lowerBound] > wordFileBudget else {
                files.append((key, words[run]))
                return
            }
            // The word that ends at `key` sorts before the longer ones.
            var start = run.lowerBound
            if words[start].unicodeScalars.count <= depth {
                files.append((key, words[start..<(start + 1)]))
                start += 1
            }
            // A key all of whose words go one way is cut again at once: no file for nothing.
            while start < run.upperBound {
                guard let next = words[start].unicodeScalars.dropFirst(depth).first else {
                    // Another word that ends at `key` (canonically the same as the first, by other characters).
                    files.append((key, words[start..<(start + 1)]))
                    start += 1
                    continue
                }
                var end = start + 1
                while end < run.upperBound, words[end].unicodeScalars.dropFirst(depth).first == next { end += 1 }
                var longer = key
                longer.unicodeScalars.append(next)
                cut(longer, depth: depth + 1, start..<end)
                start = end
            }
        }
        cut(key, depth: key.unicodeScalars.count, words.indices)
        return files
    }
}

/// What an update of the last build's search index takes out and puts back (`SiteBuilder.searchMoves`).
package struct SearchMoves: Sendable {
    /// The numbers the last build gave the photos that went, moved to another number, or may be
    /// found by other words or show other rows.
    var taken: Set<Int>
    /// The positions (in the site's order) of the photos that came, moved or may differ.
    var put: [Int]
    /// Whether any photo came, went or moved: the identifier buckets are made again.
    var renumbered: Bool

    /// How many photos are put back (`SearchIndex.updates(puttingBack:)`).
    package var putBack: Int { put.count }
}

extension SiteBuilder {
    /// The numbers the search index gives the photos (`SearchNumbering`).
    package func searchNumbering() -> SearchNumbering {
        let (ordered, identities) = (self.ordered, identities())
        return SearchNumbering(count: ordered.count, date: { Self.when(ordered[$0]) }, identity: { identities[$0] },
                               order: identities.withUnsafeBytes { ContentHash.hash($0) })
    }

    /// The search index of every photo, numbered by `numbering` (this site's). With `emit`, each
    /// file is handed to it as it is made, and the index holds none. With `folder`, the photos'
    /// words wait in a file there until every photo has come, not in memory, and so do the parts
    /// of its postings as they are finished. `parts`: how many parts the postings are made and
    /// kept in (`SearchPostings.part(of:parts:)`), by default as many as the photos call for.
    package func searchIndex(numbering: SearchNumbering? = nil, emit: ((SearchIndex.File) -> Void)? = nil,
                             spillingInto folder: String? = nil, parts: Int? = nil) -> SearchIndex {
        let ordered = self.ordered
        let numbering = numbering ?? searchNumbering()
        var making = SearchIndex.Making(numbering: numbering, identifiers: { ordered[$0].identifier }, emit: emit, spillingInto: folder,
                                        parts: parts ?? SearchIndex.parts(photos: ordered.count))
        var wording = SearchWording(builder: self)
        for position in ordered.indices.reversed() {
            let item = ordered[position]
            let words = wording.words(of: item)
            making.add(position: position, words: words.all, title: words.title, record: record(item, title: words.titleText))
        }
        return making.finishWhole(sequences: unlisted == nil ? sequences() : [])
    }

    /// What the last build's index (`postings`) must take out and put back to be this one's,
    /// when only the photos at `changed` may be found by other words or show other rows: those,
    /// the photos that came or went, and those `numbering` gives another number. Photos are
    /// paired with the last build's by position when they are in the same order, else by
    /// identity (`lastIdentities`, in the order the postings numbered them); nil when neither
    /// pairs them.
    package func searchMoves(since postings: KeptPostings, lastIdentities: [UInt64]?, changed: Set<Int>,
                             numbering: SearchNumbering) -> SearchMoves? {
        let last = postings.photoNumbers
        var moves = SearchMoves(taken: [], put: [], renumbered: false)
        if postings.order == numbering.order, last.count == numbering.count {
            var put = Set(changed.filter(ordered.indices.contains))
            for position in ordered.indices where last[position] != numbering.numbers[position] {
                put.insert(position)
                moves.renumbered = true
            }
            moves.put = put.sorted()
            moves.taken = Set(moves.put.map { Int(last[$0]) })
            return moves
        }
        guard let lastIdentities, lastIdentities.count == last.count,
              lastIdentities.withUnsafeBytes({ ContentHash.hash($0) }) == postings.order else { return nil }
        var was = [UInt64: Int32](minimumCapacity: last.count)
        for (identity, number) in zip(lastIdentities, last) { was[identity] = number }
        guard was.count == last.count else { return nil }
        moves.renumbered = true
        for position in ordered.indices {
            guard let number = was.removeValue(forKey: identity(at: position)) else {
                moves.put.append(position)
                continue
            }
            if Int(number) != numbering[position] || changed.contains(position) {
                moves.taken.insert(Int(number))
                moves.put.append(position)
            }
        }
        moves.taken.formUnion(was.values.lazy.map { Int($0) })
        return moves
    }

    /// The search index of these photos, made from the last build's (`last`, its postings) when
    /// only the photos at `changed` may be found by other words or show other rows, and the
    /// photos are in the same order as then: as `searchIndex(updating:…)` makes it.
    package func searchIndex(changing changed: Set<Int>, last postings: KeptPostings, numbering: SearchNumbering? = nil,
                             emit: ((SearchIndex.File) -> Void)? = nil) -> SearchIndex? {
        let numbering = numbering ?? searchNumbering()
        guard let moves = searchMoves(since: postings, lastIdentities: nil, changed: changed, numbering: numbering) else {
            preconditionFailure("the last build's postings are of \(postings.photoCount) photos in another order, not of these \(ordered.count)")
        }
        return searchIndex(updating: moves, last: postings, numbering: numbering, emit: emit)
    }

    /// The search index made from the last build's (`last`, its postings) by `moves`: the
    /// photos taken out of the postings and put back as they are now, a part of the postings at
    /// a time, and only the photo shards they were or are in, the word files of the words they
    /// had or have, and the identifier buckets when any photo came, went or moved, are made; the
    /// rest are the last build's files (`SearchIndex.kept`). Nil when a part of `last` cannot be
    /// read: the files made by then are some of this index's, and the rest are not made.
    package func searchIndex(updating moves: SearchMoves, last postings: KeptPostings, numbering: SearchNumbering,
                             emit: ((SearchIndex.File) -> Void)? = nil, spillingInto folder: String? = nil) -> SearchIndex? {
        var wording = SearchWording(builder: self)
        var photos: [(number: Int, words: [String], title: [String])] = []
        var titles: [Int: String] = [:]
        for position in moves.put {
            let words = wording.words(of: ordered[position])
            photos.append((numbering[position], words.all, words.title))
            titles[position] = words.titleText
        }
        // The shards the photos are in now, and those they were in, which others may still be in.
        let shards = Set(moves.put.map(numbering.shard(of:))).union(moves.taken.map(SearchNumbering.shard(ofNumber:)))
        let ordered = self.ordered
        var making = SearchIndex.Making(numbering: numbering, identifiers: { ordered[$0].identifier }, remaking: shards,
                                        makesBuckets: moves.renumbered, emit: emit, spillingInto: folder,
                                        updating: SearchIndex.Update(last: postings, taken: moves.taken, put: photos))
        for position in ordered.indices.reversed() {
            guard shards.contains(numbering.shard(of: position)) else {
                making.add(position: position, record: nil)
                continue
            }
            let item = ordered[position]
            making.add(position: position, record: record(item, title: titles[position] ?? PhotoText.title(item.photo, language)))
        }
        return making.finish(sequences: unlisted == nil ? sequences() : [])
    }

    /// What a search result, a visitor's favorite or a recent shows of a photo.
    func record(_ item: GalleryPhoto, title: String) -> SearchRecord {
        let photo = item.photo
        let thumb = images[photo]?.thumb.map { thumb in
            SearchRecord.Thumb(src: thumb.src, width: thumb.width, height: thumb.height,
                               srcset: thumb.candidates.count > 1 ? thumb.candidates.map { "\($0.src) \($0.width)w" }.joined(separator: ", ") : nil)
        }
        let marks = MediaMarks(photo, language: language)
        return SearchRecord(id: item.identifier, title: title, thumb: thumb, alt: PhotoText.alt(item, of: photo, language),
                            person: item.person.isUnknown ? nil : item.person.name,
                            placeTitle: item.place?.title, placeSubtitle: item.place?.subtitle, placeSlug: item.place?.slug,
                            pick: item.favorite, duration: marks.duration, live: marks.live)
    }
}

/// How search finds a photo: the words of its title, of its own text (`Photo.searchedText`: its
/// description, tags and lens), and of its person, place, region and albums. Names recur on
/// thousands of photos: each is cut into words once a build.
struct SearchWording {
    let builder: SiteBuilder
    private var known: [String: [String]] = [:]
    private var albumWords: [String: [String]] = [:]

    init(builder: SiteBuilder) {
        self.builder = builder
    }

    /// The photo's words and its title's, and its title.
    mutating func words(of item: GalleryPhoto) -> (all: [String], title: [String], titleText: String) {
        func shared(_ text: String) -> [String] {
            if let words = known[text] { return words }
            let words = SearchText.words(text)
            known[text] = words
            return words
        }
        let photo = item.photo
        let title = PhotoText.title(photo, builder.language)
        let titleWords = SearchText.words(title)
        var words = titleWords
        photo.searchedText(prose: { words += SearchText.words($0) },
                           named: { words += shared($0) })
        // No one named is found by the language's word for them, as the feed names them.
        let person = item.person.isUnknown ? builder.language.say(.personUnknown) : item.person.name
        for field in [person, item.place?.name, item.region?.name] {
            if let field { words += shared(field) }
        }
        // A photo is found by the titles of its albums and the albums above them: a folder's words
        // gathered once for all its photos.
        for folder in builder.albumTree.albums(of: item) {
            if let found = albumWords[folder] {
                words += found
            } else {
                let found = builder.albumTree.lineage(folder).flatMap { shared($0.title) }
                albumWords[folder] = found
                words += found
            }
        }
        return (words, titleWords, title)
    }
}

extension SearchIndex {
    /// A photo's page and its place's as `Route` spells them, a row's field named in braces.
    static var pages: String {
        let photo = Route.photo(identifier: "{\(SearchRecord.Field.id.rawValue)}").path
        let place = Route.place(slug: "{\(SearchRecord.Field.placeSlug.rawValue)}").path
        return "{\"photo\":\(JSONText.string(photo)),\"place\":\(JSONText.string(place))}"
    }
}

/// JSON text for the index's strings, written by hand so shards come out the same byte for byte.
package enum JSONText {
    /// Appends `value` in decimal digits, as `String(value)` writes it, without making the string:
    /// the index writes millions of numbers.
    package static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        appendList(CollectionOfOne(value), to: &bytes)
    }

    /// Appends `numbers` in decimal digits, a comma between each, through a buffer on the stack
    /// appended a few kilobytes at a time, not a byte at a time with the array's own checks: the
    /// word files of common words, and every list, are long runs of numbers.
    static func appendList<Numbers: Sequence<Int>, Bytes: RangeReplaceableCollection<UInt8>>(_ numbers: Numbers, to bytes: inout Bytes) {
        let capacity = 4096
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var (used, first) = (0, true)
            for number in numbers {
                // Room for a comma, a sign and Int.min's nineteen digits.
                if used > capacity - 21 {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<used]))
                    used = 0
                }
                if !first {
                    buffer[used] = UInt8(ascii: ",")
                    used += 1
                }
                first = false
                if number < 0 {
                    buffer[used] = UInt8(ascii: "-")
                    used += 1
                }
                var (rest, digits) = (number.magnitude, 1)
                var probe = rest
                while probe >= 10 {
                    probe /= 10
                    digits += 1
                }
                used += digits
                var at = used
                repeat {
                    at -= 1
                    buffer[at] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                } while rest > 0
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<used]))
        }
    }

    static func string(_ text: String) -> String {
        // Most text holds nothing to escape (no control character, quote, backslash or "<", and
        // no byte that may start a line separator): written whole, not a scalar at a time.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x3C || $0 == 0xE2 }) {
            return "\"" + text + "\""
        }
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

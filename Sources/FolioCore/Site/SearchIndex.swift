import Foundation

/// The data the theme's script searches and lists the visitor's favorites and recents from,
/// as small script files under `search/data/` that a page loads only as it needs them.
///
/// Each file is one call, `folioData(kind, key, value)`, loaded with a `<script>` element: that
/// works from `file://`, where `fetch` of a local file does not. Photos are numbered newest
/// first (the site's order), so the lowest numbers are the newest.
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
/// - `p-<k>.js`: photos `k * photosPerShard ..<` the next shard, each a `SearchRecord` row.
/// - `i-<b>.js`: identifier → number for the identifiers in bucket `b` (`SearchText.bucket`):
///   favorites and recents keep identifiers, which survive rebuilds, and numbers do not.
/// - `s-<kind>-<slug>.js`: a list's photos as numbers, in the list's order (`PhotoSequence`).
public struct SearchIndex: Sendable {
    public struct File: Sendable, Equatable {
        public var path: String
        public var data: Data
    }

    /// One photo as search sees it, in the site's order.
    struct Entry: Sendable {
        var words: Set<String>
        /// The words of its title (a subset of `words`): a match there ranks higher.
        var titleWords: Set<String>
        var id: String
        /// Nil for a photo of a shard that is not made again (`Making.remaking`).
        var record: SearchRecord?
    }

    public static let folder = "search/data/"
    /// Small, because a page of results may come from as many files as it shows photos.
    public static let photosPerShard = 20
    /// Bytes past which a word file is cut by one more character of its words.
    static let wordFileBudget = 32 * 1024
    /// Identifiers per bucket the bucket count aims at.
    static let identifiersPerBucket = 64

    /// The files made, unless they were handed on as they were made (`Making.emit`).
    public var files: [File]
    /// Files not made again, the same as the last build's: the photo shards and identifier
    /// buckets of a site whose photos are in the same order, but for the shards of those whose
    /// rows changed.
    public var kept: [String] = []
    public var photoCount: Int
    public var wordCount: Int
    /// Its words and their photos, for the build state (`SearchPostings`).
    var postings: SearchPostings?

    static func wordName(_ key: String) -> String { "t-\(SearchText.fileName(forKey: key)).js" }
    static func shardName(_ shard: Int) -> String { "p-\(shard).js" }
    static func bucketName(_ bucket: Int) -> String { "i-\(bucket).js" }
    static func wordFile(_ key: String) -> String { folder + wordName(key) }
    static func shardFile(_ shard: Int) -> String { folder + shardName(shard) }
    static func bucketFile(_ bucket: Int) -> String { folder + bucketName(bucket) }

    /// The identifier buckets for a site of `count` photos: a power of two, at most 16,384, so a
    /// visitor's 50 favorites load 50 files of a kilobyte or two at 100,000 photos, not of ten.
    public static func bucketCount(for count: Int) -> Int {
        var buckets = 1
        while buckets * identifiersPerBucket < count, buckets < 1 << 14 { buckets *= 2 }
        return buckets
    }

    init(entries: [Entry], sequences: [(sequence: PhotoSequence, numbers: [Int])] = []) {
        let identifiers = entries.map(\.id)
        var making = Making(count: entries.count, identifiers: { identifiers[$0] })
        for entry in entries { making.add(entry) }
        self = making.finish(sequences: sequences)
    }

    /// The index made one photo at a time, in the site's order: each photo's words go into the
    /// postings and its row into its shard as it comes, so a large library's entries (two sets
    /// of words and a record for each photo) are never all held at once. Words are numbered as
    /// they are first met (`SearchPostings.number(of:)`), and a photo's words come as those
    /// numbers: a name that recurs on thousands of photos is hashed once, not once for each of them.
    struct Making {
        let count: Int
        /// The photo shards to make, when the rest, and every identifier bucket, are as the last
        /// build made them; nil to make all.
        let remaking: Set<Int>?
        /// Where each file goes as it is made; nil to hold them all in the index made.
        let emit: ((File) -> Void)?
        /// The word files to make, by the shard keys of their words, when the postings were the
        /// last build's, updated (`SearchPostings.replace`): the rest are its files; nil for all.
        private let wordGroups: Set<String>?
        /// The words whose photos changed, in an update: a file of the groups above that holds
        /// none of them is the last build's too.
        private let touched: Set<Int>?
        private var kept: [String] = []
        private var number = 0
        var postings: SearchPostings
        private var files: [File] = []
        private var rows: [String] = []
        private let bucketCount: Int
        /// Each photo's identifier bucket, by its number, when every bucket is made: each
        /// bucket's text is made at the end, from `identifiers`. Made as the photos came, a
        /// million photos' entries (`"id":number`) were 60 MB at the peak of a build.
        private var buckets: [UInt16] = []
        /// The identifier of the photo of each number.
        private let identifiers: (Int) -> String

        /// `folder`: where the postings' words, as photos come, wait to be put in order (`SearchPostings`).
        init(count: Int, identifiers: @escaping (Int) -> String, remaking: Set<Int>? = nil, emit: ((File) -> Void)? = nil,
             spillingInto folder: String? = nil) {
            self.init(count: count, identifiers: identifiers, remaking: remaking, emit: emit,
                      postings: SearchPostings(photoCount: count, spillingInto: folder.map { PackedStore(spillingInto: $0) }),
                      touched: nil)
        }

        /// The index of photos whose words are all in `postings` already (an update): they come
        /// as rows alone (`add(id:record:)`), and only the word files of the `touched` words are made.
        init(count: Int, identifiers: @escaping (Int) -> String, remaking: Set<Int>, emit: ((File) -> Void)?,
             updated postings: consuming SearchPostings, touched: Set<Int>) {
            self.init(count: count, identifiers: identifiers, remaking: remaking, emit: emit, postings: postings, touched: touched)
        }

        private init(count: Int, identifiers: @escaping (Int) -> String, remaking: Set<Int>?, emit: ((File) -> Void)?,
                     postings: SearchPostings, touched: Set<Int>?) {
            self.count = count
            self.identifiers = identifiers
            self.remaking = remaking
            self.emit = emit
            self.wordGroups = touched.map(postings.groups(of:))
            self.touched = touched
            self.postings = postings
            bucketCount = SearchIndex.bucketCount(for: count)
            if remaking == nil { buckets.reserveCapacity(count) }
            rows.reserveCapacity(SearchIndex.photosPerShard)
        }

        private mutating func add(_ name: String, _ kind: String, _ key: String, _ value: String) {
            add(name, kind, key, bytes: Array(value.utf8))
        }

        /// The file `name`: one call, `folioData(kind, key, value)`.
        private mutating func add(_ name: String, _ kind: String, _ key: String, bytes value: [UInt8]) {
            var data = Data("folioData(\(JSONText.string(kind)),\(JSONText.string(key)),".utf8)
            data.append(contentsOf: value)
            data.append(contentsOf: ");\n".utf8)
            let file = File(path: SearchIndex.folder + name, data: data)
            if let emit { emit(file) } else { files.append(file) }
        }

        /// The next photo; photos must come `count` of them, in the site's order.
        mutating func add(_ entry: Entry) {
            let title = entry.titleWords.map { postings.number(of: $0) }
            add(words: entry.words.map { postings.number(of: $0) }, title: title, id: entry.id, record: entry.record)
        }

        /// The next photo, its words as their numbers (`SearchPostings.number(of:)`), in any
        /// order, any number of times; `title` those of them its title holds.
        mutating func add(words: [Int], title: [Int], id: String, record: SearchRecord?) {
            postings.add(photo: number, words: words, title: title)
            add(id: id, record: record)
        }

        /// The next photo's row and identifier alone: its words are in the postings already,
        /// or are being put in (`add(words:…)`).
        mutating func add(id: String, record: SearchRecord?) {
            let shard = number / SearchIndex.photosPerShard
            if remaking?.contains(shard) ?? true {
                guard let record else { preconditionFailure("photo \(number) of shard \(shard), made again, has no row") }
                rows.append(record.row)
            } else if number % SearchIndex.photosPerShard == 0 {
                kept.append(SearchIndex.shardFile(shard))
            }
            if remaking == nil { buckets.append(UInt16(SearchText.bucket(id, of: bucketCount))) }
            number += 1
            if number % SearchIndex.photosPerShard == 0 { flushShard() }
        }

        private mutating func flushShard() {
            guard !rows.isEmpty else { return }
            let shard = (number - 1) / SearchIndex.photosPerShard
            add(SearchIndex.shardName(shard), "p", String(shard), "[" + rows.joined(separator: ",\n") + "]")
            rows.removeAll(keepingCapacity: true)
        }

        /// Each identifier bucket's file, `{"id":number,…}`, its photos in the site's order.
        private mutating func addBuckets() {
            // The photos' numbers by bucket, each bucket's in order: where each bucket's start,
            // then each number put in its bucket's next place.
            var next = [Int](repeating: 0, count: bucketCount + 1)
            for bucket in buckets { next[Int(bucket) + 1] += 1 }
            for bucket in 0..<bucketCount { next[bucket + 1] += next[bucket] }
            let starts = next
            var numbers = [Int32](repeating: 0, count: buckets.count)
            for (number, bucket) in buckets.enumerated() {
                numbers[next[Int(bucket)]] = Int32(number)
                next[Int(bucket)] += 1
            }
            buckets = []
            for bucket in 0..<bucketCount {
                var value: [UInt8] = [UInt8(ascii: "{")]
                for at in starts[bucket]..<starts[bucket + 1] {
                    if at > starts[bucket] { value.append(UInt8(ascii: ",")) }
                    value.append(contentsOf: JSONText.string(identifiers(Int(numbers[at]))).utf8)
                    value.append(UInt8(ascii: ":"))
                    JSONText.appendDecimal(Int(numbers[at]), to: &value)
                }
                value.append(UInt8(ascii: "}"))
                add(SearchIndex.bucketName(bucket), "i", String(bucket), bytes: value)
            }
        }

        mutating func finish(sequences: [(sequence: PhotoSequence, numbers: [Int])]) -> SearchIndex {
            precondition(number == count, "the search index was promised \(count) photos and given \(number)")
            flushShard()
            // Word files first, as the index always wrote them; then the shards made so far. Each
            // added as it is made (the postings taken out of `self` meanwhile, not copied).
            let shards = files
            files = []
            var words = postings
            postings = SearchPostings(photoCount: 0)
            let unchanged = words.wordFiles(under: wordGroups, touched: touched) { key, value in
                add(SearchIndex.wordName(key), "t", key, bytes: value)
            }
            postings = words
            if let wordGroups {
                kept += postings.keys.filter { !wordGroups.contains(SearchText.shardKey($0)) }.map(SearchIndex.wordFile)
                kept += unchanged.map(SearchIndex.wordFile)
            }
            files += shards
            if remaking == nil {
                addBuckets()
            } else {
                kept += (0..<bucketCount).map(SearchIndex.bucketFile)
            }
            for (sequence, numbers) in sequences {
                var value: [UInt8] = [UInt8(ascii: "[")]
                value.reserveCapacity(numbers.count * 7 + 2)
                for (at, number) in numbers.enumerated() {
                    if at > 0 { value.append(UInt8(ascii: ",")) }
                    JSONText.appendDecimal(number, to: &value)
                }
                value.append(UInt8(ascii: "]"))
                add(String(sequence.file.dropFirst(SearchIndex.folder.count)), "s", sequence.key, bytes: value)
            }
            let meta = "{\"version\":2,\"photos\":\(count),\"shard\":\(SearchIndex.photosPerShard),\"buckets\":\(bucketCount),"
                + "\"fields\":" + SearchRecord.schema + ","
                + "\"pages\":" + SearchIndex.pages + ","
                + "\"keys\":[" + postings.keys.map { JSONText.string($0) }.joined(separator: ",") + "]}"
            add("meta.js", "meta", "", meta)
            var index = SearchIndex(files: files, photoCount: count, wordCount: postings.wordCount)
            index.kept = kept
            index.postings = postings
            return index
        }
    }

    init(files: [File], photoCount: Int, wordCount: Int) {
        self.files = files
        self.photoCount = photoCount
        self.wordCount = wordCount
    }

    /// The word files of the words under `key` (sorted, each starting with `key`): one when they
    /// fit `wordFileBudget`, else the word that is `key` itself and, for each next character, the
    /// cut of those under it. Each file's words are a run of `words`, not a copy: a group of a
    /// million words ("photo-…" file names) was copied at every character of their cut (a hundred
    /// megabytes at once), and each word's size counted again at each.
    static func cut(_ key: String, words: [String], size: (String) -> Int) -> [(key: String, words: ArraySlice<String>)] {
        // The sizes of the words before each: the size of any run of them is a difference.
        var before = [Int]()
        before.reserveCapacity(words.count + 1)
        before.append(0)
        for word in words { before.append(before[before.count - 1] + size(word)) }
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

extension SiteBuilder {
    /// The search index of every photo, in the order of the site's lists. With `remaking`, only
    /// those photo shards are made, and no identifier bucket: the rest are the last build's
    /// (`SearchIndex.kept`), for a site whose photos are in the same order. With `emit`, each
    /// file is handed to it as it is made, and the index holds none. With `folder`, the photos'
    /// words wait in a file there until every photo has come (a million photos' were 90 MB).
    func searchIndex(remaking: Set<Int>? = nil, emit: ((SearchIndex.File) -> Void)? = nil, spillingInto folder: String? = nil) -> SearchIndex {
        let ordered = self.ordered
        var making = SearchIndex.Making(count: ordered.count, identifiers: { ordered[$0].identifier }, remaking: remaking, emit: emit,
                                        spillingInto: folder)
        var wording = SearchWording(builder: self)
        for (position, item) in ordered.enumerated() {
            let words = wording.words(of: item, into: &making.postings)
            let made = remaking?.contains(position / SearchIndex.photosPerShard) ?? true
            making.add(words: words.all, title: words.title, id: item.identifier,
                       record: made ? record(item, title: words.titleText) : nil)
        }
        return making.finish(sequences: unlisted == nil ? sequences() : [])
    }

    /// The search index of these photos, made from the last build's (`last`, its postings) when
    /// the photos are in the same order and only those at `changed` may be found by other words
    /// or show other rows: their words are taken out of the postings and put back as they are now,
    /// and only their photo shards, and the word files of the words they had or have, are made;
    /// the rest are the last build's files (`SearchIndex.kept`).
    func searchIndex(changing changed: Set<Int>, last postings: consuming SearchPostings, emit: ((SearchIndex.File) -> Void)? = nil) -> SearchIndex {
        precondition(postings.photoCount == ordered.count, "the last build's postings are of \(postings.photoCount) photos, not \(ordered.count)")
        var wording = SearchWording(builder: self)
        var photos: [(position: Int, words: [Int], title: [Int])] = []
        var titles: [Int: String] = [:]
        for position in changed.sorted() where ordered.indices.contains(position) {
            let words = wording.words(of: ordered[position], into: &postings)
            photos.append((position, words.all, words.title))
            titles[position] = words.titleText
        }
        let touched = postings.replace(changed, with: photos)
        let shards = Set(changed.map { $0 / SearchIndex.photosPerShard })
        let ordered = self.ordered
        var making = SearchIndex.Making(count: ordered.count, identifiers: { ordered[$0].identifier }, remaking: shards, emit: emit,
                                        updated: consume postings, touched: touched)
        for position in ordered.indices {
            guard shards.contains(position / SearchIndex.photosPerShard) else {
                making.add(id: "", record: nil)
                continue
            }
            let item = ordered[position]
            making.add(id: item.identifier, record: record(item, title: titles[position] ?? PhotoText.title(item.photo)))
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
        return SearchRecord(id: item.identifier, title: title, thumb: thumb, alt: PhotoText.alt(item, of: photo),
                            person: item.person.isUnknown ? nil : item.person.name,
                            placeTitle: item.place?.title, placeSubtitle: item.place?.subtitle, placeSlug: item.place?.slug,
                            pick: item.favorite, duration: photo.motion?.kind == .video ? photo.motion?.durationText : nil,
                            live: photo.motion?.kind == .live)
    }
}

/// How search finds a photo: the words of its title, description, person, place, region, albums
/// and tags, numbered in the postings being made. Names of people, places, regions, albums and tags
/// recur on thousands of photos: each is cut into words, and its words numbered, once a build.
struct SearchWording {
    let builder: SiteBuilder
    private var known: [String: [Int]] = [:]
    private var albumWords: [String: [Int]] = [:]

    init(builder: SiteBuilder) {
        self.builder = builder
    }

    /// The photo's words and its title's (numbers in `postings`), and its title.
    mutating func words(of item: GalleryPhoto, into postings: inout SearchPostings) -> (all: [Int], title: [Int], titleText: String) {
        func shared(_ text: String) -> [Int] {
            if let words = known[text] { return words }
            let words = SearchText.words(text).map { postings.number(of: $0) }
            known[text] = words
            return words
        }
        let photo = item.photo
        let title = PhotoText.title(photo)
        let titleWords = SearchText.words(title).map { postings.number(of: $0) }
        var words = titleWords
        if let description = photo.description { words += SearchText.words(description).map { postings.number(of: $0) } }
        for field in [item.person.name, item.place?.name, item.region?.name] {
            if let field { words += shared(field) }
        }
        // A photo is found by the titles of its album and the albums above it: a folder's words
        // gathered once for all its photos.
        if let folder = AlbumTree.folder(of: photo) {
            if let found = albumWords[folder] {
                words += found
            } else {
                let found = builder.albumTree.lineage(folder).flatMap { shared($0.title) }
                albumWords[folder] = found
                words += found
            }
        }
        for tag in photo.tags { words += shared(tag) }
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
enum JSONText {
    /// Appends `value` in decimal digits, as `String(value)` writes it, without making the string:
    /// the index writes millions of numbers at 100,000 photos.
    static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let start = bytes.count
        var rest = value.magnitude
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
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

import FolioCore
import Foundation

extension SearchIndex {
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
        /// bucket's text is made at the end, from `identifiers`, not held as the photos come.
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
                JSONText.appendList(numbers, to: &value)
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
}

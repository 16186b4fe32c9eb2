import FolioCore
import Foundation

extension SearchIndex {
    /// The index made one photo at a time, in the order of their numbers (`SearchNumbering`, the
    /// oldest first): each photo's words go into the spool (`PostingsSpool`) and its row into its
    /// shard as it comes, so a large library's entries (two sets of words and a record for each
    /// photo) are never all held at once, nor all its words: they are numbered a part at a time
    /// once every photo is in.
    struct Making {
        let numbering: SearchNumbering
        /// The photo shards (their keys, `SearchNumbering.shard(of:)`) to make, when the rest are
        /// as the last build made them; nil to make all.
        let remaking: Set<Int>?
        /// Whether the identifier buckets are made (else they are the last build's).
        let makesBuckets: Bool
        /// Where each file goes as it is made; nil to hold them all in the index made.
        let emit: ((File) -> Void)?
        /// The last build's postings and what changes in them, in an update (the photos' words
        /// are not added, `add(position:record:)`); nil for a whole index.
        private var update: Update?
        /// How many parts the postings are made in (an update's: as many as the last build's).
        private let parts: Int
        /// Where the postings' parts wait, once made, to be kept (`MadePostings`).
        private let folder: String?
        private var kept: [String] = []
        /// The position of the photo to come next: the last in the site's order (the oldest,
        /// the lowest number) first.
        private var next: Int
        /// A whole index's words, as its photos come; nil in an update, whose photos come as rows
        /// alone (`add(position:record:)`).
        private var spool: PostingsSpool?
        private var files: [File] = []
        /// The rows of the shard being made (`shard`), in the order of their numbers.
        private var rows: [String] = []
        private var shard: Int?
        private let bucketCount: Int
        /// The identifier of the photo at each position.
        private let identifiers: (Int) -> String

        /// Every file, the postings in `parts` parts. `folder`: where the postings' words, as
        /// photos come, wait to be put in order (`SearchPostings`), and their parts once made.
        init(numbering: SearchNumbering, identifiers: @escaping (Int) -> String, emit: ((File) -> Void)? = nil,
             spillingInto folder: String? = nil, parts: Int = 1) {
            let store = folder.map { PackedStore(spillingInto: $0, at: PackedStore.spoolSpillSize) }
            self.init(numbering: numbering, identifiers: identifiers, remaking: nil, makesBuckets: true, emit: emit,
                      spool: PostingsSpool(spillingInto: store, parts: parts), update: nil, parts: parts, folder: folder)
        }

        /// The index of photos whose words are in the last build's postings, or in `update.put`:
        /// they come as rows alone (`add(position:record:)`), and only the word files of the
        /// words whose photos changed are made, and the identifier buckets when `makesBuckets`.
        init(numbering: SearchNumbering, identifiers: @escaping (Int) -> String, remaking: Set<Int>, makesBuckets: Bool,
             emit: ((File) -> Void)?, spillingInto folder: String?, updating update: Update) {
            self.init(numbering: numbering, identifiers: identifiers, remaking: remaking, makesBuckets: makesBuckets, emit: emit,
                      spool: nil, update: update, parts: update.last.parts, folder: folder)
        }

        private init(numbering: SearchNumbering, identifiers: @escaping (Int) -> String, remaking: Set<Int>?, makesBuckets: Bool,
                     emit: ((File) -> Void)?, spool: PostingsSpool?, update: Update?, parts: Int, folder: String?) {
            self.numbering = numbering
            self.identifiers = identifiers
            self.remaking = remaking
            self.makesBuckets = makesBuckets
            self.emit = emit
            self.update = update
            self.parts = parts
            self.folder = folder
            self.spool = spool
            next = numbering.count - 1
            bucketCount = SearchIndex.bucketCount(for: numbering.count)
            rows.reserveCapacity(SearchNumbering.slots)
        }

        private mutating func add(_ name: String, _ kind: String, _ key: String, _ value: String) {
            add(name, kind, key, bytes: Array(value.utf8))
        }

        /// The file `name`: one call, `folioData(kind, key, value)`.
        private mutating func add(_ name: String, _ kind: String, _ key: String, bytes value: [UInt8]) {
            add(name, kind, key, capacity: value.count) { $0.append(contentsOf: value) }
        }

        /// The same, the value written straight into the file by `write`, with room for
        /// `capacity` bytes of it: a long list is not made a second time beside the file.
        private mutating func add(_ name: String, _ kind: String, _ key: String, capacity: Int, writing write: (inout Data) -> Void) {
            var data = Data("folioData(\(JSONText.string(kind)),\(JSONText.string(key)),".utf8)
            data.reserveCapacity(data.count + capacity + 3)
            write(&data)
            data.append(contentsOf: ");\n".utf8)
            let file = File(path: SearchIndex.folder + name, data: data)
            if let emit { emit(file) } else { files.append(file) }
        }

        /// The next photo: photos come from the last in the site's order to the first, each once.
        mutating func add(_ entry: Entry) {
            add(position: next, words: Array(entry.words), title: Array(entry.titleWords), record: entry.record)
        }

        /// The photo at `position`, its words in any order, any number of times; `title` those of
        /// them its title holds.
        mutating func add(position: Int, words: [String], title: [String], record: SearchRecord?) {
            precondition(spool != nil, "an update's photo came with its words")
            spool?.add(photo: numbering[position], words: words, title: title)
            add(position: position, record: record)
        }

        /// The row of the photo at `position` alone: its words are in the postings already, or
        /// are being put in (`add(position:words:…)`). Photos come from the last position to the
        /// first, each once: in the order of their numbers.
        mutating func add(position: Int, record: SearchRecord?) {
            precondition(position == next, "photo \(position) of the search index came when \(next) was to")
            next -= 1
            let shard = numbering.shard(of: position)
            if shard != self.shard {
                flushShard()
                self.shard = shard
                if remaking?.contains(shard) == false { kept.append(SearchIndex.shardFile(shard)) }
            }
            if remaking?.contains(shard) ?? true {
                guard let record else { preconditionFailure("photo \(position) of shard \(shard), made again, has no row") }
                rows.append(record.row)
            }
        }

        private mutating func flushShard() {
            guard let shard, !rows.isEmpty else { return }
            add(SearchIndex.shardName(shard), "p", String(shard), "[" + rows.joined(separator: ",\n") + "]")
            rows.removeAll(keepingCapacity: true)
        }

        /// Each identifier bucket's file, `{"id":number,…}`, its photos in the order of their numbers.
        private mutating func addBuckets() {
            let count = numbering.count
            let buckets = (0..<count).map { UInt16(SearchText.bucket(identifiers($0), of: bucketCount)) }
            // The photos' positions by bucket, each bucket's by number: where each bucket's start,
            // then each position put in its bucket's next place.
            var next = [Int](repeating: 0, count: bucketCount + 1)
            for bucket in buckets { next[Int(bucket) + 1] += 1 }
            for bucket in 0..<bucketCount { next[bucket + 1] += next[bucket] }
            let starts = next
            var positions = [Int32](repeating: 0, count: count)
            for position in stride(from: count - 1, through: 0, by: -1) {
                let bucket = Int(buckets[position])
                positions[next[bucket]] = Int32(position)
                next[bucket] += 1
            }
            for bucket in 0..<bucketCount {
                var value: [UInt8] = [UInt8(ascii: "{")]
                for at in starts[bucket]..<starts[bucket + 1] {
                    if at > starts[bucket] { value.append(UInt8(ascii: ",")) }
                    let position = Int(positions[at])
                    value.append(contentsOf: JSONText.string(identifiers(position)).utf8)
                    value.append(UInt8(ascii: ":"))
                    JSONText.appendDecimal(numbering[position], to: &value)
                }
                value.append(UInt8(ascii: "}"))
                add(SearchIndex.bucketName(bucket), "i", String(bucket), bytes: value)
            }
        }

        /// The whole index (`init(numbering:identifiers:emit:spillingInto:parts:)`), with the
        /// lists of `sequences`.
        mutating func finishWhole(sequences: [(sequence: PhotoSequence, positions: PositionList)]) -> SearchIndex {
            guard update == nil, let index = finish(sequences: sequences) else {
                preconditionFailure("a whole index is made from the photos alone")
            }
            return index
        }

        /// The index, with the lists of `sequences` (each its photos' positions, in the list's
        /// order); nil when a part of the last build's postings, in an update, cannot be read.
        mutating func finish(sequences: [(sequence: PhotoSequence, positions: PositionList)]) -> SearchIndex? {
            precondition(next == -1, "the search index was given \(numbering.count - 1 - next) of \(numbering.count) photos")
            flushShard()
            // Word files first, as the index always wrote them, a part of the postings at a time;
            // then the shards made so far.
            let shards = files
            files = []
            var made = MadePostings(numbering: numbering, parts: parts, spillingInto: folder)
            if var update {
                self.update = nil
                guard addWordFiles(updating: &update, into: &made) else { return nil }
            } else if var spool {
                self.spool = nil
                for number in 0..<parts {
                    var part = spool.take(part: number)
                    part.wordFiles { key, value in add(SearchIndex.wordName(key), "t", key, bytes: value) }
                    made.add(part)
                }
            }
            files += shards
            if makesBuckets {
                addBuckets()
            } else {
                kept += (0..<bucketCount).map(SearchIndex.bucketFile)
            }
            for (sequence, positions) in sequences {
                let numbering = numbering
                add(String(sequence.file.dropFirst(SearchIndex.folder.count)), "s", sequence.key, capacity: positions.count * 7 + 2) { value in
                    value.append(UInt8(ascii: "["))
                    JSONText.appendList(positions.lazy.map { numbering[$0] }, to: &value)
                    value.append(UInt8(ascii: "]"))
                }
            }
            let meta = "{\"version\":3,\"photos\":\(numbering.count),\"shard\":\(SearchNumbering.slots),\"buckets\":\(bucketCount),"
                + "\"fields\":" + SearchRecord.schema + ","
                + "\"pages\":" + SearchIndex.pages + ","
                + "\"keys\":[" + made.keys.map { JSONText.string($0) }.joined(separator: ",") + "]}"
            add("meta.js", "meta", "", meta)
            var index = SearchIndex(files: files, photoCount: numbering.count, wordCount: made.wordCount)
            index.kept = kept
            index.postings = made
            return index
        }

        /// The word files an update makes: each part of the last build's postings read in turn,
        /// its photos taken out and put back, and the files of the words whose photos changed
        /// made; the rest kept. False when a part cannot be read.
        private mutating func addWordFiles(updating update: inout Update, into made: inout MadePostings) -> Bool {
            // Each word's part worked out once, not once a part: an edit of many photos puts
            // back tens of words each.
            let count = parts
            let partOf = { (word: String) in UInt16(SearchPostings.part(of: word, parts: count)) }
            let partsOf = update.put.map { photo in (words: photo.words.map(partOf), title: photo.title.map(partOf)) }
            for number in 0..<parts {
                guard var part = update.last.nextPart() else { return false }
                func numbers(_ words: [String], _ parts: [UInt16]) -> [Int] {
                    zip(words, parts).compactMap { word, at in at == number ? part.number(of: word) : nil }
                }
                let put = zip(update.put, partsOf).map { photo, parts in
                    (photo.number, numbers(photo.words, parts.words), numbers(photo.title, parts.title))
                }
                let touched = part.replace(update.taken, with: put)
                part.letGoOfWordTable()
                let groups = part.groups(of: touched)
                let unchanged = part.wordFiles(under: groups, touched: touched) { key, value in
                    add(SearchIndex.wordName(key), "t", key, bytes: value)
                }
                kept += part.keys.filter { !groups.contains(SearchText.shardKey($0)) }.map(SearchIndex.wordFile)
                kept += unchanged.map(SearchIndex.wordFile)
                made.add(part)
            }
            return true
        }
    }

    /// What an update changes in the last build's postings (`last`): the photos numbered
    /// `taken` taken out, and `put` put in, each with its words and its title's.
    struct Update {
        var last: KeptPostings
        var taken: Set<Int>
        var put: [(number: Int, words: [String], title: [String])]
    }
}

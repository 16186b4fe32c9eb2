import FolioCore
import FolioMedia
import FolioModel
import FolioSite
import Foundation

/// What the last build knew of each photo's media, kept with the ledger of the two output trees
/// (`BuildState`): a photo whose media digest (`GalleryPhoto.mediaDigest(of:)`) is the one recorded here had
/// all its media in both trees, and no others, when that build ended. A build then plans only
/// the photos whose digest moved, and looks for media fallen out of use only among their
/// checksums' names, old and new. The entries hold only while how media are named (`drawing`)
/// and the model's thumbnails (`thumbnails`, a tally) are as they were; otherwise the next build
/// plans every photo and sweeps every media file.
package struct MediaLedger: Sendable, Equatable, LedgerFile {
    package var drawing: String
    package var thumbnails: String
    package var entries = Entries()

    package init(drawing: String, thumbnails: String, entries: Entries = Entries()) {
        self.drawing = drawing
        self.thumbnails = thumbnails
        self.entries = entries
    }

    /// The entries by photo id, in the order of their ids: a lookup halves, as the ledger is
    /// read and written in that order. Smaller than a dictionary, and a build holds two (the
    /// last build's, and its own being made) at the peak of its plan.
    package struct Entries: Sendable, Equatable, ExpressibleByDictionaryLiteral {
        package struct Item: Sendable, Equatable, BitwiseCopyable {
            package var id: Int64
            package var entry: Entry
        }

        /// Sorted by id, each once, while `inOrder`; else in the order they were set
        /// (`putInOrder`). An id is set once while they are out of order.
        package private(set) var items: [Item] = []
        private var inOrder = true

        package init() {}

        package init(dictionaryLiteral elements: (Int64, Entry)...) {
            for (id, entry) in elements { self[id] = entry }
            putInOrder()
        }

        package init(ordered items: [Item]) {
            precondition(zip(items, items.dropFirst()).allSatisfy { $0.id < $1.id }, "entries out of the order of their ids")
            self.items = items
        }

        package var count: Int { items.count }

        /// Room for `count` entries in all, made at once: grown an entry at a time, the array
        /// doubles, and holds its old room beside the new as it does.
        package mutating func reserveCapacity(_ count: Int) {
            items.reserveCapacity(count)
        }

        /// An entry set after one of a higher id is looked up once the entries are put in order.
        package subscript(id: Int64) -> Entry? {
            get {
                precondition(inOrder, "an entry looked up before the entries are put in order")
                return items.sortedIndex(of: id, by: \.id).map { items[$0].entry }
            }
            set {
                if inOrder, let at = items.sortedIndex(of: id, by: \.id) {
                    if let newValue { items[at].entry = newValue } else { items.remove(at: at) }
                    return
                }
                guard let newValue else {
                    guard !inOrder else { return }
                    putInOrder()
                    self[id] = nil
                    return
                }
                if let last = items.last, last.id >= id { inOrder = false }
                items.append(Item(id: id, entry: newValue))
            }
        }

        /// Sorted by id, in place.
        package mutating func putInOrder() {
            guard !inOrder else { return }
            Self.sort(&items)
            inOrder = true
        }

        /// Entries put aside in a store that spills to its file past its size, as they are made
        /// (`PlanStep`): the plan and the images step, which never read them, would otherwise
        /// hold every photo's beside the jobs. Parked a share at a time, each share in the order of
        /// its ids; taken back whole, in order.
        package struct Parked: Sendable {
            static let itemsPerRecord = 4_096
            private let store: PackedStore
            /// Where each record starts, in the order they were parked.
            private var records: [Int] = []
            package private(set) var count = 0
            /// The highest id parked, and whether every share came after the one before.
            private var last: Int64?
            private var inOrder = true

            package init(in store: PackedStore) {
                self.store = store
            }

            /// Puts `entries` aside. An id is parked once.
            package mutating func park(_ entries: consuming Entries) {
                var entries = entries
                entries.putInOrder()
                let items = entries.items
                guard let first = items.first, let highest = items.last else { return }
                if let last, first.id <= last { inOrder = false }
                last = max(last ?? highest.id, highest.id)
                for run in items.chunked(Self.itemsPerRecord) {
                    records.append(store.append { record in
                        run.withUnsafeBytes { record.bytes.append(contentsOf: $0) }
                    })
                }
                count += items.count
            }

            /// Ends the parking: the last records go to the store's file, if it has one.
            package func seal() {
                store.seal()
            }

            /// The entries as they were parked, in the order of their ids, but those of `ids`.
            package func take(removing ids: Set<Int64> = []) -> Entries {
                var items: [Item] = []
                items.reserveCapacity(count)
                for record in records {
                    store.withRecord(at: record) { bytes in
                        for at in 0..<bytes.count / MemoryLayout<Item>.stride {
                            let item = bytes.loadUnaligned(fromByteOffset: at * MemoryLayout<Item>.stride, as: Item.self)
                            if !ids.contains(item.id) { items.append(item) }
                        }
                    }
                }
                if !inOrder { Entries.sort(&items) }
                return Entries(ordered: items)
            }
        }

        /// The entries but those of `ids`.
        package func removing(_ ids: Set<Int64>) -> Entries {
            var kept = Entries()
            kept.items = ordered.filter { !ids.contains($0.id) }
            return kept
        }

        private static func sort(_ items: inout [Item]) {
            items.sortWithoutScratch { $0.id < $1.id }
            precondition(zip(items, items.dropFirst()).allSatisfy { $0.id < $1.id }, "an id set twice while the entries were out of order")
        }

        package static func == (left: Entries, right: Entries) -> Bool {
            left.ordered == right.ordered
        }

        /// Every entry, in the order of their ids.
        package var ordered: [Item] {
            guard !inOrder else { return items }
            var sorted = items
            Self.sort(&sorted)
            return sorted
        }
    }

    package struct Entry: Sendable, Equatable, BitwiseCopyable {
        package var digest: UInt64
        /// The renditions the photo had made (what the plan counts as reused when it looks at none).
        package var renditions: Int {
            get { Int(made) }
            set { made = UInt32(clamping: newValue) }
        }
        // The name prefixes as numbers, side by side: as text, sixteen hex digits would be a
        // string on the heap for each photo.
        private var ownPrefix: UInt64
        private var clip: UInt64
        private var made: UInt32
        private var ownDigits: UInt8
        private var clipDigits: UInt8

        package init(digest: UInt64, renditions: Int, prefix: String?, clipPrefix: String?) {
            self.digest = digest
            made = UInt32(clamping: renditions)
            (ownPrefix, ownDigits) = HexPrefix.packed(prefix)
            (clip, clipDigits) = HexPrefix.packed(clipPrefix)
        }

        /// The checksum prefixes its media files are named by (`RenditionSet.prefix(of:)`): its
        /// own, and a Live Photo's clip's; nil where a prefix is not one a file name can be told by
        /// (up to sixteen lower-case hex digits, as `namePrefix(of:)` makes them).
        package var prefix: String? { HexPrefix.text(ownPrefix, digits: ownDigits) }
        package var clipPrefix: String? { HexPrefix.text(clip, digits: clipDigits) }

        package var prefixes: [String] { [prefix, clipPrefix].compactMap { $0 } }
    }

    /// Up to sixteen lower-case hex digits as a number and how many digits it has ("00aa" is
    /// not "aa"); no digits for none.
    package enum HexPrefix {
        package static func packed(_ text: String?) -> (bits: UInt64, digits: UInt8) {
            guard let text, (1...16).contains(text.utf8.count) else { return (0, 0) }
            var bits: UInt64 = 0
            for byte in text.utf8 {
                switch byte {
                case 0x30...0x39: bits = bits << 4 | UInt64(byte - 0x30)
                case 0x61...0x66: bits = bits << 4 | UInt64(byte - 0x61 + 10)
                default: return (0, 0)
                }
            }
            return (bits, UInt8(text.utf8.count))
        }

        package static func text(_ bits: UInt64, digits: UInt8) -> String? {
            guard digits > 0 else { return nil }
            let hex = String(bits, radix: 16)
            return String(repeating: "0", count: Int(digits) - hex.utf8.count) + hex
        }
    }

    /// The entry of `photo`, whose media digest is `digest`, with the renditions it has once made.
    package static func entry(of photo: Photo, digest: UInt64, renditions: Int) -> Entry {
        Entry(digest: digest, renditions: renditions, prefix: namePrefix(of: photo.checksum),
              clipPrefix: photo.motion?.clipChecksum.flatMap(namePrefix(of:)))
    }

    /// Whether the entries hold for a build that names media by `drawing`, with `thumbnails` in the model.
    package func holds(drawing: String, thumbnails: String) -> Bool {
        self.drawing == drawing && self.thumbnails == thumbnails
    }

    /// How `photos` (by their digests, `GalleryPhoto.mediaDigest`) stand against the ledger: the entries of
    /// those whose media are as recorded (`kept`), the positions of the others (`changed`), and
    /// the name prefixes among which media may have fallen out of use (`moved`): those of the
    /// changed photos, as recorded and as they are now, and of the photos recorded and gone
    /// since; nil when one of them is a prefix no file name can be told by.
    package func standing(of photos: PhotoRows) -> (kept: Entries, changed: [Int], moved: Set<String>?) {
        // The ledger less what moved: a build that finds a few photos changed removes a few
        // entries, rather than build a dictionary of those kept.
        var dropped = Set<Int64>()
        var changed: [Int] = []
        var moved = Set<String>()
        var recorded = 0
        var unnamed = false
        for (index, item) in photos.enumerated() {
            let old = entries[item.id]
            if old != nil { recorded += 1 }
            if let old, old.digest == item.mediaDigest { continue }
            if old != nil { dropped.insert(item.id) }
            changed.append(index)
            let now = Self.entry(of: item.photo, digest: item.mediaDigest, renditions: 0)
            unnamed = unnamed || now.prefix == nil || (old != nil && old?.prefix == nil)
            moved.formUnion(now.prefixes + (old?.prefixes ?? []))
        }
        if entries.count > recorded {
            let ids = Set(photos.map(\.id))
            for item in entries.ordered where !ids.contains(item.id) {
                dropped.insert(item.id)
                unnamed = unnamed || item.entry.prefix == nil
                moved.formUnion(item.entry.prefixes)
            }
        }
        return (dropped.isEmpty ? entries : entries.removing(dropped), changed, unnamed ? nil : moved)
    }

    /// The prefix of the media names a photo with `checksum` has, when every one of its files
    /// starts with it and a dash: a hex checksum's, as any photo's is.
    package static func namePrefix(of checksum: String) -> String? {
        let prefix = RenditionSet.prefix(of: checksum)
        guard !prefix.isEmpty, prefix.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        return String(prefix)
    }

    /// The prefix a media file's name ("…-…", "media/" left off) starts with, as `namePrefix(of:)` makes them.
    package static func namePrefix(ofFile name: Substring) -> Substring? {
        guard let dash = name.utf8.firstIndex(of: UInt8(ascii: "-")) else { return nil }
        return name[..<dash]
    }

    private static let heading = "folio-media-ledger 1"

    /// "-" or a prefix an entry keeps: anything else is not this Folio's ledger.
    private static func isPrefix(_ word: String) -> Bool {
        word == "-" || HexPrefix.packed(word).digits > 0
    }

    package var ledgerHeading: String {
        "\(Self.heading)\ndrawing \(drawing)\nthumbnails \(thumbnails)\nphotos \(entries.count)\n"
    }

    package var ledgerSize: Int { entries.count * 64 }

    /// One line an entry, in the order of the photos' ids: "id digest renditions prefix clip".
    package func writeLines(into file: inout LedgerWriter) {
        for item in entries.ordered {
            let (id, entry) = (item.id, item.entry)
            JSONText.appendDecimal(Int(id), to: &file.line)
            file.line.append(0x20)
            ContentHash.appendHex(entry.digest, to: &file.line)
            file.line.append(0x20)
            JSONText.appendDecimal(entry.renditions, to: &file.line)
            file.line.append(0x20)
            file.line.append(contentsOf: (entry.prefix ?? "-").utf8)
            file.line.append(0x20)
            file.line.append(contentsOf: (entry.clipPrefix ?? "-").utf8)
            file.endLine()
        }
    }

    /// Nil for anything but a ledger this Folio wrote whole: the next build then plans every photo.
    /// Read byte by byte, never split into strings.
    package static func decode(_ data: Data) -> MediaLedger? {
        data.withUnsafeBytes { raw -> MediaLedger? in
            var reader = LedgerReader(bytes: raw.bindMemory(to: UInt8.self))
            guard reader.line() == heading, let drawing = reader.line(after: "drawing "),
                  let thumbnails = reader.line(after: "thumbnails "), let count = reader.line(after: "photos ").flatMap({ Int($0) }),
                  count >= 0 else { return nil }
            var ledger = MediaLedger(drawing: drawing, thumbnails: thumbnails)
            var items: [Entries.Item] = []
            items.reserveCapacity(count)
            for _ in 0..<count {
                guard let id = reader.number(radix: 10, then: 0x20), id <= UInt64(Int64.max), let digest = reader.number(radix: 16, then: 0x20),
                      let renditions = reader.number(radix: 10, then: 0x20), renditions <= UInt32.max,
                      let prefix = reader.word(then: 0x20), let clipPrefix = reader.word(then: 0x0A),
                      Self.isPrefix(prefix), Self.isPrefix(clipPrefix),
                      items.last.map({ $0.id < Int64(bitPattern: id) }) ?? true else { return nil }
                items.append(Entries.Item(id: Int64(bitPattern: id), entry: Entry(digest: digest, renditions: Int(renditions),
                                                                                  prefix: prefix == "-" ? nil : prefix,
                                                                                  clipPrefix: clipPrefix == "-" ? nil : clipPrefix)))
            }
            guard reader.atEnd else { return nil }
            ledger.entries = Entries(ordered: items)
            return ledger
        }
    }
}

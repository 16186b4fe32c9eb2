import FolioCore
import Foundation

/// What every page of the last build was made from and came out as, kept in the build state: a
/// page whose values are as they were is not rendered again, and one that renders the same is
/// left untouched (same file, same mtime). It also keeps when each page's HTML last changed, the
/// sitemap's `lastmod`: not the build's time (a rebuild that changes nothing would claim every
/// page changed), nor the photos' dates (a page changes with its theme and neighbours too).
package struct PageManifest {
    /// Where an older Folio kept it: in `public/` itself.
    package static let legacyFileName = ".folio-pages"

    package init() {}

    /// Numbers, written as sixteen hex digits: as text, each would be a string of its own on
    /// the heap, twice for each page.
    package struct Entry: Equatable {
        /// ContentHash of the HTML (of the bytes, for a whole file).
        package var checksum: UInt64
        /// ContentHash of the page's values and of how they are drawn (theme and settings);
        /// `wholeFile` for a file written whole.
        package var input: UInt64
        /// When the HTML last came out different; nil in a manifest an older Folio wrote.
        package var changed: Date?

        package init(checksum: UInt64, input: UInt64, changed: Date? = nil) {
            self.checksum = checksum
            self.input = input
            self.changed = changed
        }

        /// Whether it is a page: the sitemap lists pages, not the search index's files.
        package var isPage: Bool { input != PageManifest.wholeFile }
    }

    /// The input of a file written whole (the search index's, the feed, the sitemap): kept so
    /// that one whose bytes are as last time is taken over rather than written again.
    package static let wholeFile: UInt64 = 0

    /// Every path's bytes, one after the other: a page's entry is 32 bytes and its path, where a
    /// dictionary of strings takes several times that, and a build holds two manifests.
    private var bytes: [UInt8] = []
    /// An entry each, where its path is in `bytes`; in the order of the paths' bytes, one to a
    /// path, unless `isSorted` is false (entries added since: `sort()`).
    private var rows: [Row] = []
    private var isSorted = true
    /// While a file is read into it for the entries under one folder alone (`read(path:hash:under:)`), that folder.
    private var only: [UInt8]?

    private struct Row {
        var start: UInt32
        var count: UInt32
        var checksum: UInt64
        var input: UInt64
        /// Seconds since 1970; NaN when not known.
        var changed: Double

        init(start: UInt32, count: UInt32, _ stored: Stored) {
            self.start = start
            self.count = count
            checksum = stored.checksum
            input = stored.input
            changed = stored.changed
        }

        /// Where its path is in `bytes`.
        var range: Range<Int> { Int(start)..<Int(start + count) }

        var stored: Stored { Stored(checksum: checksum, input: input, changed: changed) }
        var entry: Entry { stored.entry }
    }

    /// An entry as a manifest holds it, apart from its path: what a merge of sorted runs
    /// (`ManifestRun`) hands on and a lot on disk (`ManifestLots`) keeps.
    struct Stored {
        var checksum: UInt64
        var input: UInt64
        /// Seconds since 1970; NaN when not known.
        var changed: Double

        init(checksum: UInt64, input: UInt64, changed: Double) {
            self.checksum = checksum
            self.input = input
            self.changed = changed
        }

        init(_ entry: Entry) {
            self.init(checksum: entry.checksum, input: entry.input, changed: entry.changed?.timeIntervalSince1970 ?? .nan)
        }

        var entry: Entry {
            Entry(checksum: checksum, input: input, changed: changed.isNaN ? nil : Date(timeIntervalSince1970: changed))
        }
    }

    package var count: Int { rows.count }
    package var isEmpty: Bool { rows.isEmpty }

    /// The entry at `path`. Set, it is added (nil adds nothing: an entry is never taken out); the
    /// manifest is put in order again by `sort()`, and the entry set last at a path is the one kept.
    package subscript(path: String) -> Entry? {
        get { position(of: path).map { rows[$0].entry } }
        set {
            guard let newValue else { return }
            var path = path
            path.withUTF8 { add($0, newValue) }
        }
    }

    /// Where the entry at `path` is (the last set there, while the manifest is out of order).
    package func position(of path: String) -> Int? {
        var path = path
        return path.withUTF8 { key in
            if !isSorted { return rows.lastIndex { compare($0, key) == 0 } }
            var (low, high) = (0, rows.count)
            while low < high {
                let middle = (low + high) / 2
                let order = compare(rows[middle], key)
                if order == 0 { return middle }
                if order < 0 { low = middle + 1 } else { high = middle }
            }
            return nil
        }
    }

    /// As `position(of:)`, for a path that is likely to come after the one at `hint` (the render
    /// step asks for pages in the order of their paths): looked for from there, a row on and
    /// then twice as far at each step, instead of from the middle of every path. Searched for
    /// everywhere when it comes before.
    package func position(of path: String, after hint: Int) -> Int? {
        guard isSorted, rows.indices.contains(hint) else { return position(of: path) }
        var path = path
        let found: Int?? = path.withUTF8 { key in
            guard compare(rows[hint], key) < 0 else { return .none }
            // Every row before `low` is before the path; past the widening, `high` is not.
            var (low, high, step) = (hint + 1, hint + 1, 1)
            while high < rows.count, compare(rows[high], key) < 0 {
                low = high + 1
                high += step
                step *= 2
            }
            high = min(high + 1, rows.count)
            while low < high {
                let middle = (low + high) / 2
                let order = compare(rows[middle], key)
                if order == 0 { return .some(middle) }
                if order < 0 { low = middle + 1 } else { high = middle }
            }
            return .some(nil)
        }
        return found ?? position(of: path)
    }

    /// The entry at `position` (`position(of:)`).
    package subscript(entryAt position: Int) -> Entry {
        rows[position].entry
    }

    /// Replaces the entry at `position`, its path kept.
    package mutating func replace(at position: Int, with entry: Entry) {
        rows[position].checksum = entry.checksum
        rows[position].input = entry.input
        rows[position].changed = entry.changed?.timeIntervalSince1970 ?? .nan
    }

    /// The entries whose paths start with `prefix`, as a manifest of their own.
    package func only(under prefix: String) -> PageManifest {
        var part = PageManifest()
        var prefix = prefix
        prefix.withUTF8 { prefix in
            bytes.withUnsafeBufferPointer { base in
                for row in rows where Int(row.count) >= prefix.count
                    && memcmp(base.baseAddress! + Int(row.start), prefix.baseAddress!, prefix.count) == 0 {
                    part.add(UnsafeBufferPointer(rebasing: base[row.range]), row.entry)
                }
            }
        }
        part.sort()
        return part
    }

    /// The entries `keep` takes, asked of each path and entry on every core, in the same order.
    package func filter(_ keep: @Sendable (_ path: String, _ entry: Entry) -> Bool) -> PageManifest {
        let taken = Array(rows.indices).concurrentMap(minimum: 1024) { keep(path(of: rows[$0]), rows[$0].entry) }
        var kept = PageManifest()
        bytes.withUnsafeBufferPointer { base in
            for (row, taken) in zip(rows, taken) where taken {
                kept.add(UnsafeBufferPointer(rebasing: base[row.range]), row.entry)
            }
        }
        kept.sort()
        return kept
    }

    /// Every path, in the manifest's order.
    package var paths: some Sequence<String> {
        rows.lazy.map(path(of:))
    }

    /// Every entry with its path, in the manifest's order.
    package func compactMap<T>(_ transform: (_ path: String, _ entry: Entry) throws -> T?) rethrows -> [T] {
        try rows.compactMap { row in
            try transform(path(of: row), row.entry)
        }
    }

    /// Each entry with its path, in the manifest's order.
    package func forEach(_ body: (_ path: String, _ entry: Entry) throws -> Void) rethrows {
        for row in rows { try body(path(of: row), row.entry) }
    }

    private func path(of row: Row) -> String {
        String(decoding: bytes[row.range], as: UTF8.self)
    }

    /// The whole manifest as a dictionary, to compare two.
    package var entries: [String: Entry] {
        Dictionary(compactMap { ($0, $1) }, uniquingKeysWith: { _, last in last })
    }

    package mutating func reserveCapacity(_ count: Int) {
        rows.reserveCapacity(count)
        bytes.reserveCapacity(count * 40)
    }

    private mutating func add(_ path: UnsafeBufferPointer<UInt8>, _ entry: Entry) {
        // An empty path names no file (and `sort()` counts on each row's path starting later).
        guard !path.isEmpty else { return }
        if let only, !path.starts(with: only) { return }
        precondition(bytes.count + path.count < UInt32.max, "a manifest's paths fill 4 GB")
        let row = Row(start: UInt32(bytes.count), count: UInt32(path.count), Stored(entry))
        bytes.append(contentsOf: path)
        if isSorted, let last = rows.last, order(last, row) >= 0 { isSorted = false }
        rows.append(row)
    }

    /// Puts the entries in the order of their paths' bytes, the last set at a path kept. In place,
    /// without a sorted copy beside the rows: the manifest is sorted at the end of the render step,
    /// where a build's memory peaks. A row added later starts later in `bytes` (a path is never
    /// empty), so among rows of one path the last set sorts last.
    package mutating func sort() {
        guard !isSorted else { return }
        bytes.withUnsafeBufferPointer { base in
            rows.sortWithoutScratch { a, b in
                let order = Self.order(base, a, b)
                return order != 0 ? order < 0 : a.start < b.start
            }
            var kept = 0
            for index in rows.indices {
                if kept > 0, Self.order(base, rows[kept - 1], rows[index]) == 0 {
                    rows[kept - 1] = rows[index]
                } else {
                    rows[kept] = rows[index]
                    kept += 1
                }
            }
            rows.removeLast(rows.count - kept)
        }
        isSorted = true
    }

    /// The order of two rows' paths (see `compare`).
    private func order(_ a: Row, _ b: Row) -> Int32 {
        bytes.withUnsafeBufferPointer { Self.order($0, a, b) }
    }

    private static func order(_ base: UnsafeBufferPointer<UInt8>, _ a: Row, _ b: Row) -> Int32 {
        compare(base, a, UnsafeBufferPointer(rebasing: base[b.range]))
    }

    /// The order of a row's path against `key`'s bytes.
    private func compare(_ row: Row, _ key: UnsafeBufferPointer<UInt8>) -> Int32 {
        bytes.withUnsafeBufferPointer { Self.compare($0, row, key) }
    }

    /// Their bytes compared, a path before those it starts.
    private static func compare(_ base: UnsafeBufferPointer<UInt8>, _ row: Row, _ key: UnsafeBufferPointer<UInt8>) -> Int32 {
        order(UnsafeBufferPointer(rebasing: base[row.range]), key)
    }

    /// The order of two paths' bytes, a path before those it starts.
    private static func order(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int32 {
        let common = min(a.count, b.count)
        let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
        return order != 0 ? order : a.count == b.count ? 0 : a.count < b.count ? -1 : 1
    }

    package static func decode(_ text: String) -> PageManifest {
        var manifest = PageManifest()
        for line in text.split(separator: "\n") { manifest.add(line) }
        manifest.sort()
        return manifest
    }

    /// The manifest as this Folio writes it, read a byte at a time, never split as text. A line in
    /// another form is read as text.
    package static func decode(_ data: Data) -> PageManifest {
        decode(from: LedgerStream(bytes: data), lines: data.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 })
    }

    /// The manifest in the file at `path`, read a buffer at a time, never held whole beside the
    /// manifest made of it; nil when the file will not open or its hash (`ContentHash`) is not
    /// `hash`. Read twice: once to count its lines and check its hash, then into a manifest of the
    /// right size. With `prefix`, only the entries whose paths start with it are kept.
    package static func read(path: String, hash: String, under prefix: String? = nil) -> PageManifest? {
        guard let counting = LedgerStream(path: path) else { return nil }
        var lines = 0
        while counting.line({ _ in () }) != nil { lines += 1 }
        guard counting.failure == nil, ContentHash.hexText(counting.digest) == hash,
              let stream = LedgerStream(path: path), stream.size == counting.size else { return nil }
        let manifest = decode(from: stream, lines: lines, under: prefix)
        return stream.failure == nil && ContentHash.hexText(stream.digest) == hash ? manifest : nil
    }

    private static func decode(from stream: LedgerStream, lines: Int, under prefix: String? = nil) -> PageManifest {
        var manifest = PageManifest()
        if let prefix {
            manifest.only = Array(prefix.utf8)
        } else {
            manifest.rows.reserveCapacity(lines)
            manifest.bytes.reserveCapacity(max(0, stream.size - lines * 36))
        }
        while stream.line({ (line: UnsafeBufferPointer<UInt8>) -> Void in
            if !manifest.addWritten(line) { manifest.add(Substring(String(decoding: line, as: UTF8.self))) }
        }) != nil {}
        manifest.only = nil
        manifest.sort()
        return manifest
    }

    /// Reads "checksum input @seconds path", or an older Folio's "checksum input path"; the path
    /// may hold spaces, and Folio's own paths never start with "@".
    private mutating func add(_ line: Substring) {
        let parts = line.split(separator: " ", maxSplits: 3)
        guard parts.count >= 3 else { return }
        if parts.count == 4, parts[2].hasPrefix("@"), let seconds = Int64(parts[2].dropFirst()) {
            self[String(parts[3])] = Entry(checksum: Self.number(parts[0]), input: Self.number(parts[1]),
                                           changed: Date(timeIntervalSince1970: TimeInterval(seconds)))
        } else {
            let path = parts.dropFirst(2).joined(separator: " ")
            self[path] = Entry(checksum: Self.number(parts[0]), input: Self.number(parts[1]), changed: nil)
        }
    }

    /// Reads a line as `encoded()` writes it: sixteen hex digits, a space, sixteen more, " @",
    /// the seconds, a space and the path. False for anything else.
    private mutating func addWritten(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard line.count > 37, line[16] == 0x20, line[33] == 0x20, line[34] == 0x40,
              let checksum = Self.hex(line, 0), let input = Self.hex(line, 17) else { return false }
        var at = 35, seconds: Int64 = 0, digits = 0
        while at < line.count, (0x30...0x39).contains(line[at]), digits < 18 {
            seconds = seconds * 10 + Int64(line[at] - 0x30)
            at += 1
            digits += 1
        }
        guard digits > 0, at + 1 < line.count, line[at] == 0x20 else { return false }
        add(UnsafeBufferPointer(rebasing: line[(at + 1)...]), Entry(checksum: checksum, input: input, changed: Date(timeIntervalSince1970: TimeInterval(seconds))))
        return true
    }

    /// Sixteen lower-case hex digits at `start`.
    private static func hex(_ line: UnsafeBufferPointer<UInt8>, _ start: Int) -> UInt64? {
        var value: UInt64 = 0
        for byte in line[start..<(start + 16)] {
            switch byte {
            case 0x30...0x39: value = value << 4 | UInt64(byte - 0x30)
            case 0x61...0x66: value = value << 4 | UInt64(byte - 0x61 + 10)
            default: return nil
            }
        }
        return value
    }

    /// A hash as written; an older Folio's longer digests read as 1, which matches no
    /// hash this one makes in practice: such a page is drawn and compared again, once.
    private static func number(_ text: Substring) -> UInt64 {
        UInt64(text, radix: 16) ?? 1
    }

    /// The manifest as a file: a line an entry, in the order of the paths' bytes, so the same
    /// manifest is always the same bytes.
    package func encoded() -> Data {
        // Each line its path and 47 bytes (two hashes, ten digits of seconds, three spaces, "@"
        // and the line feed): a file too small for its room was made again at twice the size.
        var file = LedgerWriter(capacity: bytes.count + rows.count * 48)
        encode(into: &file)
        return file.finish()
    }

    private func encode(into file: inout LedgerWriter) {
        var manifest = self
        manifest.sort()
        Self.encode([manifest.run()], into: &file)
    }

    /// `encode(to:)` for the manifest the runs make merged (`merge(_:_:)`), written as they are
    /// merged, without that manifest made.
    static func encode(_ runs: [any ManifestRun], to write: @escaping (UnsafeRawBufferPointer) -> Void) {
        var file = LedgerWriter(sink: write)
        encode(runs, into: &file)
        file.finish()
    }

    private static func encode(_ runs: [any ManifestRun], into file: inout LedgerWriter) {
        merge(runs) { path, entry in
            ContentHash.appendHex(entry.checksum, to: &file.line)
            file.line.append(0x20)
            ContentHash.appendHex(entry.input, to: &file.line)
            let seconds = entry.changed.isNaN ? 0 : Int64(entry.changed.rounded(.down))
            file.line.append(contentsOf: " @\(seconds) ".utf8)
            file.line.append(contentsOf: path)
            file.endLine()
        }
    }

    /// The entries of runs in order, merged: each path once, handed to `body` with its bytes;
    /// where several runs have a path, the entry of the one given last.
    static func merge(_ runs: [any ManifestRun], _ body: (UnsafeBufferPointer<UInt8>, Stored) throws -> Void) rethrows {
        var runs = runs
        var heads: [(path: [UInt8], entry: Stored)?] = runs.indices.map { index in
            var path: [UInt8] = []
            return runs[index].next(path: &path).map { (path, $0) }
        }
        // Few runs (the last build's, this build's lots, one for each `NextManifest.lotSize` new
        // pages, and what it holds): the least path found by looking at each, not kept in a heap.
        while true {
            var least: Int?
            for index in heads.indices {
                guard let head = heads[index] else { continue }
                if let current = least, order(head.path, heads[current]!.path) > 0 { continue }
                least = index
            }
            guard let least, let chosen = heads[least]?.entry else { return }
            try heads[least]!.path.withUnsafeBufferPointer { try body($0, chosen) }
            // The runs that have the same path move on with the one chosen, which moves last: its
            // path is what they are compared with.
            for index in heads.indices where index != least {
                if let head = heads[index], order(head.path, heads[least]!.path) == 0 { advance(index) }
            }
            advance(least)
        }

        /// The run at `index` moves on, its path's room used again.
        func advance(_ index: Int) {
            guard var head = heads[index] else { return }
            heads[index] = nil
            if let entry = runs[index].next(path: &head.path) {
                head.entry = entry
                heads[index] = head
            }
        }
    }

    private static func order(_ a: [UInt8], _ b: [UInt8]) -> Int32 {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in order(a, b) } }
    }

    /// Its entries in order (it must be sorted), those `keep` takes (by their positions), as a run to merge.
    func run(keeping keep: @escaping (Int) -> Bool = { _ in true }) -> any ManifestRun {
        precondition(isSorted, "only manifests in order are merged")
        return HeldRun(manifest: self, keep: keep)
    }

    private struct HeldRun: ManifestRun {
        let manifest: PageManifest
        let keep: (Int) -> Bool
        var at = 0

        mutating func next(path: inout [UInt8]) -> Stored? {
            while at < manifest.rows.count, !keep(at) { at += 1 }
            guard at < manifest.rows.count else { return nil }
            let row = manifest.rows[at]
            at += 1
            path.removeAll(keepingCapacity: true)
            manifest.bytes.withUnsafeBufferPointer { path.append(contentsOf: $0[row.range]) }
            return row.stored
        }
    }

    /// No entries, the room kept for as many again.
    mutating func removeAll() {
        rows.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        isSorted = true
    }

    /// The input fingerprint of a page whose key (`SiteBuilder.key`) is `key`, drawn as
    /// `drawing` says.
    package static func input(key: UInt64, drawing: String) -> UInt64 {
        var text = "\(drawing)|\(String(key, radix: 16))"
        let input = text.withUTF8 { ContentHash.hash(UnsafeRawBufferPointer($0)) }
        return input == wholeFile ? 2 : input
    }
}

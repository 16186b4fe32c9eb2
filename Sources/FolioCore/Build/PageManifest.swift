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
        for line in text.split(separator: "\n") { manifest.add(line) }
        return manifest
    }

    /// The manifest as this Folio writes it, read a byte at a time: at 100,000 pages, splitting
    /// it as text was a second of every build. A line in another form is read as text.
    static func decode(_ data: Data) -> PageManifest {
        var manifest = PageManifest()
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            let bytes = bytes.bindMemory(to: UInt8.self)
            manifest.entries.reserveCapacity(bytes.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 })
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != 0x0A { end += 1 }
                let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if !manifest.addWritten(line) { manifest.add(Substring(String(decoding: line, as: UTF8.self))) }
                start = end + 1
            }
        }
        return manifest
    }

    /// Reads "checksum input @seconds path", or an older Folio's "checksum input path"; the path
    /// may hold spaces, and Folio's own paths never start with "@".
    private mutating func add(_ line: Substring) {
        let parts = line.split(separator: " ", maxSplits: 3)
        guard parts.count >= 3 else { return }
        if parts.count == 4, parts[2].hasPrefix("@"), let seconds = Int64(parts[2].dropFirst()) {
            entries[String(parts[3])] = Entry(checksum: Self.number(parts[0]), input: Self.number(parts[1]),
                                              changed: Date(timeIntervalSince1970: TimeInterval(seconds)))
        } else {
            let path = parts.dropFirst(2).joined(separator: " ")
            entries[path] = Entry(checksum: Self.number(parts[0]), input: Self.number(parts[1]), changed: nil)
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
        let path = String(decoding: UnsafeBufferPointer(rebasing: line[(at + 1)...]), as: UTF8.self)
        entries[path] = Entry(checksum: checksum, input: input, changed: Date(timeIntervalSince1970: TimeInterval(seconds)))
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

    func encoded() -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.count * 80)
        // In the order of the paths' bytes: the same manifest is always the same bytes. The
        // paths are copied into one buffer and sorted as spans of it: compared as `String`s,
        // each comparison of a hundred thousand paths' sort held and let go of both, most of
        // writing the manifest.
        var paths: [UInt8] = []
        paths.reserveCapacity(entries.count * 48)
        var spans: [(start: Int, count: Int, entry: Entry)] = []
        spans.reserveCapacity(entries.count)
        for (path, entry) in entries {
            var path = path
            let start = paths.count
            path.withUTF8 { paths.append(contentsOf: $0) }
            spans.append((start, paths.count - start, entry))
        }
        paths.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            spans.sort { a, b in
                let common = min(a.count, b.count)
                let order = common == 0 ? 0 : memcmp(base + a.start, base + b.start, common)
                return order != 0 ? order < 0 : a.count < b.count
            }
        }
        for (start, count, entry) in spans {
            ContentHash.appendHex(entry.checksum, to: &bytes)
            bytes.append(0x20)
            ContentHash.appendHex(entry.input, to: &bytes)
            bytes.append(contentsOf: " @\(Int64((entry.changed ?? Date(timeIntervalSince1970: 0)).timeIntervalSince1970.rounded(.down))) ".utf8)
            bytes.append(contentsOf: paths[start..<(start + count)])
            bytes.append(0x0A)
        }
        return Data(bytes)
    }

    /// The input fingerprint of a page whose key (`SiteBuilder.key`) is `key`, drawn as
    /// `drawing` says.
    static func input(key: UInt64, drawing: String) -> UInt64 {
        var text = "\(drawing)|\(String(key, radix: 16))"
        let input = text.withUTF8 { ContentHash.hash(UnsafeRawBufferPointer($0)) }
        return input == wholeFile ? 2 : input
    }
}

import Foundation

/// What the last build knew of each photo's media, kept with the ledger of the two output trees
/// (`BuildState`): a photo whose media digest (`MediaNames.digest(of:)`) is the one recorded
/// here had all its media in both trees, and had no others, when that build ended. A build
/// then plans only the photos whose digest moved, and looks for media fallen out of use only
/// among the names of those photos' checksums, old and new: one photo file replaced in a
/// library of 100,000 names and looks for the renditions of that photo, not of all of them.
///
/// The entries hold only while how media are named (`drawing`: the settings, the theme, this
/// Folio) and the thumbnails the model keeps (`thumbnails`, a tally taken as the build ended)
/// are as they were; otherwise the next build plans every photo and sweeps every media file.
struct MediaLedger: Sendable, Equatable {
    var drawing: String
    var thumbnails: String
    var entries: [Int64: Entry] = [:]

    struct Entry: Sendable, Equatable {
        var digest: UInt64
        /// The renditions the photo had made (what the plan counts as reused when it looks at none).
        var renditions: Int
        /// The checksum prefixes its media files are named by (`RenditionSet.prefix(of:)`): its
        /// own, and a Live Photo's clip's; nil where a prefix is not one a file name can be told by.
        var prefix: String?
        var clipPrefix: String?
    }

    /// Whether the entries hold for a build that names media by `drawing`, with `thumbnails` in the model.
    func holds(drawing: String, thumbnails: String) -> Bool {
        self.drawing == drawing && self.thumbnails == thumbnails
    }

    /// How `photos`, whose digests are `digests`, stand against the ledger: the entries of
    /// those whose media are as recorded (`kept`), the positions of the others (`changed`), and
    /// the prefixes the media of the photos recorded and gone since were named by (`gone`; nil
    /// when one of them had a prefix no file name can be told by).
    func standing(of photos: [GalleryPhoto], digests: [UInt64]) -> (kept: [Int64: Entry], changed: [Int], gone: Set<String>?) {
        var kept: [Int64: Entry] = [:]
        kept.reserveCapacity(photos.count)
        var changed: [Int] = []
        var recorded = 0
        for (index, item) in photos.enumerated() {
            guard let entry = entries[item.photo.id] else {
                changed.append(index)
                continue
            }
            recorded += 1
            if entry.digest == digests[index] { kept[item.photo.id] = entry } else { changed.append(index) }
        }
        var gone: Set<String>? = []
        if entries.count > recorded {
            let ids = Set(photos.map(\.photo.id))
            for (id, entry) in entries where !ids.contains(id) {
                guard let prefix = entry.prefix else { return (kept, changed, nil) }
                gone?.formUnion([prefix, entry.clipPrefix].compactMap { $0 })
            }
        }
        return (kept, changed, gone)
    }

    /// The prefix of the media names a photo with `checksum` has, when every one of its files
    /// starts with it and a dash: a hex checksum's, as any photo's is.
    static func namePrefix(of checksum: String) -> String? {
        let prefix = RenditionSet.prefix(of: checksum)
        guard !prefix.isEmpty, prefix.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        return String(prefix)
    }

    /// The prefix a media file's name ("…-…", "media/" left off) starts with, as `namePrefix(of:)` makes them.
    static func namePrefix(ofFile name: Substring) -> Substring? {
        guard let dash = name.utf8.firstIndex(of: UInt8(ascii: "-")) else { return nil }
        return name[..<dash]
    }

    private static let heading = "folio-media-ledger 1"

    func encoded() -> Data {
        var text = "\(Self.heading)\ndrawing \(drawing)\nthumbnails \(thumbnails)\nphotos \(entries.count)\n"
        text.reserveCapacity(text.utf8.count + entries.count * 64)
        for (id, entry) in entries.sorted(by: { $0.key < $1.key }) {
            text += "\(id) \(ContentHash.hexText(entry.digest)) \(entry.renditions) \(entry.prefix ?? "-") \(entry.clipPrefix ?? "-")\n"
        }
        return Data(text.utf8)
    }

    /// Nil for anything but a ledger this Folio wrote whole: the next build then plans every photo.
    static func decode(_ data: Data) -> MediaLedger? {
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        func value(_ at: Int, _ name: String) -> Substring? {
            guard at < lines.count, lines[at].hasPrefix(name + " ") else { return nil }
            return lines[at].dropFirst(name.count + 1)
        }
        guard lines.first == Substring(heading), let drawing = value(1, "drawing"), let thumbnails = value(2, "thumbnails"),
              let count = value(3, "photos").flatMap({ Int($0) }), count >= 0, lines.count == 4 + count + 1, lines.last == "" else {
            return nil
        }
        var ledger = MediaLedger(drawing: String(drawing), thumbnails: String(thumbnails))
        ledger.entries.reserveCapacity(count)
        for line in lines[4..<(4 + count)] {
            let parts = line.split(separator: " ")
            guard parts.count == 5, let id = Int64(parts[0]), let digest = UInt64(parts[1], radix: 16), let renditions = Int(parts[2]) else {
                return nil
            }
            func prefix(_ part: Substring) -> String? { part == "-" ? nil : String(part) }
            ledger.entries[id] = Entry(digest: digest, renditions: renditions, prefix: prefix(parts[3]), clipPrefix: prefix(parts[4]))
        }
        return ledger
    }
}

import FolioContent
import FolioCore
import FolioMetadata
import FolioModel
import Foundation

/// What tells the import a photo is as the model has it, without reading its file: the reader's
/// version, its record's fingerprint, its companions' stamps and what makes a favorite.
extension ImportStep {
    /// Raised when reading a file finds more in it than before (2: IPTC, XMP, sidecars and places
    /// from GPS; 3: its colour profile; 4: its transparency and animation; 5: its lens; 6: XMP's
    /// face regions, colour labels and hierarchical keywords, a sidecar's date and GPS; 7: a
    /// sidecar's orientation, a TIFF's or DNG's embedded XMP), so that photos imported by an older
    /// Folio are read once more.
    static let readerVersion = "7"

    /// What besides the file itself decides what the import makes of a photo: its catalog
    /// record, its sidecar, the rating that makes a favorite and, when SOURCE_DATE_EPOCH holds
    /// its file's time back, that time.
    static func fingerprint(_ entry: ContentEntry, favorites: FavoriteRule, sourceDateEpoch: Date? = nil) -> String {
        ContentHash.hexText(fingerprintValue(entry, favorites: favorites, sourceDateEpoch: sourceDateEpoch))
    }

    /// When the photo was added: its record's date, else its file's modification time, never
    /// later than SOURCE_DATE_EPOCH when that is set.
    static func uploaded(_ entry: ContentEntry, sourceDateEpoch: Date?) -> Date {
        entry.record?.uploaded ?? heldBack(entry, sourceDateEpoch: sourceDateEpoch) ?? entry.stamp.modified
    }

    /// SOURCE_DATE_EPOCH, when the file's time is later. Part of the fingerprint whether or not
    /// a record gives the date: the import may know only the record's fingerprint.
    private static func heldBack(_ entry: ContentEntry, sourceDateEpoch: Date?) -> Date? {
        guard let epoch = sourceDateEpoch, entry.stamp.modified > epoch else { return nil }
        return epoch
    }

    /// Whether the model's mark of the photo says it is as `entry` finds it: the same file,
    /// the same fingerprint. Asked of every photo of every build, so neither text is made.
    static func isUnchanged(_ entry: ContentEntry, since mark: PhotoMark, favorites: FavoriteRule, sourceDateEpoch: Date? = nil) -> Bool {
        guard mark.isFile(entry.stamp), let known = mark.fingerprint else { return false }
        return known == fingerprintValue(entry, favorites: favorites, sourceDateEpoch: sourceDateEpoch)
    }

    /// The number `fingerprint` writes: the hash of the reader's version, the record's
    /// fingerprint, the sidecar's path and stamp and what makes a favorite, then the Markdown's,
    /// the clip's, Google Takeout's JSON's and the other albums it is listed in only when there are
    /// (so photos without are not all read again), each after a U+001E. Written into one buffer,
    /// the bytes the models of earlier builds hashed.
    static func fingerprintValue(_ entry: ContentEntry, favorites: FavoriteRule, sourceDateEpoch: Date? = nil) -> UInt64 {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        func add(_ text: String) {
            var text = text
            text.withUTF8 { bytes.append(contentsOf: $0) }
        }
        func add(_ file: Sidecar, prefix: String = "") {
            bytes.append(0x1E)
            add(prefix)
            add(file.path)
            bytes.append(UInt8(ascii: "@"))
            add(file.stamp.text)
        }
        add(readerVersion)
        bytes.append(0x1E)
        if let record = entry.recordFingerprint {
            ContentHash.appendHex(record, to: &bytes)
        } else {
            add("uncatalogued")
        }
        if let sidecar = entry.sidecar {
            add(sidecar)
        } else {
            bytes.append(0x1E)
        }
        bytes.append(0x1E)
        add(favorites.fingerprintText)
        if let markdown = entry.markdown { add(markdown) }
        if let clip = entry.clip { add(clip, prefix: "clip ") }
        if let takeout = entry.takeout { add(takeout, prefix: "takeout ") }
        if !entry.alsoListedIn.isEmpty {
            bytes.append(0x1E)
            add("also listed in " + entry.alsoListedIn.joined(separator: "\u{1F}"))
        }
        if let epoch = heldBack(entry, sourceDateEpoch: sourceDateEpoch) {
            bytes.append(0x1E)
            add("uploaded \(Int64(epoch.timeIntervalSince1970))")
        }
        return bytes.withUnsafeBytes { ContentHash.hash($0) }
    }
}

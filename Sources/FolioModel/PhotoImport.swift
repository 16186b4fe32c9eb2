import FolioCore
import FolioImaging
import Foundation
import GRDB

/// One photo being imported, whatever its origin: its row as far as the source knows it, and
/// the names of its person, place and region, which the model turns into their rows' ids.
public struct PhotoImport: Sendable, Equatable, Encodable {
    /// The row to write; its person's and place's ids are set when it is written.
    public var photo: Photo
    public var person: String
    /// Who took it, as the source tells them apart: "name:<person>" unless given (a Flickr
    /// account is "flickr:<owner id>", so two accounts of one name stay two people).
    public var personKey: String
    /// The full place name; nil for a photo taken nowhere in particular.
    public var place: String?
    /// The place's region; derived from the place name when nil.
    public var region: String?
    /// The file's size and modification time as this import read it, and the fingerprint of what
    /// else it was read with (its record, its sidecar): kept in the photo's row, what the next
    /// import tells a changed photo by (`KnownPhoto`).
    public var fileStamp = ""
    public var fingerprint = ""

    public init(_ photo: Photo, person: String, personKey: String? = nil, place: String? = nil, region: String? = nil) {
        self.photo = photo
        // The last guard, whatever the reader: a date the model cannot read back is no date.
        self.photo.taken = photo.taken?.storable
        self.photo.uploaded = photo.uploaded.storable ?? Date(timeIntervalSince1970: 0)
        self.person = person
        self.personKey = personKey ?? PhotoImport.key(forName: person)
        self.place = place
        self.region = region
    }

    public var source: PhotoSource { photo.source }

    /// The key of a person known only by name.
    public static func key(forName name: String) -> String { name == Person.unknownName ? Person.nobodyKey : "name:\(name)" }

    /// The row the import writes: the source's favorite is also the catalog's (a favorite set
    /// from the command line outlives it until the source changes its mind), the last build's
    /// failure is forgotten until this one fails the photo too, and a photo whose Flickr place is
    /// not known yet waits on its id.
    func row(personId: Int64, placeId: Int64?) -> Row {
        var row = photo
        row.id = GalleryDatabase.unwrittenID
        row.personId = personId
        row.placeId = placeId
        row.catalogFavorite = photo.favorite
        row.lastError = nil
        row.flickrPlaceId = placeId == nil ? photo.remote?.placeID : nil
        return Row(photo: row, fileStamp: fileStamp, fingerprint: fingerprint)
    }

    /// A photo's row as the import writes it: the photo's columns, and what the next import
    /// tells it changed by.
    struct Row: ColumnOrderedRecord {
        static let databaseTableName = Photo.databaseTableName
        static let columnNames = Photo.columnNames + [KnownPhoto.CodingKeys.fileStamp.rawValue, KnownPhoto.CodingKeys.fingerprint.rawValue]
        var photo: Photo
        var fileStamp: String
        var fingerprint: String

        func columnValues() throws -> [DatabaseValue] {
            try photo.columnValues() + [fileStamp.databaseValue, fingerprint.databaseValue]
        }
    }
}

extension PhotoImport {
    /// Every text without control characters.
    func cleaned() -> PhotoImport {
        var copy = self
        copy.photo.title = photo.title.map(CleanText.line)
        copy.photo.description = photo.description.map(CleanText.paragraph)
        copy.person = CleanText.line(person)
        copy.personKey = CleanText.line(personKey)
        copy.place = place.map(CleanText.line)
        copy.region = region.map(CleanText.line)
        copy.photo.camera = photo.camera.map(CleanText.line)
        copy.photo.exposure = photo.exposure.map(CleanText.line)
        copy.photo.lens = photo.lens.map(CleanText.line)
        // An empty tag is no tag: pages and the search index never had one.
        copy.photo.tags = photo.tags.map(CleanText.line).filter { !$0.isEmpty }
        copy.photo.pictured = photo.pictured.map(CleanText.line).filter { !$0.isEmpty }
        return copy
    }
}

/// A set of changes applied to the model in one transaction: all of it or none of it.
public struct ImportBatch: Sendable {
    public var upserts: [PhotoImport]
    /// Sources of photos that no longer exist.
    public var removals: [PhotoSource]
    /// Flickr place ids newly learned; photos that waited on one get its place.
    public var flickrPlaces: [FlickrPlace]

    public init(upserts: [PhotoImport] = [], removals: [PhotoSource] = [], flickrPlaces: [FlickrPlace] = []) {
        self.upserts = upserts
        self.removals = removals
        self.flickrPlaces = flickrPlaces
    }

    public var isEmpty: Bool { upserts.isEmpty && removals.isEmpty && flickrPlaces.isEmpty }
}

/// What the import holds of every photo the model has, to tell the changed ones: its file's
/// stamp and its record's fingerprint as numbers, not `KnownPhoto`'s four texts; the changed
/// photos' `KnownPhoto` is read after.
public struct PhotoMark: Sendable {
    // Side by side, 32 bytes: the stored `fileStamp`'s size and milliseconds (`hasFile` false
    // when it is not such a text) and its `fingerprint` (`hasFingerprint` false when it is not
    // sixteen hex digits, as an older model's).
    private var size: Int64
    private var milliseconds: Int64
    private var fingerprintValue: UInt64
    private var hasFile: Bool
    private var hasFingerprint: Bool

    init(fileStamp: String, fingerprint: String) {
        let numbers = FileStamp.numbers(fileStamp)
        (size, milliseconds, hasFile) = (numbers?.size ?? 0, numbers?.milliseconds ?? 0, numbers != nil)
        let value = fingerprint.utf8.count == 16 ? UInt64(fingerprint, radix: 16) : nil
        (fingerprintValue, hasFingerprint) = (value ?? 0, value != nil)
    }

    package var fingerprint: UInt64? { hasFingerprint ? fingerprintValue : nil }

    /// Whether `stamp` is the file's stamp as the model holds it.
    package func isFile(_ stamp: FileStamp) -> Bool {
        hasFile && stamp.matches((size, milliseconds))
    }
}

/// What the model holds of every photo from `content/` for the import (`PhotoMark`), found by
/// the photo's path: rows sorted by the path's hash, looked up by halving. As a dictionary of
/// sources it was 200 bytes a photo (each key's string, and buckets half empty); now 40. Paths
/// whose hashes meet have no mark (the import reads those photos again) but are held all the same.
package struct ContentMarks: Sendable {
    private var rows: [(key: UInt64, mark: PhotoMark)]
    /// Hashes two paths or more share.
    private var shared: Set<UInt64> = []

    /// `marks` of paths hashed as `key(of:)` hashes them, in any order: sorted in place, with no
    /// sorted copy beside them while the load reads content/.
    init(_ marks: consuming [(key: UInt64, mark: PhotoMark)]) {
        rows = consume marks
        rows.sort { $0.key < $1.key }
        count = rows.count
        var unique: [(key: UInt64, mark: PhotoMark)] = []
        var at = 0
        while at < rows.count {
            var end = at + 1
            while end < rows.count, rows[end].key == rows[at].key { end += 1 }
            if end > at + 1 {
                if shared.isEmpty { unique = Array(rows[..<at]) }
                shared.insert(rows[at].key)
            } else if !shared.isEmpty {
                unique.append(rows[at])
            }
            at = end
        }
        if !shared.isEmpty { rows = unique }
    }

    /// Whether the model holds a photo of `path`, with a mark or not.
    package func holds(_ path: String) -> Bool {
        self[path] != nil || (!shared.isEmpty && shared.contains(Self.key(of: path)))
    }

    /// The photos the model holds, paths whose hashes meet included.
    package let count: Int

    package subscript(path: String) -> PhotoMark? {
        row(of: path).map(mark(at:))
    }

    /// Where the mark of `path` is among the rows (for `mark(at:)` and `Sightings`); nil when
    /// the model holds no photo of it, or one whose path's hash another's meets.
    package func row(of path: String) -> Int? {
        rows.sortedIndex(of: Self.key(of: path), by: \.key)
    }

    package func mark(at row: Int) -> PhotoMark { rows[row].mark }

    /// Which of the model's photos a build's content listed, marked as its entries come a part
    /// at a time: those left unmarked are the photos whose files are gone.
    package struct Sightings: Sendable {
        private var seen: [Bool]
        /// The paths seen whose hashes meet another's (see `ContentMarks`).
        private var seenShared = Set<String>()
        /// How many of the model's photos were seen.
        package private(set) var count = 0

        package init(of marks: ContentMarks) {
            seen = Array(repeating: false, count: marks.rows.count)
        }

        /// Marks the model's photo of `path` (at `row`, as `ContentMarks.row(of:)` found it), if
        /// it holds one, as listed.
        package mutating func see(_ path: String, at row: Int?, in marks: ContentMarks) {
            if let row {
                if !seen[row] { count += 1 }
                seen[row] = true
            } else if !marks.shared.isEmpty, marks.shared.contains(ContentMarks.key(of: path)) {
                if seenShared.insert(path).inserted { count += 1 }
            }
        }

        /// Whether the model's photo of `path` was listed; true of a photo the model did not
        /// hold when `marks` were read (this build's own).
        package func saw(_ path: String, in marks: ContentMarks) -> Bool {
            if let row = marks.row(of: path) { return seen[row] }
            if !marks.shared.isEmpty, marks.shared.contains(ContentMarks.key(of: path)) { return seenShared.contains(path) }
            return true
        }
    }

    static func key(of path: String) -> UInt64 {
        var path = path
        return path.withUTF8 { key(of: UnsafeRawBufferPointer($0)) }
    }

    static func key(of path: UnsafeRawBufferPointer) -> UInt64 {
        ContentHash.hash(path, seed: 0x6D61_726B)
    }
}

/// What the model already holds about an imported photo, to tell what changed: the columns of
/// its coding keys, read without the rest of the row.
public struct KnownPhoto: Sendable, Equatable, Decodable, FetchableRecord {
    public var identifier: String
    public var checksum: String
    /// The file's size and modification time when it was last read.
    public var fileStamp: String
    /// The catalog record it was last imported with.
    public var fingerprint: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case identifier, checksum, fileStamp, fingerprint
    }

    /// Read by hand: through `Decodable`, a whole library's rows cost a quarter of
    /// a second of every build.
    public init(row: Row) throws {
        identifier = row[CodingKeys.identifier.rawValue]
        checksum = row[CodingKeys.checksum.rawValue]
        fileStamp = row[CodingKeys.fileStamp.rawValue]
        fingerprint = row[CodingKeys.fingerprint.rawValue]
    }

    /// Read by position: the columns of `columns`, in its order, from `first` on. By name, GRDB
    /// looks each one up among the row's columns, for each of a library's photos.
    init(row: Row, from first: Int) {
        identifier = row[first]
        checksum = row[first + 1]
        fileStamp = row[first + 2]
        fingerprint = row[first + 3]
    }

    /// The columns to select, for SQL that reads what the model knows.
    static var columns: String {
        CodingKeys.allCases.map(\.rawValue.quotedDatabaseIdentifier).joined(separator: ", ")
    }
}

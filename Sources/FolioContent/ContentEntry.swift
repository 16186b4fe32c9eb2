import FolioCore
import FolioModel
import Foundation

/// One image under `content/`, with the catalog record that describes it, if any.
public struct ContentEntry: Sendable, Equatable {
    /// Relative to content/.
    public var path: String
    /// Its catalog record; nil when it has none, or when the load let it go (`catalogued`).
    public var record: CatalogRecord? {
        get { held?.value }
        set { held = newValue.map(Boxed.init) }
    }
    /// Where its record is and the record's fingerprint, once the record is let go: a build's
    /// load keeps no more of a record than the import needs to tell an unchanged photo by, and
    /// the import reads again the records of the photos that changed (`CatalogRecord.Place`).
    /// Held, the records would be the largest part of the load step's memory.
    public private(set) var catalogued: CatalogRecord.Place?
    public var stamp: FileStamp
    /// The XMP sidecar beside the image (`photo.jpg.xmp` or `photo.xmp`), as Lightroom and
    /// darktable write them.
    public var sidecar: Sidecar? {
        get { companions?.value.sidecar }
        set { change { $0.sidecar = newValue } }
    }
    /// sigal's description of the photo (`11.md` beside `11.jpg`): a title and Markdown.
    public var markdown: Sidecar? {
        get { companions?.value.markdown }
        set { change { $0.markdown = newValue } }
    }
    /// A Live Photo's clip: the video of the photo's name beside it (`IMG_1.MOV` by `IMG_1.HEIC`).
    public var clip: Sidecar? {
        get { companions?.value.clip }
        set { change { $0.clip = newValue } }
    }
    /// The JSON Google Takeout wrote beside the photo (`IMG_1.jpg.json`, `TakeoutNames`).
    public var takeout: Sidecar? {
        get { companions?.value.takeout }
        set { change { $0.takeout = newValue } }
    }
    /// The other albums, by folder, whose copy of the photo is this one (`Photo.alsoListedIn`).
    public var alsoListedIn: [String] {
        get { companions?.value.alsoListedIn ?? [] }
        set { change { $0.alsoListedIn = newValue } }
    }

    private var held: Boxed<CatalogRecord>?

    /// The files beside the image, held by reference where it has any: most have none, and the
    /// three inline would be a large part of every entry.
    private var companions: Boxed<Companions>?

    private struct Companions: Sendable, Hashable {
        var sidecar: Sidecar?
        var markdown: Sidecar?
        var clip: Sidecar?
        var takeout: Sidecar?
        var alsoListedIn: [String] = []
    }

    public init(path: String, record: CatalogRecord?, stamp: FileStamp, sidecar: Sidecar? = nil, markdown: Sidecar? = nil,
                clip: Sidecar? = nil) {
        self.path = path
        self.stamp = stamp
        self.record = record
        change { $0 = Companions(sidecar: sidecar, markdown: markdown, clip: clip) }
    }

    /// An entry whose record is let go already (`catalogued`): a build's load.
    init(path: String, catalogued: CatalogRecord.Place, stamp: FileStamp) {
        self.path = path
        self.stamp = stamp
        self.catalogued = catalogued
    }

    /// The fingerprint of its record (`CatalogRecord.fingerprintValue`), held or let go; nil
    /// when it has none.
    package var recordFingerprint: UInt64? {
        record?.fingerprintValue ?? catalogued?.fingerprint
    }

    /// Takes back a record let go, read again from its catalog.
    package mutating func takeBack(_ record: CatalogRecord) {
        self.record = record
        catalogued = nil
    }

    /// Where the model says the photo comes from.
    public var source: PhotoSource { .content(path: path) }

    private mutating func change(_ body: (inout Companions) -> Void) {
        var companions = self.companions?.value ?? Companions()
        body(&companions)
        self.companions = companions == Companions() ? nil : Boxed(companions)
    }
}

/// A file that describes the image of the same name: XMP, or sigal's Markdown.
public struct Sidecar: Sendable, Hashable {
    /// Relative to content/.
    public var path: String
    public var stamp: FileStamp
}

/// Everything found under `content/`, and what was wrong with it.
public struct ContentInventory: Sendable {
    public var entries: [ContentEntry] = []
    /// The settings of the albums whose folder has an `album.plist`.
    public var albums: [AlbumInfo] = []
    public var issues: [BuildIssue] = []
    /// Files that are not photos Folio reads, and the companions of photos.
    public var skipped: [SkippedFile] = []
    /// Files the owner left out, by `.nomedia` or `exclude`: never read.
    public var leftOut: [LeftOutFile] = []
    /// Protected albums' passwords, by folder: for this build only, never stored.
    public var passwords: [String: String] = [:]
    /// The password variables albums name that are not set: the build's only inputs outside the
    /// site that can undo an error (`StandingReport.unsetVariables`).
    public var unsetVariables: [String] = []

    /// What a Google Takeout export left unpaired: sidecars and photos without each other.
    public var takeoutGaps = TakeoutGaps()

    /// Folders (relative to content/) that could not be opened: what they hold is not known to
    /// be gone, only unseen.
    public var unreadableFolders: [String] = []

    public init() {}

    /// Whether `path` is inside a folder that could not be opened.
    public func isUnseen(_ path: String) -> Bool {
        unreadableFolders.contains { RelativePath(path).isInside(RelativePath($0)) }
    }
}

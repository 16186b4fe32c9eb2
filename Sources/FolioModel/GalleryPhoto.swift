import FolioCore
import Foundation

/// A photo with the names of its person, place and region: one row of everything a page lists.
///
/// The photo itself is kept packed (`PackedStore`, its snapshot's: past a few megabytes a file
/// the kernel caches, not this process's memory) and read from there whenever `photo` is asked
/// for. What every pass over a library's photos reads (the site's order, its lists by place,
/// person and album, what changed since the last build) is held here beside it, in fewer bytes
/// than the photo's values whole: a build holds one for each photo from its plan to its last page.
public struct GalleryPhoto: Sendable, Hashable {
    public private(set) var id: Int64
    public private(set) var identifier: String
    private var takenBits: UInt64
    public private(set) var uploaded: Date
    private var latitudeBits: UInt64
    private var longitudeBits: UInt64
    /// Everything the photo holds, as one number (`digest(of:)`).
    package private(set) var digest: UInt64
    /// What its published media are made from, as one number (`mediaDigest(of:)`).
    package private(set) var mediaDigest: UInt64
    /// Its folder under content/ (`PhotoSource.folder`: its album), nil at the top or from elsewhere.
    /// One string for all the photos of a folder when a snapshot reads them.
    package private(set) var folder: String?
    /// Its checksum as a number (`Photo.checksumAsNumber`), when it is one (`checksumIsNumber`).
    private var checksumNumber: UInt64
    private var person_: Shared<Person>
    private var place_: Shared<Place>?
    private var region_: Shared<Region>?
    /// Where the photo is packed.
    private var store: PackedStore
    private var offset: Int
    // The one-byte properties last, together: no padding after each.
    public private(set) var favorite: Bool
    /// Whether it moves with a clip of its own (a Live Photo's), whose checksum names media too.
    package private(set) var hasClip: Bool
    /// Whether it is listed in albums besides its folder's (`Photo.alsoListedIn`): only those
    /// photos are unpacked to find which.
    package private(set) var inOtherAlbums: Bool
    private var checksumIsNumber: Bool

    /// The photo as the model has it, unpacked: bind it once where several of its properties are read.
    public var photo: Photo {
        get { store.withRecord(at: offset) { Self.unpacked($0) } }
        set {
            let store = PackedStore(spillingInto: nil)
            self = GalleryPhoto(photo: newValue, person: person_, place: place_, region: region_, store: store)
            store.seal()
        }
    }

    /// The checksum as a number, when it is sixteen lower-case hex digits (as every checksum
    /// Folio makes is): what media are named by, compared without text.
    package var checksumAsNumber: UInt64? { checksumIsNumber ? checksumNumber : nil }

    public var taken: Date? { Absent.real(takenBits).map(Date.init(timeIntervalSinceReferenceDate:)) }
    public var latitude: Double? { Absent.real(latitudeBits) }
    public var longitude: Double? { Absent.real(longitudeBits) }

    /// How an optional number held as its bits says it has no value: a NaN with a payload no
    /// arithmetic makes (a NaN a photo is given is held as that NaN).
    enum Absent {
        static let real: UInt64 = 0x7FF4_F011_0A00_0001

        static func bits(_ value: Double?) -> UInt64 { value?.bitPattern ?? real }
        static func real(_ bits: UInt64) -> Double? { bits == real ? nil : Double(bitPattern: bits) }
    }

    /// The number sixteen lower-case hex digits are; nil for any other text.
    static func hexNumber(_ text: String) -> UInt64? {
        let digits = text.utf8
        guard digits.count == 16, digits.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return UInt64(text, radix: 16)
    }

    /// A packed record as `init` packed it. The same type reads what it wrote, so reading cannot
    /// fail; were it to, the photo would show as one with no text rather than stop the build.
    static func unpacked(_ bytes: UnsafeRawBufferPointer) -> Photo {
        var reader = PackedReader(bytes)
        return (try? unpack(from: &reader))
            ?? Photo(identifier: "", source: .content(path: ""), uploaded: Date(timeIntervalSinceReferenceDate: 0), checksum: "")
    }

    public var person: Person {
        get { person_.value }
        set { person_ = Shared(newValue) }
    }

    /// The ids of its person, place and region, read where they are held: `person.id` copies
    /// the person first (its strings retained and released), once for each of a library's photos.
    package var personId: Int64 { person_.value.id }
    package var placeId: Int64? { place_?.value.id }
    package var regionId: Int64? { region_?.value.id }

    public var place: Place? {
        get { place_?.value }
        set { place_ = newValue.map(Shared.init) }
    }

    public var region: Region? {
        get { region_?.value }
        set { region_ = newValue.map(Shared.init) }
    }

    /// A photo of its own, packed in a store of its own.
    public init(photo: Photo, person: Person, place: Place?, region: Region?) {
        let store = PackedStore(spillingInto: nil)
        self.init(photo: photo, person: Shared(person), place: place.map(Shared.init), region: region.map(Shared.init), store: store)
        store.seal()
    }

    /// `photo` packed into `store`, which is read once it is sealed. `folder`, when given, is
    /// the photo's folder as another photo of the same store has it: one string for both.
    init(photo: Photo, person: Shared<Person>, place: Shared<Place>?, region: Shared<Region>?, store: PackedStore,
         folder: String?? = nil) {
        id = photo.id
        identifier = photo.identifier
        takenBits = Absent.bits(photo.taken?.timeIntervalSinceReferenceDate)
        uploaded = photo.uploaded
        latitudeBits = Absent.bits(photo.latitude)
        longitudeBits = Absent.bits(photo.longitude)
        mediaDigest = Self.mediaDigest(of: photo)
        self.folder = folder ?? photo.source.folder
        favorite = photo.favorite
        hasClip = photo.motion?.clipChecksum != nil
        inOtherAlbums = !photo.alsoListedIn.isEmpty
        let checksumNumber = Self.hexNumber(photo.checksum)
        self.checksumNumber = checksumNumber ?? 0
        checksumIsNumber = checksumNumber != nil
        person_ = person
        place_ = place
        region_ = region
        self.store = store
        // Packing writes values in order and cannot fail for a type whose values are all packable.
        // The packed record holds every property, so its hash is the photo's digest (`digest(of:)`).
        (offset, digest) = store.appendHashed { try? Self.pack(photo, into: &$0) }
    }

    /// What it holds beside its packed record, for a kept snapshot (`KeptSnapshot`): its person
    /// and place by their ids (their names are read again), its folder by `folder`'s number for it.
    func keep(into out: inout PackedWriter, folder number: Int64) {
        out.number(id)
        out.text(identifier)
        out.bits(takenBits)
        out.bits(uploaded.timeIntervalSinceReferenceDate.bitPattern)
        out.bits(latitudeBits)
        out.bits(longitudeBits)
        out.bits(digest)
        out.bits(mediaDigest)
        out.bits(checksumNumber)
        out.number(number)
        out.number((favorite ? 1 : 0) | (hasClip ? 2 : 0) | (checksumIsNumber ? 4 : 0) | (inOtherAlbums ? 8 : 0))
        out.number(person_.value.id)
        out.number(place_?.value.id ?? -1)
    }

    /// What `keep(into:folder:)` wrote, as a kept snapshot's reader has it (`Kept.read`).
    struct Kept {
        var id: Int64
        var identifier: String
        var bits: (taken: UInt64, uploaded: UInt64, latitude: UInt64, longitude: UInt64, digest: UInt64, mediaDigest: UInt64, checksum: UInt64)
        var folder: Int64
        var flags: Int64
        var personId: Int64
        var placeId: Int64?

        /// The identifier alone, read from the start of what `keep(into:folder:)` wrote.
        static func identifier(_ read: inout PackedReader) -> String {
            _ = read.number()
            return read.text()
        }

        static func read(_ read: inout PackedReader) -> Kept {
            let id = read.number()
            let identifier = read.text()
            let bits = (read.bits(), read.bits(), read.bits(), read.bits(), read.bits(), read.bits(), read.bits())
            let folder = read.number()
            let flags = read.number()
            let personId = read.number()
            let placeId = read.number()
            return Kept(id: id, identifier: identifier, bits: bits, folder: folder, flags: flags, personId: personId,
                        placeId: placeId < 0 ? nil : placeId)
        }
    }

    /// A photo of a kept snapshot: its record at `offset` in `store`, the rest as `kept` says,
    /// with the person, place and region the model has now.
    init(kept: Kept, folder: String?, person: Shared<Person>, place: Shared<Place>?, region: Shared<Region>?, store: PackedStore,
         offset: Int) {
        id = kept.id
        identifier = kept.identifier
        takenBits = kept.bits.taken
        uploaded = Date(timeIntervalSinceReferenceDate: Double(bitPattern: kept.bits.uploaded))
        latitudeBits = kept.bits.latitude
        longitudeBits = kept.bits.longitude
        digest = kept.bits.digest
        mediaDigest = kept.bits.mediaDigest
        self.folder = folder
        checksumNumber = kept.bits.checksum
        favorite = kept.flags & 1 != 0
        hasClip = kept.flags & 2 != 0
        checksumIsNumber = kept.flags & 4 != 0
        inOtherAlbums = kept.flags & 8 != 0
        person_ = person
        place_ = place
        region_ = region
        self.store = store
        self.offset = offset
    }

    /// What it holds by reference: its names' boxes and where its record is (`PhotoRows`).
    var parts: (person: Shared<Person>, place: Shared<Place>?, region: Shared<Region>?, store: PackedStore, offset: Int) {
        (person_, place_, region_, store, offset)
    }

    /// The bytes of its packed record.
    func withRecord<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try store.withRecord(at: offset, body)
    }

    public static func == (a: GalleryPhoto, b: GalleryPhoto) -> Bool {
        a.photo == b.photo && a.person == b.person && a.place == b.place && a.region == b.region
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(digest)
        hasher.combine(person)
        hasher.combine(place)
        hasher.combine(region)
    }
}

import FolioCore
import FolioImaging
import Foundation
import GRDB

/// One photo of the gallery, from `content/` or imported from elsewhere.
public struct Photo: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    /// The row's id: what the model and one build's work (renditions, pages) key a photo by.
    /// Every value of this type was read from the model: rows are written only by the import's
    /// upsert, which leaves the id to SQLite (`Photo(importing:)`).
    public var id: Int64
    /// Stable across builds; names the photo's page.
    public var identifier: String
    /// Where it comes from; what an import finds its row by.
    public var source: PhotoSource
    // The one-byte properties straight after the source, in the byte its case leaves before the
    // next eight (Swift lays a struct out in the order it is written): no room of their own.
    public var favorite: Bool
    public var catalogFavorite: Bool
    /// Its file's format, as its bytes said (a remote photo's is JPEG).
    public var format: ImageFormat
    /// What its pixel values mean.
    public var colour: SourceColour
    /// Whether it has transparency its renditions must keep (Imaging's ImageMetadata.transparent).
    public var transparent: Bool
    /// Whether it moves (ImageMetadata.animated): its animation is published beside its stills.
    public var animated: Bool
    private var orientationValue: UInt8
    public var title: String?
    public var personId: Int64
    // The optional numbers below are held as their bits, nil as a bit pattern no value has (see
    // `Absent`): an optional's ninth byte took eight with the padding after it, and sizes as the
    // 32-bit numbers images have. The photo so takes 192 bytes where it took 256, in every photo
    // a site's snapshot holds from the plan to the write (64 MB at a million photos).
    private var placeNumber: Int64
    private var takenBits: UInt64
    public var uploaded: Date
    private var widthValue: Int32
    private var heightValue: Int32
    /// Sixteen lower-case hex digits (every checksum Folio makes, `ContentHash.hex`) as their
    /// number; anything else is held as text in `rare`.
    private var checksumNumber: UInt64
    /// A video's or a Live Photo's motion; nil for a still.
    public var motion: PhotoMotion?
    public var camera: String?
    public var exposure: String?
    private var latitudeBits: UInt64
    private var longitudeBits: UInt64
    /// Stored as a JSON array (see the v11 migration).
    public var tags: [String]
    /// What a photo from Flickr brings: its page, licence and sized image URLs.
    public var remote: RemotePhoto?
    /// What most photos a site draws do not have, held by reference and nil when none is set:
    /// inline, these were 96 of a photo's 360 bytes, for every photo of a library.
    private var rare: Boxed<Rare>?

    public var orientation: Int {
        get { Int(orientationValue) }
        set { orientationValue = UInt8(clamping: newValue) }
    }
    public var placeId: Int64? {
        get { placeNumber == Absent.number ? nil : placeNumber }
        set { placeNumber = newValue ?? Absent.number }
    }
    public var taken: Date? {
        get { Absent.real(takenBits).map(Date.init(timeIntervalSinceReferenceDate:)) }
        set { takenBits = Absent.bits(newValue?.timeIntervalSinceReferenceDate) }
    }
    public var width: Int {
        get { Int(widthValue) }
        set { widthValue = Int32(clamping: newValue) }
    }
    public var height: Int {
        get { Int(heightValue) }
        set { heightValue = Int32(clamping: newValue) }
    }
    public var latitude: Double? {
        get { Absent.real(latitudeBits) }
        set { latitudeBits = Absent.bits(newValue) }
    }
    public var longitude: Double? {
        get { Absent.real(longitudeBits) }
        set { longitudeBits = Absent.bits(newValue) }
    }
    /// Of its bytes (a Flickr photo's: of its thumbnails' URL): what its renditions are named by.
    public var checksum: String {
        get { rare?.value.checksumText ?? ContentHash.hexText(checksumNumber) }
        set {
            let number = Self.hexNumber(newValue)
            checksumNumber = number ?? 0
            // Most photos hold no text, and keep `rare` nil.
            if number == nil || rare?.value.checksumText != nil {
                setRare { $0.checksumText = number == nil ? newValue : nil }
            }
        }
    }

    /// The checksum as its number, when it is sixteen lower-case hex digits (as every checksum
    /// Folio makes is); nil for any other text.
    var checksumAsNumber: UInt64? { rare?.value.checksumText == nil ? checksumNumber : nil }

    /// How an optional property held as its bits says it has no value: a NaN with a payload
    /// no arithmetic makes (a NaN a photo is given is held as that NaN), and for ids the least
    /// number, which SQLite never gives a row.
    enum Absent {
        static let number = Int64.min
        static let real: UInt64 = 0x7FF4_F011_0A00_0001

        static func bits(_ value: Double?) -> UInt64 { value?.bitPattern ?? real }
        static func real(_ bits: UInt64) -> Double? { bits == real ? nil : Double(bitPattern: bits) }
    }

    /// The number sixteen lower-case hex digits are; nil for any other text. As text, sixteen
    /// digits are one byte more than a string holds inline: one on the heap for every photo.
    private static func hexNumber(_ text: String) -> UInt64? {
        let digits = text.utf8
        guard digits.count == 16, digits.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return UInt64(text, radix: 16)
    }

    private struct Rare: Sendable, Hashable {
        var description: String?
        var descriptionHTML: String?
        var fileStamp = ""
        var fingerprint = ""
        var lastError: String?
        var flickrPlaceId: String?
        /// A checksum that is not sixteen hex digits (`checksum`).
        var checksumText: String?

        var isEmpty: Bool { self == Rare() }
    }

    /// The names of every property a photo holds, its own (those held as bits or narrower
    /// numbers by the property's name) and those in `rare`: what a test holds the stamp's
    /// properties to.
    static func heldProperties(of photo: Photo) -> [String] {
        let heldAs = ["orientationValue": "orientation", "placeNumber": "placeId", "takenBits": "taken", "widthValue": "width",
                      "heightValue": "height", "checksumNumber": "checksum", "latitudeBits": "latitude", "longitudeBits": "longitude"]
        return Mirror(reflecting: photo).children.flatMap { child -> [String] in
            switch child.label {
            case "rare": return Mirror(reflecting: Rare()).children.compactMap { $0.label == "checksumText" ? nil : $0.label ?? "?" }
            case let label?: return [heldAs[label] ?? label]
            default: return ["?"]
            }
        }
    }

    private mutating func setRare(_ change: (inout Rare) -> Void) {
        var value = rare?.value ?? Rare()
        change(&value)
        rare = value.isEmpty ? nil : Boxed(value)
    }

    public var description: String? {
        get { rare?.value.description }
        set { setRare { $0.description = newValue } }
    }
    /// The description as HTML, when it was written in Markdown; `description` is its text.
    public var descriptionHTML: String? {
        get { rare?.value.descriptionHTML }
        set { setRare { $0.descriptionHTML = newValue } }
    }
    /// The file's stamp and fingerprint as the import last saw them: what it tells a changed
    /// file by. Empty in a site's snapshot, which does not read them (`readsImportStamps`).
    public var fileStamp: String {
        get { rare?.value.fileStamp ?? "" }
        set { setRare { $0.fileStamp = newValue } }
    }
    public var fingerprint: String {
        get { rare?.value.fingerprint ?? "" }
        set { setRare { $0.fingerprint = newValue } }
    }
    /// Why the last build could not publish it (its file would not read or decode); nil when it
    /// was published. The row stays, with everything set on it, until its source is gone.
    public var lastError: String? {
        get { rare?.value.lastError }
        set { setRare { $0.lastError = newValue } }
    }
    /// Flickr's place id while the place it names is not known yet.
    public var flickrPlaceId: String? {
        get { rare?.value.flickrPlaceId }
        set { setRare { $0.flickrPlaceId = newValue } }
    }

    public init(id: Int64, identifier: String, source: PhotoSource, title: String?, description: String?,
                descriptionHTML: String?, personId: Int64, placeId: Int64?, taken: Date?, uploaded: Date, width: Int,
                height: Int, favorite: Bool, catalogFavorite: Bool, checksum: String, fileStamp: String,
                fingerprint: String, format: ImageFormat, orientation: Int, colour: SourceColour, transparent: Bool,
                animated: Bool, motion: PhotoMotion?, camera: String?, exposure: String?, latitude: Double?,
                longitude: Double?, tags: [String], lastError: String?, remote: RemotePhoto?, flickrPlaceId: String?) {
        self.id = id
        self.identifier = identifier
        self.source = source
        self.title = title
        self.personId = personId
        placeNumber = placeId ?? Absent.number
        self.favorite = favorite
        self.catalogFavorite = catalogFavorite
        self.format = format
        self.colour = colour
        self.transparent = transparent
        self.animated = animated
        takenBits = Absent.bits(taken?.timeIntervalSinceReferenceDate)
        self.uploaded = uploaded
        widthValue = Int32(clamping: width)
        heightValue = Int32(clamping: height)
        orientationValue = UInt8(clamping: orientation)
        let number = Self.hexNumber(checksum)
        checksumNumber = number ?? 0
        self.motion = motion
        self.camera = camera
        self.exposure = exposure
        latitudeBits = Absent.bits(latitude)
        longitudeBits = Absent.bits(longitude)
        self.tags = tags
        self.remote = remote
        let rare = Rare(description: description, descriptionHTML: descriptionHTML, fileStamp: fileStamp,
                        fingerprint: fingerprint, lastError: lastError, flickrPlaceId: flickrPlaceId,
                        checksumText: number == nil ? checksum : nil)
        self.rare = rare.isEmpty ? nil : Boxed(rare)
    }

    public static let databaseTableName = "photo"
    public static let person = belongsTo(Person.self)
    public static let place = belongsTo(Place.self)
    public static let thumbnails = hasMany(Thumbnail.self)
}

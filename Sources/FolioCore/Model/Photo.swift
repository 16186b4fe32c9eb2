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

    /// How an optional property held as its bits says it has no value: a NaN with a payload
    /// no arithmetic makes (a NaN a photo is given is held as that NaN), and for ids the least
    /// number, which SQLite never gives a row.
    private enum Absent {
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

extension Photo {
    /// The columns queries name, made from the coding keys (see `Region.Columns`).
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let identifier = Column(CodingKeys.identifier)
        public static let taken = Column(CodingKeys.taken)
        public static let favorite = Column(CodingKeys.favorite)
    }
}

extension Photo {
    /// The columns, in the order the photo table has them (and `stamp` takes them).
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, identifier, source, title, description, descriptionHTML, personId, placeId, taken, uploaded, width,
             height, favorite, catalogFavorite, checksum, fileStamp, fingerprint, format, orientation, colour,
             transparent, animated, motion, camera, exposure, latitude, longitude, tags, lastError, remote, flickrPlaceId
    }

    // Written out because some properties are held in `rare`: as the compiler would write them
    // for stored properties (optionals present or not), so rows and JSON are as they were.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try values.decode(Int64.self, forKey: .id), identifier: try values.decode(String.self, forKey: .identifier),
            source: try values.decode(PhotoSource.self, forKey: .source),
            title: try values.decodeIfPresent(String.self, forKey: .title),
            description: try values.decodeIfPresent(String.self, forKey: .description),
            descriptionHTML: try values.decodeIfPresent(String.self, forKey: .descriptionHTML),
            personId: try values.decode(Int64.self, forKey: .personId),
            placeId: try values.decodeIfPresent(Int64.self, forKey: .placeId),
            taken: try values.decodeIfPresent(Date.self, forKey: .taken), uploaded: try values.decode(Date.self, forKey: .uploaded),
            width: try values.decode(Int.self, forKey: .width), height: try values.decode(Int.self, forKey: .height),
            favorite: try values.decode(Bool.self, forKey: .favorite),
            catalogFavorite: try values.decode(Bool.self, forKey: .catalogFavorite),
            checksum: try values.decode(String.self, forKey: .checksum), fileStamp: try values.decode(String.self, forKey: .fileStamp),
            fingerprint: try values.decode(String.self, forKey: .fingerprint),
            format: try values.decode(ImageFormat.self, forKey: .format), orientation: try values.decode(Int.self, forKey: .orientation),
            colour: try values.decode(SourceColour.self, forKey: .colour), transparent: try values.decode(Bool.self, forKey: .transparent),
            animated: try values.decode(Bool.self, forKey: .animated),
            motion: try values.decodeIfPresent(PhotoMotion.self, forKey: .motion),
            camera: try values.decodeIfPresent(String.self, forKey: .camera),
            exposure: try values.decodeIfPresent(String.self, forKey: .exposure),
            latitude: try values.decodeIfPresent(Double.self, forKey: .latitude),
            longitude: try values.decodeIfPresent(Double.self, forKey: .longitude),
            tags: try values.decode([String].self, forKey: .tags),
            lastError: try values.decodeIfPresent(String.self, forKey: .lastError),
            remote: try values.decodeIfPresent(RemotePhoto.self, forKey: .remote),
            flickrPlaceId: try values.decodeIfPresent(String.self, forKey: .flickrPlaceId))
    }

    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(id, forKey: .id)
        try values.encode(identifier, forKey: .identifier)
        try values.encode(source, forKey: .source)
        try values.encodeIfPresent(title, forKey: .title)
        try values.encodeIfPresent(description, forKey: .description)
        try values.encodeIfPresent(descriptionHTML, forKey: .descriptionHTML)
        try values.encode(personId, forKey: .personId)
        try values.encodeIfPresent(placeId, forKey: .placeId)
        try values.encodeIfPresent(taken, forKey: .taken)
        try values.encode(uploaded, forKey: .uploaded)
        try values.encode(width, forKey: .width)
        try values.encode(height, forKey: .height)
        try values.encode(favorite, forKey: .favorite)
        try values.encode(catalogFavorite, forKey: .catalogFavorite)
        try values.encode(checksum, forKey: .checksum)
        try values.encode(fileStamp, forKey: .fileStamp)
        try values.encode(fingerprint, forKey: .fingerprint)
        try values.encode(format, forKey: .format)
        try values.encode(orientation, forKey: .orientation)
        try values.encode(colour, forKey: .colour)
        try values.encode(transparent, forKey: .transparent)
        try values.encode(animated, forKey: .animated)
        try values.encodeIfPresent(motion, forKey: .motion)
        try values.encodeIfPresent(camera, forKey: .camera)
        try values.encodeIfPresent(exposure, forKey: .exposure)
        try values.encodeIfPresent(latitude, forKey: .latitude)
        try values.encodeIfPresent(longitude, forKey: .longitude)
        try values.encode(tags, forKey: .tags)
        try values.encodeIfPresent(lastError, forKey: .lastError)
        try values.encodeIfPresent(remote, forKey: .remote)
        try values.encodeIfPresent(flickrPlaceId, forKey: .flickrPlaceId)
    }
}

extension Photo {
    /// Reads a row column by column. The `Decodable` path GRDB offers costs about 9 µs a photo
    /// through the coding containers, and a build reads every photo of the library: at 100,000
    /// photos that was most of the plan step. The JSON columns are decoded only when they hold
    /// something. The coding keys name the columns, as they do when a photo is written.
    public init(row: Row) throws {
        try self.init(row: row, columns: ColumnIndexes(row))
    }

    /// Where each column is in the rows of one statement, found by name once: GRDB finds a
    /// column by name going through the row's columns one by one, and a lookup by name for each
    /// of 31 columns of each of a large library's photos on every build was a third of reading them.
    struct ColumnIndexes {
        let id, identifier, source, title, description, descriptionHTML, personId, placeId, taken, uploaded, width, height, favorite, catalogFavorite, checksum, fileStamp, fingerprint, format, orientation, colour, transparent, animated, motion, camera, exposure, latitude, longitude, tags, lastError, remote, flickrPlaceId: Int
        /// False to leave `fileStamp` and `fingerprint` empty: what the import alone asks of a
        /// photo, not read into a site's snapshot (two strings a photo, 130 MB at a million).
        var readsImportStamps = true
        /// Where the rows' cameras, exposures and tags are held once for all the photos that
        /// have the same (a snapshot's rows); nil to read each photo's as its own.
        var shared: SharedValues?

        init(_ row: Row) throws {
            var indexes: [String: Int] = [:]
            for (index, name) in row.columnNames.enumerated() { indexes[name] = index }
            func at(_ key: CodingKeys) throws -> Int {
                guard let index = indexes[key.stringValue] else {
                    throw DecodingError.valueNotFound(Photo.self, .init(codingPath: [key], debugDescription: "the photo row has no column '\(key.stringValue)'"))
                }
                return index
            }
            id = try at(.id)
            identifier = try at(.identifier)
            source = try at(.source)
            title = try at(.title)
            description = try at(.description)
            descriptionHTML = try at(.descriptionHTML)
            personId = try at(.personId)
            placeId = try at(.placeId)
            taken = try at(.taken)
            uploaded = try at(.uploaded)
            width = try at(.width)
            height = try at(.height)
            favorite = try at(.favorite)
            catalogFavorite = try at(.catalogFavorite)
            checksum = try at(.checksum)
            fileStamp = try at(.fileStamp)
            fingerprint = try at(.fingerprint)
            format = try at(.format)
            orientation = try at(.orientation)
            colour = try at(.colour)
            transparent = try at(.transparent)
            animated = try at(.animated)
            motion = try at(.motion)
            camera = try at(.camera)
            exposure = try at(.exposure)
            latitude = try at(.latitude)
            longitude = try at(.longitude)
            tags = try at(.tags)
            lastError = try at(.lastError)
            remote = try at(.remote)
            flickrPlaceId = try at(.flickrPlaceId)
        }
    }

    /// Reads a row whose columns are where `columns` says.
    init(row: Row, columns: ColumnIndexes) throws {
        func json<T: Decodable>(_ index: Int, _ type: T.Type) throws -> T? {
            guard let text = row[index] as String? else { return nil }
            return try JSONDecoder().decode(T.self, from: Data(text.utf8))
        }
        let sourceText: String = row[columns.source]
        guard let source = PhotoSource(text: sourceText) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [CodingKeys.source], debugDescription: "unknown photo source '\(sourceText)'"))
        }
        self.init(
            id: row[columns.id], identifier: row[columns.identifier], source: source, title: row[columns.title],
            description: row[columns.description], descriptionHTML: row[columns.descriptionHTML],
            personId: row[columns.personId], placeId: row[columns.placeId],
            taken: Self.storedDate(row, at: columns.taken) ?? row[columns.taken],
            uploaded: Self.storedDate(row, at: columns.uploaded) ?? row[columns.uploaded],
            width: row[columns.width], height: row[columns.height], favorite: row[columns.favorite],
            catalogFavorite: row[columns.catalogFavorite], checksum: row[columns.checksum],
            fileStamp: columns.readsImportStamps ? row[columns.fileStamp] : "",
            fingerprint: columns.readsImportStamps ? row[columns.fingerprint] : "",
            format: row[columns.format], orientation: row[columns.orientation], colour: row[columns.colour],
            transparent: row[columns.transparent], animated: row[columns.animated],
            motion: try json(columns.motion, PhotoMotion.self), camera: columns.shared?.text(row[columns.camera]) ?? row[columns.camera],
            exposure: columns.shared?.text(row[columns.exposure]) ?? row[columns.exposure],
            latitude: row[columns.latitude], longitude: row[columns.longitude],
            tags: try columns.shared?.tags(row[columns.tags], read: Self.tags) ?? Self.tags(row[columns.tags]),
            lastError: row[columns.lastError],
            remote: try json(columns.remote, RemotePhoto.self), flickrPlaceId: row[columns.flickrPlaceId])
    }

    /// The cameras, exposures and tag lists many photos have alike ("Canon EOS 5D Mark IV",
    /// "1/250 s at f/5.6, ISO 100", ["family", "beach"]), held once for all of them as one
    /// reading of rows goes: read as each photo's own, a text over 15 bytes and a list of tags
    /// are an allocation each in every photo a snapshot holds. At most `limit` of each kind are
    /// kept, so a library whose every exposure differs pays a table of bounded size, not an entry
    /// more for each photo. Used by one reading, on one thread.
    final class SharedValues {
        static let limit = 4_096
        private var texts: [String: String] = [:]
        private var lists: [String: [String]] = [:]

        /// The same text, held once when it is not short enough to be held inline anyway.
        func text(_ value: String?) -> String? {
            guard let value, value.utf8.count > 15 else { return value }
            if let held = texts[value] { return held }
            if texts.count < Self.limit { texts[value] = value }
            return value
        }

        /// The tags the column's text says, read once for all the photos whose column says the same.
        func tags(_ column: String, read: (String) throws -> [String]) rethrows -> [String] {
            if let held = lists[column] { return held }
            let tags = try read(column)
            if !tags.isEmpty, lists.count < Self.limit { lists[column] = tags }
            return tags
        }
    }

    /// A date as GRDB stores one ("yyyy-MM-dd HH:mm:ss.SSS", UTC), read from the column's bytes:
    /// through the calendar, a library's photos' two dates each were a third of reading them.
    /// The very number GRDB's reading gives (a test holds them to each other); nil for anything
    /// else, which GRDB reads: no date, another form, a year before 1600 (where the calendar is
    /// Julian) or a day the month does not have.
    static func storedDate(_ row: Row, at index: Int) -> Date? {
        (try? row.withUnsafeData(atIndex: index) { data -> Date? in
            guard let data, data.count == 23 else { return nil }
            return data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Date? in
                func number(_ at: Int, _ count: Int) -> Int? {
                    var value = 0
                    for offset in at..<(at + count) {
                        let digit = Int(bytes[offset]) - 0x30
                        guard (0...9).contains(digit) else { return nil }
                        value = value * 10 + digit
                    }
                    return value
                }
                let marks: [(Int, UInt8)] = [(4, 0x2D), (7, 0x2D), (10, 0x20), (13, 0x3A), (16, 0x3A), (19, 0x2E)]
                guard marks.allSatisfy({ bytes[$0.0] == $0.1 }), let year = number(0, 4), let month = number(5, 2),
                      let day = number(8, 2), let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
                      let milliseconds = number(20, 3), year >= 1600, (1...12).contains(month), hour < 24, minute < 60, second < 60
                else { return nil }
                let leap: Bool = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
                let february: Int = leap ? 29 : 28
                let lengths: [Int] = [31, february, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
                guard (1...lengths[month - 1]).contains(day) else { return nil }
                // Days since 2001-01-01 in the Gregorian calendar (the civil-from-days algorithm, reversed).
                let y = month <= 2 ? year - 1 : year
                let era = y / 400
                let yearOfEra = y - era * 400
                let shifted: Int = month > 2 ? month - 3 : month + 9
                let dayOfYear: Int = (153 * shifted + 2) / 5 + day - 1
                let dayOfEra: Int = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
                let days: Int = era * 146_097 + dayOfEra - 719_468 - 11_323
                // The time of day first, then the days: summed in this order, as the calendar
                // does, the sum rounds as its does (near 2001, the other order is one bit off).
                let time = Double(hour * 3_600 + minute * 60 + second) + Double(milliseconds) / 1_000
                return Date(timeIntervalSinceReferenceDate: Double(days) * 86_400 + time)
            }
        }) ?? nil
    }

    /// The tags column, a JSON array of strings. Most are `[]`, or a few words with nothing
    /// escaped (`["a","b c"]`), read here without a decoder (a `JSONDecoder` for each photo's
    /// tags was a fifth of reading the photos); anything else goes to the decoder.
    static func tags(_ text: String) throws -> [String] {
        if text == "[]" { return [] }
        let utf8 = text.utf8
        if utf8.first == UInt8(ascii: "["), utf8.last == UInt8(ascii: "]"), !utf8.contains(UInt8(ascii: "\\")) {
            // Between the brackets: "…","…", nothing but quotes and commas outside the quotes.
            var tags: [String] = []
            var rest = utf8.dropFirst().dropLast()
            var plain = true
            while plain, rest.first == UInt8(ascii: "\"") {
                rest = rest.dropFirst()
                guard let close = rest.firstIndex(of: UInt8(ascii: "\"")) else { plain = false; break }
                tags.append(String(decoding: rest[..<close], as: UTF8.self))
                rest = rest[rest.index(after: close)...]
                if rest.first == UInt8(ascii: ",") {
                    rest = rest.dropFirst()
                    plain = rest.first == UInt8(ascii: "\"")
                }
            }
            if plain, rest.isEmpty { return tags }
        }
        return try JSONDecoder().decode([String].self, from: Data(text.utf8))
    }
}

import Foundation
import GRDB

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
            motion: try json(columns.motion, PhotoMotion.self), camera: row[columns.camera],
            exposure: row[columns.exposure],
            latitude: row[columns.latitude], longitude: row[columns.longitude],
            tags: try Self.tags(row[columns.tags]),
            lastError: row[columns.lastError],
            remote: try json(columns.remote, RemotePhoto.self), flickrPlaceId: row[columns.flickrPlaceId])
    }

    /// The row's values, column by column: the values GRDB's `Encodable` path gives (a test
    /// holds the two to each other), without its coding container for each column, or its
    /// trying each JSON column as a single value before it makes a JSON encoder for it. Dates as
    /// GRDB stores them; the JSON columns through the encoder GRDB would make, an empty list of
    /// tags as it writes one (`[]`).
    func columnValues() throws -> [DatabaseValue] {
        func json(_ value: some Encodable, _ key: CodingKeys) throws -> DatabaseValue {
            String(decoding: try Self.databaseJSONEncoder(for: key.stringValue).encode(value), as: UTF8.self).databaseValue
        }
        return [
            id.databaseValue, identifier.databaseValue, source.databaseValue, title.databaseValue,
            description.databaseValue, descriptionHTML.databaseValue, personId.databaseValue, placeId.databaseValue,
            taken.databaseValue, uploaded.databaseValue, width.databaseValue, height.databaseValue,
            favorite.databaseValue, catalogFavorite.databaseValue, checksum.databaseValue, fileStamp.databaseValue,
            fingerprint.databaseValue, format.databaseValue, orientation.databaseValue, colour.databaseValue,
            transparent.databaseValue, animated.databaseValue, try motion.map { try json($0, .motion) } ?? .null,
            camera.databaseValue, exposure.databaseValue, latitude.databaseValue, longitude.databaseValue,
            tags.isEmpty ? "[]".databaseValue : try json(tags, .tags), lastError.databaseValue,
            try remote.map { try json($0, .remote) } ?? .null, flickrPlaceId.databaseValue,
        ]
    }

    /// The columns in the order of `columnValues`: the coding keys'.
    static let columnNames = CodingKeys.allCases.map(\.stringValue)

    public func encode(to container: inout PersistenceContainer) throws {
        try encodeColumns(to: &container)
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

extension Photo: ColumnRecord {}

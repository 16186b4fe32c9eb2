import FolioCore
import FolioModel
import FolioTestSupport
import Foundation

/// A photographer's whole library in miniature: many small photos, catalogued as a library
/// would be (one catalog per folder of a thousand), with people, places, regions, favorites and
/// tags spread as in a real one: one photographer with 30% of the photos, a long tail of people
/// and places, a few favorites. The pixels are a handful of tiny JPEGs, each copy made distinct
/// by a comment segment, so that even the largest library is quick to make and every photo is a
/// photo of its own to Folio (its own checksum, its own thumbnails).
final class Library: @unchecked Sendable {
    let root: URL
    let photos: Int
    /// Every record in one catalog (`content/catalog.plist`) rather than one per folder.
    let oneCatalog: Bool
    /// No catalogs: a Google Takeout export, each photo in its year's folder with its JSON, one in
    /// ten again in one of twenty albums (`Takeout`).
    let takeout: Bool
    /// People in a Zipf curve (the k-th busiest with a share in 1/k^1.5), the busiest with about
    /// 40% of the photos: a family's library, where one person is in hundreds of thousands.
    let zipf: Bool
    /// The Zipf curve's running shares, by person, when `zipf` (made before any thread reads them).
    private let zipfShares: [Double]
    /// The records edited so far, which stay edited: each edit changes only what it says. Only
    /// the benchmark's one thread edits; the concurrent writers read none of it.
    private var edited: [Int: Record] = [:]

    init(root: URL, photos: Int, oneCatalog: Bool = false, takeout: Bool = false, zipf: Bool = false) {
        self.root = root
        self.photos = photos
        self.oneCatalog = oneCatalog
        self.takeout = takeout
        self.zipf = zipf
        var shares: [Double] = []
        var total = 0.0
        for rank in 1...Self.peopleCount(photos) {
            total += 1 / pow(Double(rank), 1.5)
            shares.append(total)
        }
        zipfShares = zipf ? shares.map { $0 / total } : []
    }

    static let perFolder = 1000
    static let bases = 16

    var site: URL { root.appendingPathComponent("site") }
    var content: URL { site.appendingPathComponent("content") }
    var folders: Int { (photos + Self.perFolder - 1) / Self.perFolder }
    var peopleCount: Int { Self.peopleCount(photos) }
    static func peopleCount(_ photos: Int) -> Int { max(12, photos / 500) }
    var placeCount: Int { max(20, photos / 100) }
    var regionCount: Int { max(8, min(200, photos / 1000)) }

    func describe() -> String {
        let described = takeout ? "a Google Takeout export (a JSON each, one in ten in an album too)" : oneCatalog ? "one catalog" : "\(folders) catalogs"
        let people = zipf ? "in a Zipf curve, the busiest with about 40%" : "one with 30%"
        return "160x120 JPEGs, \(described), \(peopleCount) people (\(people)), \(placeCount) places in \(regionCount) regions, with GPS"
    }

    func folder(_ index: Int) -> String { "library/\(String(format: "%04d", index / Self.perFolder))" }
    func catalogPath(folder: Int) -> String { "library/\(String(format: "%04d", folder))/catalog.plist" }

    /// What one photo's record says; `edit` overrides as an editor changed it.
    struct Record {
        var title: String
        var person: String
        var place: String?
        var region: String?
        var taken: Date
        var favorite: Bool
        var description: String?
        var tags: [String]
        /// Where it was taken: about where its place is, as a phone's GPS says (the Map's input).
        var latitude: Double?
        var longitude: Double?
    }

    /// A fixed random number per photo and purpose, from 0 up to 1.
    private func random(_ index: Int, _ purpose: UInt64) -> Double {
        var x = UInt64(index) &* 0x9E37_79B9_7F4A_7C15 &+ purpose &* 0xBF58_476D_1CE4_E5B9
        x ^= x >> 31; x = x &* 0x94D0_49BB_1331_11EB; x ^= x >> 29
        return Double(x >> 11) / Double(1 << 53)
    }

    func personName(_ number: Int) -> String { number == 0 ? "Ansel" : "Person \(number)" }
    func regionName(_ number: Int) -> String { "Region \(number)" }
    /// Places belong to regions by number, so a place's region never changes.
    func placeName(_ number: Int) -> (place: String, region: String) {
        let region = regionName(number % regionCount)
        return ("Town \(number), \(region), Country \(number % regionCount % 12)", region)
    }

    /// Where a town is: its region's spot on the land-ish part of the world, the town within a
    /// couple of degrees of it, so places cluster by region on the Map as libraries' do.
    func placeCoordinate(_ number: Int) -> (latitude: Double, longitude: Double) {
        let region = number % regionCount
        let (regionLatitude, regionLongitude) = (random(region, 7) * 110 - 45, random(region, 8) * 340 - 170)
        return (regionLatitude + random(number, 9) * 4 - 2, regionLongitude + random(number, 10) * 4 - 2)
    }

    /// A photo's GPS: a few hundred metres about its town.
    func photoCoordinate(_ index: Int, place: Int) -> (latitude: Double, longitude: Double) {
        let town = placeCoordinate(place)
        return (town.latitude + random(index, 11) * 0.006 - 0.003, town.longitude + random(index, 12) * 0.006 - 0.003)
    }

    func record(_ index: Int) -> Record {
        // The dominant photographer has 30%; the others share the rest, the first few most.
        let person = zipf ? zipfPerson(random(index, 1))
            : random(index, 1) < 0.3 ? 0 : 1 + Int(pow(random(index, 2), 2.2) * Double(peopleCount - 1))
        // A few places hold most photos (home, a favourite city), and most places few.
        let placed = random(index, 3) < 0.85
        let placeNumber = Int(pow(random(index, 4), 2.5) * Double(placeCount))
        let (place, region) = placeName(placeNumber)
        // Ten years, newest last, none in the last day (no "hours ago" to move on).
        let taken = Date(timeIntervalSince1970: 1_420_000_000 + Double(index) / Double(max(photos, 1)) * 315_000_000)
        let tagWords = ["sunset", "family", "street", "portrait", "travel", "snow", "beach", "night"]
        let tags = random(index, 6) < 0.3 ? [tagWords[index % tagWords.count]] : []
        let gps = photoCoordinate(index, place: placeNumber)
        return Record(title: "Photo \(index)", person: personName(person),
                      place: placed ? place : nil, region: placed ? region : nil, taken: taken,
                      favorite: random(index, 5) < 0.03,
                      description: index % 7 == 0 ? "A photo of the library, number \(index)." : nil, tags: tags,
                      latitude: placed ? gps.latitude : nil, longitude: placed ? gps.longitude : nil)
    }

    /// The person whose running share first reaches `draw` (0 up to 1).
    private func zipfPerson(_ draw: Double) -> Int {
        var (low, high) = (0, peopleCount - 1)
        while low < high {
            let middle = (low + high) / 2
            if zipfShares[middle] < draw { low = middle + 1 } else { high = middle }
        }
        return low
    }

    func photoPath(_ index: Int) -> String {
        takeout ? Takeout.photoPath(index, year: year(index)) : "\(folder(index))/photo-\(index).jpg"
    }

    /// The year photo `index` was taken in, as Takeout's folders are named.
    func year(_ index: Int) -> Int { Calendar(identifier: .gregorian).component(.year, from: record(index).taken) }

    /// Makes what is missing; a library of the same size is reused, its catalogs put back as made.
    func make() throws -> Bool {
        let marker = root.appendingPathComponent("library.done")
        if FileManager.default.fileExists(atPath: marker.path) {
            try writeCatalogs()
            return false
        }
        try? FileManager.default.removeItem(at: root)
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        let bases = try (0..<Self.bases).map { base -> Data in
            var photo = SamplePhoto(width: 160, height: 120, seed: UInt64(base + 1) &* 2_654_435_761)
            photo.quality = 85
            photo.make = "Folio"
            photo.model = "Library \(base % 3)"
            return try photo.jpeg()
        }
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: folders) { folderIndex in
            do {
                for index in folderIndex * Self.perFolder..<min(photos, (folderIndex + 1) * Self.perFolder) {
                    let photo = content.appendingPathComponent(photoPath(index))
                    try FileManager.default.createDirectory(at: photo.deletingLastPathComponent(), withIntermediateDirectories: true)
                    let bytes = Self.distinct(bases[index % Self.bases], index)
                    try bytes.write(to: photo)
                    if takeout, let album = Takeout.album(of: index) {
                        let copy = content.appendingPathComponent(Takeout.albumPhotoPath(index, album: album))
                        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
                        try bytes.write(to: copy)
                    }
                }
            } catch {
                failures.add("\(error)")
            }
        }
        if let first = failures.first { throw BenchError("cannot make the library: \(first)") }
        try writeCatalogs()
        try Data().write(to: marker)
        return true
    }

    /// The JPEG with a comment segment right after SOI naming the photo: other bytes, the same pixels.
    static func distinct(_ jpeg: Data, _ index: Int) -> Data {
        let comment = Data("folio-bench \(index)".utf8)
        let length = comment.count + 2
        return Data([0xFF, 0xD8, 0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)]) + comment + jpeg.dropFirst(2)
    }

    /// Every catalog as made, without edits; in one catalog, or one for each folder and none at
    /// the top, as the library is asked for.
    func writeCatalogs() throws {
        edited = [:]
        if takeout { return try writeSidecars(Array(0..<photos)) }
        let one = content.appendingPathComponent(Self.oneCatalogPath)
        if oneCatalog {
            for folderIndex in 0..<folders { try? FileManager.default.removeItem(at: content.appendingPathComponent(catalogPath(folder: folderIndex))) }
            return try writeOneCatalog()
        }
        try? FileManager.default.removeItem(at: one)
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: folders) { folderIndex in
            do { try writeCatalog(folderIndex, edits: [:]) } catch { failures.add("\(error)") }
        }
        if let first = failures.first { throw BenchError("cannot write the catalogs: \(first)") }
    }

    static let oneCatalogPath = "catalog.plist"

    /// The one catalog of every photo, with the edits made so far.
    func writeOneCatalog() throws {
        let records = (0..<photos).map { dictionary(edited[$0] ?? record($0), path: photoPath($0)) }
        let data = try PropertyListSerialization.data(fromPropertyList: records, format: .xml, options: 0)
        // Folio refuses a larger property list, and would build a library without its catalog.
        guard data.count <= ReadingLimits.propertyListBytes else {
            throw BenchError("one catalog of \(photos) photos is \(data.count >> 20) MB, more than the \(ReadingLimits.propertyListBytes >> 20) MB "
                             + "Folio reads: fewer photos, or the library without --one-catalog")
        }
        try data.write(to: content.appendingPathComponent(Self.oneCatalogPath), options: .atomic)
    }

    /// One folder's catalog, XML as people write them, with `edits` in place of what was made.
    func writeCatalog(_ folderIndex: Int, edits: [Int: Record]) throws {
        var records: [[String: Any]] = []
        for index in folderIndex * Self.perFolder..<min(photos, (folderIndex + 1) * Self.perFolder) {
            records.append(dictionary(edits[index] ?? self.record(index), path: "photo-\(index).jpg"))
        }
        let data = try PropertyListSerialization.data(fromPropertyList: records, format: .xml, options: 0)
        try data.write(to: content.appendingPathComponent(catalogPath(folder: folderIndex)), options: .atomic)
    }

    /// A record as a catalog holds it, naming its photo by `path` (relative to the catalog).
    private func dictionary(_ record: Record, path: String) -> [String: Any] {
        var dictionary: [String: Any] = ["path": path, "name": record.title, "user": record.person,
                                         "taken": record.taken]
        if let place = record.place { dictionary["place"] = place }
        if let region = record.region { dictionary["region"] = region }
        if record.favorite { dictionary["favorite"] = true }
        if let description = record.description { dictionary["description"] = description }
        if !record.tags.isEmpty { dictionary["tags"] = record.tags }
        if let latitude = record.latitude, let longitude = record.longitude {
            (dictionary["latitude"], dictionary["longitude"]) = (latitude, longitude)
        }
        return dictionary
    }

    /// Edits `indices` as an editor would in their catalogs: a new title each time, and with
    /// `moving`, the favorite flag turned over and another place.
    func edit(_ indices: [Int], round: Int, moving: Bool) throws {
        var folders = Set<Int>()
        let stamp = Int(Date().timeIntervalSince1970 * 1000) % 1_000_000
        for index in indices {
            var record = record(index)
            record.title = "Photo \(index), edited \(round)-\(stamp)"
            // Takeout keeps no title: its edit is the description.
            if takeout { record.description = record.title }
            if moving {
                record.favorite = round % 2 == 0 ? !record.favorite : record.favorite
                let number = (index + 1 + round) % placeCount
                let (place, region) = placeName(number)
                (record.place, record.region) = (place, region)
                let gps = photoCoordinate(index, place: number)
                (record.latitude, record.longitude) = (gps.latitude, gps.longitude)
            }
            edited[index] = record
            folders.insert(index / Self.perFolder)
        }
        if takeout { return try writeSidecars(indices) }
        if oneCatalog { return try writeOneCatalog() }
        for folderIndex in folders.sorted() {
            let range = folderIndex * Self.perFolder..<(folderIndex + 1) * Self.perFolder
            try writeCatalog(folderIndex, edits: edited.filter { range.contains($0.key) })
        }
    }

    /// The Takeout JSON of `indices` (and of their albums' copies), with the edits made so far;
    /// the albums' `metadata.json`.
    func writeSidecars(_ indices: [Int]) throws {
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: (indices.count + 255) / 256) { batch in
            do {
                for index in indices[batch * 256..<min(indices.count, (batch + 1) * 256)] {
                    let json = try Takeout.sidecar(edited[index] ?? record(index), index: index)
                    try json.write(to: content.appendingPathComponent(photoPath(index) + ".json"))
                    if let album = Takeout.album(of: index) {
                        try json.write(to: content.appendingPathComponent(Takeout.albumPhotoPath(index, album: album) + ".json"))
                    }
                }
            } catch {
                failures.add("\(error)")
            }
        }
        if let first = failures.first { throw BenchError("cannot write the sidecars: \(first)") }
        for album in 0..<Takeout.albums {
            let folder = content.appendingPathComponent(Takeout.albumFolder(album))
            guard FileManager.default.fileExists(atPath: folder.path) else { continue }
            let metadata = ["title": "Trip \(album)", "description": "", "access": "protected"]
            try JSONSerialization.data(withJSONObject: metadata).write(to: folder.appendingPathComponent("metadata.json"))
        }
    }

    /// How a Google Takeout export lays the library out.
    enum Takeout {
        static let root = "Takeout/Google Photos"
        static let albums = 20

        static func photoPath(_ index: Int, year: Int) -> String { "\(root)/Photos from \(year)/photo-\(index).jpg" }
        /// One photo in ten is in an album too.
        static func album(of index: Int) -> Int? { index % 10 == 3 ? index / 10 % albums : nil }
        static func albumFolder(_ album: Int) -> String { "\(root)/Trip \(album)" }
        static func albumPhotoPath(_ index: Int, album: Int) -> String { "\(albumFolder(album))/photo-\(index).jpg" }

        /// A photo's JSON as Takeout writes it: no date or place in the file, so both come from here.
        static func sidecar(_ record: Record, index: Int) throws -> Data {
            var json: [String: Any] = [
                "title": "photo-\(index).jpg", "description": record.description ?? "",
                "photoTakenTime": ["timestamp": String(Int(record.taken.timeIntervalSince1970))],
                "geoData": ["latitude": record.latitude ?? 0, "longitude": record.longitude ?? 0, "altitude": 0],
            ]
            if record.favorite { json["favorited"] = true }
            if index % 5 == 0 { json["people"] = [["name": record.person]] }
            return try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])
        }
    }

    /// The folder of `addProblems`, beside the library's own.
    var problems: URL { content.appendingPathComponent("problems") }

    /// A few files as every real library has them: `count` photos cut short (each an error) and
    /// `count` good photos whose sidecars will not read (each a warning).
    func addProblems(_ count: Int) throws {
        try FileManager.default.createDirectory(at: problems, withIntermediateDirectories: true)
        let photo = try Data(contentsOf: content.appendingPathComponent(photoPath(0)))
        for number in 0..<count {
            try Self.distinct(photo, -1 - number).prefix(photo.count / 3).write(to: problems.appendingPathComponent("cut-\(number).jpg"))
            try Self.distinct(photo, -1_000 - number).write(to: problems.appendingPathComponent("good-\(number).jpg"))
            try Data(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF"#.utf8).write(to: problems.appendingPathComponent("good-\(number).xmp"))
        }
    }

    func removeProblems() throws {
        try? FileManager.default.removeItem(at: problems)
    }

    /// Where `takeAway` keeps a photo's file, outside the site.
    private func aside(_ index: Int) -> URL { root.appendingPathComponent("aside-\(index).jpg") }

    /// Moves photo `index`'s file out of content/ (its record stays in its catalog).
    func takeAway(_ index: Int) throws {
        try FileManager.default.moveItem(at: content.appendingPathComponent(photoPath(index)), to: aside(index))
    }

    func putBack(_ index: Int) throws {
        try FileManager.default.moveItem(at: aside(index), to: content.appendingPathComponent(photoPath(index)))
    }

    /// Gives every photo's file a new modification time, its bytes the same: a library copied
    /// or restored without its times, as `cp -r` and many backups leave it.
    func touchEveryFile(round: Int) throws {
        let date = Date(timeIntervalSince1970: 1_900_000_000 + Double(round) * 60)
        for index in 0..<photos {
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: content.appendingPathComponent(photoPath(index)).path)
        }
    }
}

@testable import FolioContent
@testable import FolioCore
@testable import FolioPipeline
import FolioTestSupport
import Foundation
import XCTest

/// Catalogs that did not change are read from the cache, not parsed: read back as they were
/// parsed, and parsed again whenever the bytes, the Folio or the cache itself differ.
final class CatalogCacheTests: XCTestCase {
    func testAReadingComesBackAsItWasParsed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-catalogs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let records: [Any] = [
            ["path": "a/one.jpg", "name": "Café ☕︎ at dawn", "user": "Josh", "description": "Two\nlines",
             "place": "Palo Alto, California, United States", "region": "California", "latitude": 37.44, "longitude": -122.14,
             "taken": Date(timeIntervalSince1970: 1_600_000_000.5), "uploaded": Date(timeIntervalSince1970: 1_700_000_000),
             "favorite": true, "tags": ["sea", "", "snow"], "colour": "blue"],
            ["path": " two.jpg ", "user": 3],
            ["name": "no path"],
            "not a record",
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: records, format: .xml, options: 0)
        let reader = CatalogReader(contentRoot: folder, files: LocalFileAccess())
        let parsed = reader.parse(data, catalog: "trips/c.plist")
        XCTAssertEqual(parsed.records.count, 2)
        XCTAssertFalse(parsed.issues.isEmpty)

        let cache = CatalogCache(folder: folder, reader: "folio A")
        let key = cache.key(catalog: "trips/c.plist", data: data)
        XCTAssertNil(cache.load(key))
        cache.store(parsed, key: key, of: "trips/c.plist")
        let cached = try XCTUnwrap(cache.load(key))
        XCTAssertEqual(cached.records, parsed.records)
        XCTAssertEqual(cached.issues, parsed.issues)
        XCTAssertEqual(cached.trimmedPaths, parsed.trimmedPaths)
        XCTAssertEqual(cached.trimmedPaths, [nil, "trips/two.jpg"])
        // Each record's fingerprint is kept with it: a build does not hash a cached catalog again.
        XCTAssertEqual(parsed.fingerprints, parsed.records.map(\.fingerprintValue))
        XCTAssertEqual(cached.fingerprints, parsed.fingerprints)

        XCTAssertNotEqual(CatalogCache(folder: folder, reader: "folio B").key(catalog: "trips/c.plist", data: data), key,
                          "another Folio reads again")
        XCTAssertNotEqual(cache.key(catalog: "c.plist", data: data), key, "paths are read from where the catalog is")
        XCTAssertNotEqual(cache.key(catalog: "trips/c.plist", data: data + Data(" ".utf8)), key)

        // A reading cut short is no reading.
        let file = folder.appendingPathComponent(key)
        let whole = try Data(contentsOf: file)
        try whole.dropLast(3).write(to: file)
        XCTAssertNil(cache.load(key))
        try (whole + Data([0])).write(to: file)
        XCTAssertNil(cache.load(key))

        cache.prune(keeping: [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    /// A reading of thousands of records is read chunk by chunk, each from where the reading
    /// says it begins: the same as it was written; and where a chunk would not begin where the
    /// last one ends, or the reading is cut anywhere, no reading at all.
    func testALargeReadingComesBackChunkByChunk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-catalogs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = Self.document((0..<20_000).map { Self.element($0) })
        let parsed = CatalogReader(contentRoot: folder, files: LocalFileAccess()).parse(data, catalog: "c.plist", elements: XMLPlist.elements(data))
        XCTAssertGreaterThan(parsed.records.count, 2 * CatalogCache.recordsPerChunk)
        let cache = CatalogCache(folder: folder, reader: "folio A")
        cache.store(parsed, key: "k", of: "c.plist")
        let cached = try XCTUnwrap(cache.load("k"))
        XCTAssertEqual(cached.records, parsed.records)
        XCTAssertEqual(cached.trimmedPaths, parsed.trimmedPaths)
        XCTAssertEqual(cached.fingerprints, parsed.fingerprints)
        XCTAssertEqual(cached.issues, parsed.issues)
        XCTAssertEqual(cached.elements, parsed.elements)

        let file = folder.appendingPathComponent("k")
        let whole = try Data(contentsOf: file)
        // The heading, the count of records and of chunks, then where each chunk begins.
        let secondStart = 16 + 8 + 8 + 8
        for start in [-8, 0, 1, Int(Int32.max)] {
            var changed = whole
            let was = changed.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: secondStart, as: Int64.self) }
            withUnsafeBytes(of: (start == 1 ? was + 1 : Int64(start)).littleEndian) { changed.replaceSubrange(secondStart..<(secondStart + 8), with: $0) }
            try changed.write(to: file)
            XCTAssertNil(cache.load("k"), "the second chunk said to begin at \(start)")
        }
        var random = SplitMix64(2026_12_05)
        for _ in 0..<40 {
            try whole.prefix(Int.random(in: 0..<whole.count, using: &random)).write(to: file)
            XCTAssertNil(cache.load("k"))
        }
    }

    /// A record whose path is found only without its stray spaces is fingerprinted with the
    /// path it is taken with, parsed or from the cache: the same number either way.
    func testAKeptFingerprintFollowsATrimmedPath() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-trimmed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let content = root.appendingPathComponent("content")
        try FileManager.default.createDirectory(at: content.appendingPathComponent("trips"), withIntermediateDirectories: true)
        try Data("not read".utf8).write(to: content.appendingPathComponent("trips/two.jpg"))
        try PropertyListSerialization.data(fromPropertyList: [["path": " two.jpg ", "name": "Two"], ["path": "one.jpg"]],
                                           format: .xml, options: 0)
            .write(to: content.appendingPathComponent("trips/c.plist"))
        let reader = CatalogReader(contentRoot: content, files: LocalFileAccess(),
                                   cache: CatalogCache(folder: root.appendingPathComponent("cache"), reader: "folio A"))
        let parsed = reader.read(catalog: "trips/c.plist")
        let cached = reader.read(catalog: "trips/c.plist")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("cache").path).count, 2,
                       "one reading, and the catalog's pointer to it")
        for result in [parsed, cached] {
            XCTAssertEqual(result.records.map(\.path), ["trips/two.jpg", "trips/one.jpg"])
            XCTAssertEqual(result.fingerprints, result.records.map(\.fingerprintValue))
        }
    }

    func testABuildReadsAnUnchangedCatalogFromTheCacheAndAnEditedOneAnew() async throws {
        let site = try TestSite.threePhotos()
        try await site.build()
        let folder = site.paths.catalogCache
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        // A pointer's name begins with "p", which no hex digit is.
        let kept = files.filter { !$0.hasPrefix("p") }
        XCTAssertEqual(kept.count, 1, "one catalog, one reading")
        XCTAssertEqual(files.count, 2, "and its pointer")

        // The cache is what is read: a reading that says otherwise is believed (so nothing was parsed).
        let cache = CatalogCache(folder: folder, reader: try XCTUnwrap(String(contentsOf: site.paths.state
            .appendingPathComponent(FolioIdentity.cacheName), encoding: .utf8).split(separator: " ").last.map {
                "folio \(FolioVersion.number) \($0.trimmingCharacters(in: .whitespacesAndNewlines))"
            }))
        var reading = try XCTUnwrap(cache.load(kept[0]))
        reading.records[0].name = "Read from the cache"
        reading.fingerprints[0] = reading.records[0].fingerprintValue
        cache.store(reading, key: kept[0], of: "FakeData.plist")
        // The catalog touched, its bytes as they were: the build reads content/ again (a walk that
        // finds content/ as it was stops before any catalog is read).
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)],
                                              ofItemAtPath: site.content.appendingPathComponent("FakeData.plist").path)
        try await site.build()
        XCTAssertTrue(try site.read("photos/\(try site.identifier("one.jpg")).html").contains("Read from the cache"))

        // An edited catalog is other bytes: parsed, and the old reading forgotten.
        try site.catalog("FakeData.plist", [
            ["path": "one.jpg", "name": "Edited", "user": "Josh"],
            ["path": "two.jpg", "user": "Al"],
        ])
        let edited = try await site.build()
        XCTAssertTrue(edited.succeeded, edited.issues.description)
        XCTAssertTrue(try site.read("photos/\(try site.identifier("one.jpg")).html").contains("Edited"))
        let now = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix("p") }
        XCTAssertEqual(now.count, 1)
        XCTAssertNotEqual(now, kept)

        // A broken cache costs only the parse.
        try Data("nonsense".utf8).write(to: folder.appendingPathComponent(now[0]))
        try FileManager.default.removeItem(at: site.paths.state)
        let again = try await site.build()
        XCTAssertTrue(again.succeeded, again.issues.description)
        XCTAssertTrue(try site.read("photos/\(try site.identifier("one.jpg")).html").contains("Edited"))
    }
    /// A catalog written well before it is read is known by its size and time, and not read at
    /// all once its reading is kept; one written just now is known by its bytes, so a rewrite
    /// as long within the same second (the same stamp, on a file system with coarse times) is
    /// still seen; and a catalog that changed since the walk stamped it is not kept under that stamp.
    func testASettledCatalogIsKnownByItsStampAndARecentOneByItsBytes() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-settled-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let content = root.appendingPathComponent("content"), folder = root.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        let catalog = content.appendingPathComponent("c.plist")
        func write(_ name: String, modified: Date) throws {
            try PropertyListSerialization.data(fromPropertyList: [["path": "a.jpg", "name": name]], format: .xml, options: 0)
                .write(to: catalog)
            try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: catalog.path)
        }
        let files = RecordingFileAccess()
        let reader = CatalogReader(contentRoot: content, files: files, cache: CatalogCache(folder: folder, reader: "folio A"))
        let now = Date()
        func read(at time: Date = now) -> (name: String?, reads: Int, key: String?) {
            files.reset()
            let result = reader.read(catalog: "c.plist", stamp: files.stamp(of: catalog), now: time)
            return (result.records.first?.name, files.reads.count, result.cacheKeys.first)
        }

        // Written just now: read every time, by its bytes.
        let recent = now.addingTimeInterval(-1)
        try write("Harbour", modified: recent)
        XCTAssertEqual(read().name, "Harbour")
        XCTAssertEqual(read().reads, 1)
        try write("Harbuor", modified: recent)
        XCTAssertEqual(files.stamp(of: catalog)?.text, LocalFileAccess().stamp(of: catalog)?.text)
        XCTAssertEqual(read().name, "Harbuor", "the same size and time, other bytes: seen")

        // Settled: read once more (its reading kept by its stamp), then not at all.
        let settled = read(at: now.addingTimeInterval(CatalogCache.settling + 1))
        XCTAssertEqual(settled.name, "Harbuor")
        XCTAssertEqual(settled.reads, 1)
        XCTAssertTrue(settled.key?.hasPrefix("s") == true)
        let again = read(at: now.addingTimeInterval(CatalogCache.settling + 1))
        XCTAssertEqual([again.name, again.key], ["Harbuor", settled.key])
        XCTAssertEqual(again.reads, 0, "a settled catalog whose reading is kept is not read")

        // Written again, long ago as far as its time says: another stamp, read again.
        let old = now.addingTimeInterval(-3600)
        try write("Harbour at dawn", modified: old)
        XCTAssertEqual(read().name, "Harbour at dawn")
        XCTAssertEqual(read().reads, 0)

        // Changed between the walk's stamp and the read: taken as read, kept under no stamp.
        let walked = try XCTUnwrap(files.stamp(of: catalog))
        try write("Pier", modified: old.addingTimeInterval(-60))
        files.reset()
        let raced = reader.read(catalog: "c.plist", stamp: walked, now: now)
        XCTAssertEqual(raced.records.first?.name, "Harbour at dawn", "the reading kept under the walk's stamp")
        let moved = reader.read(catalog: "c.plist", stamp: FileStamp(size: walked.size, modified: walked.modified.addingTimeInterval(1)),
                                now: now)
        XCTAssertEqual(moved.records.first?.name, "Pier")
        XCTAssertFalse(moved.cacheKeys.first?.hasPrefix("s") == true, "the file is not the one stamped: kept by its bytes")
    }

    // MARK: - A changed catalog read from its last reading

    /// One element of a hand-written XML catalog: a record (some with a wrong type, a key Folio
    /// does not know, spaces around the path, a title with an entity), or not a record at all.
    private static func element(_ number: Int, round: Int = 0) -> String {
        switch number % 7 {
        case 0: return "<string>not a record \(number)</string>"
        case 1: return "<dict><key>path</key><string>p\(number).jpg</string><key>name</key><integer>\(number)</integer></dict>"
        case 2: return "<dict><key>path</key><string> p\(number).jpg </string><key>colour</key><string>red</string></dict>"
        case 3: return "<dict><key>path</key><string>p\(number).jpg</string><key>name</key><string>Fish &amp; chips \(round)</string>"
            + "<key>tags</key><array><string>a</string><string>b</string></array><key>favorite</key><true/></dict>"
        case 4: return "<dict><key>name</key><string>no path</string></dict>"
        case 5: return "<dict/>"
        default: return "<dict>\n\t<key>path</key>\n\t<string>p\(number).jpg</string>\n\t<key>taken</key>\n\t<date>2020-05-0\(1 + number % 9)T12:00:00Z</date>\n</dict>"
        }
    }

    private static func document(_ elements: [String]) -> Data {
        Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
              + "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n<array>\n"
              + elements.map { "\t\($0)\n" }.joined() + "</array>\n</plist>\n").utf8)
    }

    private static func assertSame(_ read: CatalogReader.Result, _ parsed: CatalogReader.Result, _ what: String,
                                   file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(read.records, parsed.records, what, file: file, line: line)
        XCTAssertEqual(read.issues, parsed.issues, what, file: file, line: line)
        XCTAssertEqual(read.trimmedPaths, parsed.trimmedPaths, what, file: file, line: line)
        XCTAssertEqual(read.fingerprints, parsed.fingerprints, what, file: file, line: line)
    }

    /// Elements edited, added, removed, moved and repeated at random, round after round: each
    /// time the catalog read from its last reading, taking the elements whose bytes it had from
    /// there and parsing the others alone, is the catalog parsed whole at once; and so is the
    /// catalog parsed element by element, as a catalog new to the cache is.
    func testACatalogReadAgainFromItsLastReadingIsTheCatalogParsedWhole() throws {
        let reader = CatalogReader(contentRoot: FileManager.default.temporaryDirectory, files: LocalFileAccess())
        var random = SplitMix64(2026_12_04)
        var elements = (0..<40).map { Self.element($0) }
        var data = Self.document(elements)
        var last = reader.parse(data, catalog: "trips/c.plist", elements: XMLPlist.elements(data))
        XCTAssertEqual(last.elements.count, 40)
        var taken = 0
        for round in 1...60 {
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0..<elements.count, using: &random)
                switch Int.random(in: 0..<5, using: &random) {
                case 0: elements[at] = Self.element(Int.random(in: 0..<200, using: &random), round: round)
                case 1: elements.insert(Self.element(Int.random(in: 0..<200, using: &random), round: round), at: at)
                case 2 where elements.count > 5: elements.remove(at: at)
                case 3: elements.swapAt(at, Int.random(in: 0..<elements.count, using: &random))
                default: elements.insert(elements[at], at: Int.random(in: 0..<elements.count, using: &random))
                }
            }
            data = Self.document(elements)
            let found = try XCTUnwrap(XMLPlist.elements(data))
            XCTAssertEqual(found.ranges.count, elements.count)
            XCTAssertEqual(XMLPlist.elements(data, knowing: last.known), found, "round \(round)")
            // The array's values all at once, as Foundation and Folio's reader give them.
            let whole = reader.parse(data, catalog: "trips/c.plist")
            XCTAssertEqual(whole.elements, [])
            let alone = reader.parse(data, catalog: "trips/c.plist", elements: found)
            let read = try XCTUnwrap(reader.reread(data, found, last: last, catalog: "trips/c.plist"), "round \(round)")
            Self.assertSame(read, whole, "round \(round)")
            // The records of the elements the last reading did not have, and only those, are parsed anew.
            let lastHashes = Set(last.elements.map(\.hash))
            var anew = IndexSet()
            for (index, element) in read.elements.enumerated() where !lastHashes.contains(element.hash) {
                anew.insert(integersIn: (index == 0 ? 0 : read.elements[index - 1].records)..<element.records)
            }
            XCTAssertEqual(read.parsedAnew, anew, "round \(round)")
            Self.assertSame(alone, whole, "round \(round), each element alone")
            XCTAssertEqual(read.elements, alone.elements)
            taken += read.elements.count
            last = read
        }
        XCTAssertGreaterThan(taken, 0)
    }

    /// The elements found with an earlier reading's standing at either end of the array (taken
    /// by the hash of the bytes where each would be) are those the markup gives, whatever the
    /// edit; and where only the markup between them can say (it is broken, or the array's end
    /// is), the markup of the whole array does.
    func testElementsFoundWithAnEarlierReadingsAreThoseTheMarkupGives() throws {
        let base = (0..<12).map { Self.element($0) }
        let first = try XCTUnwrap(XMLPlist.elements(Self.document(base)))
        let known = zip(first.ranges, first.hashes).map { XMLPlist.KnownElement(length: $0.count, hash: $1) }
        func edited(_ edit: (inout [String]) -> Void) -> Data {
            var elements = base
            edit(&elements)
            return Self.document(elements)
        }
        let standing: [(String, Data)] = [
            ("the same", Self.document(base)),
            ("the first changed", edited { $0[0] = Self.element(100) }),
            ("the last changed", edited { $0[11] = Self.element(101) }),
            ("one between changed", edited { $0[6] = Self.element(3, round: 9) }),
            ("one put in at the top", edited { $0.insert(Self.element(102), at: 0) }),
            ("one added at the end", edited { $0.append(Self.element(103)) }),
            ("the first taken out", edited { $0.removeFirst() }),
            ("the last taken out", edited { $0.removeLast() }),
            ("one repeated", edited { $0.insert($0[4], at: 5) }),
            ("all changed", Self.document((0..<12).map { Self.element($0, round: 7) })),
            ("blanks changed between", Data(String(decoding: Self.document(base), as: UTF8.self)
                .replacingOccurrences(of: "\n\t<dict/>", with: "\n\n  \t<dict/>").utf8)),
            ("none left", Self.document([])),
        ]
        for (what, data) in standing {
            let expected = try XCTUnwrap(XMLPlist.elements(data), what)
            XCTAssertEqual(XMLPlist.elements(data, standingFrom: known), expected, what)
            XCTAssertEqual(XMLPlist.elements(data, knowing: known), expected, what)
        }
        let broken: [(String, Data)] = [
            ("text between", edited { $0[6] = "text" }),
            ("a comment between", edited { $0[6] = "<!-- a comment -->" }),
            ("no end to the array", Data(String(decoding: Self.document(base), as: UTF8.self)
                .replacingOccurrences(of: "</array>", with: "").utf8)),
            ("more after the document", Self.document(base) + Data("<plist/>".utf8)),
        ]
        for (what, data) in broken {
            XCTAssertNil(XMLPlist.elements(data, standingFrom: known), what)
            XCTAssertNil(XMLPlist.elements(data, knowing: known), what)
        }
    }

    /// A catalog of thousands of elements, whose elements are found where its last reading had
    /// them, and by their markup between: edited through `read` with the cache (a
    /// record changed where it stands, one added at the end, then one taken away and one put in
    /// at the top, which move every record after them), the same as the catalog parsed whole,
    /// with only the records edited or added parsed anew.
    func testALargeCatalogEditedIsReadAsParsedWhole() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-catalogs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cached = CatalogReader(contentRoot: folder, files: LocalFileAccess(), cache: CatalogCache(folder: folder.appendingPathComponent("cache"), reader: "folio A"))
        let parsed = CatalogReader(contentRoot: folder, files: LocalFileAccess())
        var elements = (0..<6000).map { Self.element($0) }
        for round in 0..<5 {
            switch round {
            // Elements of the kind that is edited by round (a number that leaves 3 by 7).
            case 1: elements[1004] = Self.element(1004, round: 1)
            case 2:
                elements[2005] = Self.element(2005, round: 2)
                elements.append(Self.element(703, round: 2))
            case 3: elements.remove(at: 17)
            case 4: elements.insert(Self.element(3, round: 4), at: 0)
            default: break
            }
            try Self.document(elements).write(to: folder.appendingPathComponent("big.plist"))
            let read = cached.read(catalog: "big.plist")
            let expected = parsed.read(catalog: "big.plist")
            Self.assertSame(read, expected, "round \(round)")
            XCTAssertEqual(read.elements.count, elements.count)
            XCTAssertEqual(read.parsedAnew.count, [read.records.count, 1, 2, 0, 1][round], "round \(round)")
            // An edit in place is kept as the elements it changed, beside the reading it changed
            // (the records edited in rounds 1 and 2, and the one added); any other, whole.
            let kept = try XCTUnwrap(read.cacheKeys.first)
            let size = try XCTUnwrap(try folder.appendingPathComponent("cache/\(kept)").resourceValues(forKeys: [.fileSizeKey]).fileSize)
            XCTAssertEqual(size < 4_096, [false, true, true, false, false][round], "round \(round): \(size) bytes")
            XCTAssertEqual(read.cacheKeys.count, [2, 3, 3, 2, 2][round], "round \(round)")
            XCTAssertEqual(read.base?.changed.count, [nil, 1, 3, nil, nil][round], "round \(round)")
            // Read again as it is, from what was kept.
            let again = cached.read(catalog: "big.plist")
            Self.assertSame(again, expected, "round \(round), read again")
            XCTAssertEqual(again.elements, read.elements, "round \(round), read again")
        }
    }

    /// A catalog put back as it was before an edit is found by its bytes, and the reading found is
    /// the base of the patch the edit was kept as: what a build keeps is then that reading, and
    /// the next edit is read again from it, not parsed anew for want of the patch forgotten.
    func testACatalogPutBackIsTheLastReadingOfTheNextEdit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-catalogs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = CatalogCache(folder: folder.appendingPathComponent("cache"), reader: "folio A")
        let reader = CatalogReader(contentRoot: folder, files: LocalFileAccess(), cache: cache)
        let original = (0..<2_000).map { Self.element($0) }
        var edited = original
        edited[1004] = Self.element(1004, round: 1)
        for (round, elements) in [original, edited, original, edited].enumerated() {
            try Self.document(elements).write(to: folder.appendingPathComponent("big.plist"))
            let read = reader.read(catalog: "big.plist")
            // As a build does: what its readings are found by is kept, the rest forgotten.
            cache.prune(keeping: Set(read.cacheKeys))
            XCTAssertEqual(read.parsedAnew.count, [read.records.count, 1, 0, 1][round], "round \(round)")
        }
    }

    /// A build's load lets the records go, but for those an edit parsed anew: their photos are
    /// the import's to read, and it need not read the catalog again for them.
    func testTheRecordsAnEditParsedAnewStayWithTheirEntries() throws {
        let site = try TestSite()
        var records: [[String: Any]] = []
        for number in 0..<20 {
            try site.write(try TestInputs.photo(number), to: "content/p\(number).jpg")
            records.append(["path": "p\(number).jpg", "name": "Photo \(number)"])
        }
        try site.catalog("c.plist", records)
        let cache = CatalogCache(folder: site.root.appendingPathComponent("cache"), reader: "test")
        var loader = ContentLoader(contentRoot: site.content, files: LocalFileAccess(), exclusions: ContentExclusions(), catalogCache: cache)
        loader.keepsRecords = false
        XCTAssertTrue(try loader.load().entries.allSatisfy { $0.record == nil && $0.catalogued != nil }, "a first reading: all let go")
        records[7]["name"] = "Edited"
        try site.catalog("c.plist", records)
        let entries = try loader.load().entries
        XCTAssertEqual(entries.filter { $0.record != nil }.map(\.path), ["p7.jpg"])
        XCTAssertEqual(entries.first { $0.path == "p7.jpg" }?.record?.name, "Edited")
        XCTAssertEqual(entries.filter { $0.catalogued != nil }.count, 19)
    }

    /// What the markup scan is not sure of, or an element that says something of the catalog as
    /// a whole, has the catalog parsed whole.
    func testACatalogTheScanIsNotSureOfIsParsedWhole() throws {
        let reader = CatalogReader(contentRoot: FileManager.default.temporaryDirectory, files: LocalFileAccess())
        let plain = Self.document((0..<7).map { Self.element($0) })
        let last = reader.parse(plain, catalog: "c.plist", elements: XMLPlist.elements(plain))
        for odd in ["<!-- a comment --><dict/>", "<dict><key>path</key><string><![CDATA[p.jpg]]></string></dict>",
                    "<dict attribute=\"1\"/>", "text"] {
            XCTAssertNil(XMLPlist.elements(Self.document([Self.element(1), odd])), odd)
        }
        XCTAssertNil(XMLPlist.elements(Data("<plist version=\"1.0\"><dict/></plist>".utf8)), "not an array")
        XCTAssertNil(XMLPlist.elements(Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><array/></plist>".utf8)))
        XCTAssertEqual(XMLPlist.elements(Data("<?xml version=\"1.0\" encoding=\"utf-8\"?><plist><array/></plist>".utf8))?.ranges, [])
        XCTAssertNil(XMLPlist.elements(Data("<!DOCTYPE plist [<!ENTITY a \"b\">]><plist><array/></plist>".utf8)))
        // An element whose tags do not close as they open: the parse, not the scan, says so.
        let unclosed = Self.document([Self.element(1), "<dict><key>path</key><string>p.jpg</dict></string>"])
        let found = try XCTUnwrap(XMLPlist.elements(unclosed))
        XCTAssertNil(reader.reread(unclosed, found, last: last, catalog: "c.plist"))
        // An element too deep to read refuses the whole catalog, which the parse of it whole says.
        let deep = Self.document([Self.element(1), "<dict><key>tags</key>" + String(repeating: "<array>", count: 120)
                                    + String(repeating: "</array>", count: 120) + "</dict>"])
        XCTAssertNil(reader.reread(deep, try XCTUnwrap(XMLPlist.elements(deep)), last: last, catalog: "c.plist"))
        // Through `read`, with the cache: the same as a reading without one in every case.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-catalogs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cached = CatalogReader(contentRoot: folder, files: LocalFileAccess(), cache: CatalogCache(folder: folder.appendingPathComponent("cache"), reader: "folio A"))
        for version in [plain, unclosed, Self.document([Self.element(3), "<!-- -->", Self.element(5)]), plain,
                        Self.document((0..<7).map { Self.element($0, round: 1) })] {
            try version.write(to: folder.appendingPathComponent("c.plist"))
            let read = cached.read(catalog: "c.plist")
            let parsed = CatalogReader(contentRoot: folder, files: LocalFileAccess()).read(catalog: "c.plist")
            XCTAssertEqual(read.records, parsed.records)
            XCTAssertEqual(read.issues, parsed.issues)
            XCTAssertEqual(read.fingerprints, parsed.fingerprints)
        }
    }
}

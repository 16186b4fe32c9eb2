@testable import FolioCore
@testable import FolioMedia
@testable import FolioModel
@testable import FolioSite
import FolioTestSupport
import Foundation
import XCTest

final class SearchIndexTests: XCTestCase {
    let now = ISO8601DateFormatter().date(from: "2026-11-22T12:00:00Z")!

    func builder(_ photos: [PhotoImport], thumbs: Bool = true) throws -> SiteBuilder {
        let database = try GalleryDatabase.inMemory()
        try database.apply(ImportBatch(upserts: photos))
        let snapshot = try database.snapshot()
        var media: [Int64: PhotoMedia] = [:]
        if thumbs {
            for item in snapshot.photos {
                let c = item.photo.checksum
                let thumbnails = RenditionFiles(files: [
                    RenditionFiles.File(path: "media/\(c)-thumb.jpg", width: 400, height: 400),
                    RenditionFiles.File(path: "media/\(c)-thumb200.jpg", width: 200, height: 200),
                ], format: .jpeg)
                media[item.photo.id] = PhotoMedia(thumbnails: thumbnails, screens: RenditionFiles(files: [], format: .jpeg))
            }
        }
        return SiteBuilder(snapshot: snapshot, media: media, settings: SiteSettings(), now: now)
    }

    func photo(_ n: Int, title: String? = nil, description: String? = nil, by person: String = "Josh",
               at place: String? = "Palo Alto, California, United States", tags: [String] = []) -> PhotoImport {
        PhotoImport(source: .content(path: "\(n).jpg"), identifier: "p\(n)", title: title, description: description, person: person,
                    place: place, uploaded: Date(timeIntervalSince1970: Double(n) * 1000), width: 4, height: 3,
                    checksum: "c\(n)", tags: tags)
    }

    /// The value a file passes to `folioData(kind, key, value)`, decoded.
    func value(_ index: SearchIndex, _ name: String) throws -> Any {
        let file = try XCTUnwrap(index.files.first { $0.path == SearchIndex.folder + name }, "no \(name)")
        let text = String(decoding: file.data, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("folioData("), text)
        XCTAssertTrue(text.hasSuffix(");\n"), text)
        // The call's three arguments are a JSON array once the call is taken off.
        let arguments = "[" + text.dropFirst("folioData(".count).dropLast(3) + "]"
        let decoded = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(arguments.utf8)) as? [Any])
        XCTAssertEqual(decoded.count, 3)
        return decoded[2]
    }

    /// A word file's postings, each back to `number * 2 + inTitle` from its difference to the one before.
    func postings(_ index: SearchIndex, _ name: String) throws -> [String: [Int]] {
        let deltas = try XCTUnwrap(value(index, name) as? [String: [Int]])
        return deltas.mapValues { list in
            var sum = 0
            return list.map { sum += $0; return sum }
        }
    }

    /// A photo file's rows, each by the names `meta.js` gives its fields, as the script reads them.
    func rows(_ index: SearchIndex, _ name: String) throws -> [[String: Any]] {
        let fields = try XCTUnwrap((try value(index, "meta.js") as? [String: Any])?["fields"] as? [String])
        let rows = try XCTUnwrap(value(index, name) as? [[Any]])
        return rows.map { row in
            XCTAssertEqual(row.count, fields.count, "a value for every field named")
            return Dictionary(uniqueKeysWithValues: zip(fields, row))
        }
    }

    func testTextIsFoldedAndCutIntoWordsAsTheScriptDoes() {
        XCTAssertEqual(SearchText.words("Café crème, Éze — Møre og Romsdal!"), ["cafe", "creme", "eze", "møre", "og", "romsdal"])
        XCTAssertEqual(SearchText.words("Hubble's 10,000 İstanbul"), ["hubble", "s", "10", "000", "istanbul"])
        XCTAssertEqual(SearchText.words("東京タワー at night"), ["東京", "京タ", "タワ", "ワー", "ー", "at", "night"], "Japanese in pairs")
        XCTAssertEqual(SearchText.shardKey("東京"), "東")
        XCTAssertEqual(SearchText.shardKey("golden"), "go")
        XCTAssertEqual(SearchText.shardKey("a"), "a")
        XCTAssertEqual(SearchText.fileName(forKey: "go"), "go")
        XCTAssertEqual(SearchText.fileName(forKey: "東京"), "_006771_004eac")
        XCTAssertEqual(SearchText.fileName(forKey: "m_"), "m_00005f", "a file name has one key only")
    }

    func testIdentifierBucketsAreTheScriptsFNV1a() {
        // Worked out with the script's own function (Math.imul over UTF-16 code units).
        XCTAssertEqual(SearchText.bucket("p018a709110e2", of: 64), 52)
        XCTAssertEqual(SearchText.bucket("pé😀", of: 256), 103)
        XCTAssertEqual(SearchIndex.bucketCount(for: 0), 1)
        XCTAssertEqual(SearchIndex.bucketCount(for: 100), 2)
        XCTAssertEqual(SearchIndex.bucketCount(for: 10_000), 256)
        XCTAssertEqual(SearchIndex.bucketCount(for: 100_000), 2048)
        XCTAssertEqual(SearchIndex.bucketCount(for: 1_000_000), 16_384)
        XCTAssertEqual(SearchIndex.bucketCount(for: 10_000_000), 16_384)
    }

    func testEveryFieldIsIndexedAndTitleWordsAreMarked() throws {
        let site = try builder([
            photo(1, title: "Golden Gate", description: "Fog over the bay", by: "Maya", at: "San Francisco, California, United States"),
            photo(2, title: "Gondola", description: "Golden light", by: "Zoë", at: "Venice, Veneto, Italy", tags: ["boats"]),
            photo(3, description: "Only a description", by: "Al", at: nil),
        ])
        let index = site.searchIndex()
        // Numbered by when they were taken, the oldest first: p1, then p2, then p3, in one shard
        // of January 1970 (the month, then the shard's place in it, no bits when every month
        // has one, then the photo's place in the shard).
        let numbers = try XCTUnwrap(value(index, "i-0.js") as? [String: Int])
        let p1 = try XCTUnwrap(numbers["p1"])
        XCTAssertEqual(p1, ((1970 - 1900) * 12) << 6)
        XCTAssertEqual(numbers, ["p1": p1, "p2": p1 + 1, "p3": p1 + 2])
        // A title word adds 1 to number × 2.
        let go = try postings(index, "t-go.js")
        XCTAssertEqual((try value(index, "t-go.js") as? [String: [Int]])?["golden"], [p1 * 2 + 1, 1], "written as differences")
        XCTAssertEqual(go["golden"], [p1 * 2 + 1, (p1 + 1) * 2])
        XCTAssertEqual(go["gondola"], [(p1 + 1) * 2 + 1])
        XCTAssertEqual(go["gate"], nil, "filed under ga")
        XCTAssertEqual((try postings(index, "t-ga.js"))["gate"], [p1 * 2 + 1])
        XCTAssertEqual((try postings(index, "t-zo.js"))["zoe"], [(p1 + 1) * 2], "the person, without accents")
        XCTAssertEqual((try postings(index, "t-ve.js"))["veneto"], [(p1 + 1) * 2], "the place's full name")
        XCTAssertEqual((try postings(index, "t-it.js"))["italy"], [(p1 + 1) * 2])
        XCTAssertEqual((try postings(index, "t-ca.js"))["california"], [p1 * 2], "the region")
        XCTAssertEqual((try postings(index, "t-bo.js"))["boats"], [(p1 + 1) * 2], "tags too")
        XCTAssertEqual((try postings(index, "t-de.js"))["description"], [(p1 + 2) * 2 + 1], "an untitled photo is titled by its description")

        let meta = try XCTUnwrap(value(index, "meta.js") as? [String: Any])
        XCTAssertEqual(meta["photos"] as? Int, 3)
        XCTAssertEqual(meta["shard"] as? Int, SearchNumbering.slots)
        XCTAssertEqual(meta["buckets"] as? Int, 1)
        let keys = try XCTUnwrap(meta["keys"] as? [String])
        XCTAssertEqual(keys, keys.sorted())
        XCTAssertTrue(keys.contains("go") && keys.contains("zo"))
        XCTAssertEqual(Set(index.files.map(\.path).filter { $0.contains("/t-") }).count, keys.count, "a file for every key listed")

        XCTAssertEqual(meta["fields"] as? [String], ["id", "title", "thumb", "thumbWidth", "thumbHeight", "srcset", "alt", "person",
                                                     "placeTitle", "placeSubtitle", "placeSlug", "pick", "duration", "live"], "the names the script reads rows by")
        let photos = try rows(index, "p-\(p1 / SearchNumbering.slots).js")
        XCTAssertEqual(photos.map { $0["id"] as? String }, ["p1", "p2", "p3"])
        let gate = photos[0]
        XCTAssertEqual(gate["title"] as? String, "Golden Gate")
        XCTAssertEqual(gate["thumb"] as? String, "media/c1-thumb.jpg")
        XCTAssertEqual(gate["thumbWidth"] as? Int, 400)
        XCTAssertEqual(gate["thumbHeight"] as? Int, 400)
        XCTAssertEqual(gate["srcset"] as? String, "media/c1-thumb200.jpg 200w, media/c1-thumb.jpg 400w")
        XCTAssertEqual(gate["alt"] as? String, "Golden Gate by Maya in San Francisco")
        XCTAssertEqual(gate["person"] as? String, "Maya")
        XCTAssertEqual(gate["placeTitle"] as? String, "San Francisco")
        XCTAssertEqual(gate["placeSubtitle"] as? String, "California, United States")
        XCTAssertEqual(gate["placeSlug"] as? String, "san-francisco-california-united-states")
        XCTAssertTrue(photos[2]["placeTitle"] is NSNull, "no place")
    }

    func testTextThatLooksLikeScriptStaysText() throws {
        let index = try builder([photo(1, title: "</script><b>\"quoted\"\\ \u{2028}", by: "Al")]).searchIndex()
        let shard = try XCTUnwrap(index.files.first { $0.path.contains("/p-") })
        let text = String(decoding: shard.data, as: UTF8.self)
        XCTAssertFalse(text.contains("</script>"))
        XCTAssertFalse(text.contains("\u{2028}"))
        XCTAssertEqual(try rows(index, String(shard.path.dropFirst(SearchIndex.folder.count)))[0]["title"] as? String,
                       "</script><b>\"quoted\"\\ \u{2028}")
    }

    func testStringsAreWrittenAsJSONReadsThem() throws {
        // Plain text is written whole; anything else a character at a time: both must read back.
        let texts = ["Sunset", "Café – Zürich 東京 🌅", "tab\there", "line\u{2028}separator", "a<b", "\"\\", "\u{01}", "", "–"]
        for text in texts {
            let written = JSONText.string(text)
            let read = try JSONSerialization.jsonObject(with: Data("[\(written)]".utf8)) as? [String]
            XCTAssertEqual(read, [text], written)
            XCTAssertFalse(written.contains("<") || written.contains("\u{2028}") || written.contains("\t"), written)
        }
        XCTAssertEqual(JSONText.string("Sunset"), "\"Sunset\"")
    }

    func testTheSameModelMakesTheSameFiles() throws {
        let photos = (1...120).map { photo($0, title: "Photo \($0)", description: "Number \($0) of many") }
        let first = try builder(photos).searchIndex()
        let second = try builder(photos.reversed()).searchIndex()
        XCTAssertEqual(first.files, second.files)
        XCTAssertEqual(first.files.filter { $0.path.contains("/i-") }.count, 2)
    }

    /// A shard holds 20 photos on average, never more than it has room for, and every photo once.
    func testShardsHoldAFewPhotosEach() throws {
        let site = try builder((1...3000).map { photo($0, title: "Photo \($0)") })
        let numbering = site.searchNumbering()
        let sizes = numbering.shards.map(\.positions.count)
        XCTAssertEqual(numbering.shards.flatMap { Array($0.positions) }, Array(0..<3000), "every photo once, in the site's order")
        XCTAssertEqual(Double(3000) / Double(sizes.count), Double(SearchIndex.photosPerShard), accuracy: 4)
        XCTAssertLessThanOrEqual(sizes.max()!, SearchNumbering.slots)
        XCTAssertLessThan(2 * SearchIndex.photosPerShard + SearchIndex.photosPerShard / 2, SearchNumbering.slots, "room for the longest run")
        XCTAssertGreaterThanOrEqual(sizes.dropLast().min()!, SearchIndex.photosPerShard / 2, "the oldest month's last shard aside")
        let numbers = (0..<3000).map { numbering[$0] }
        XCTAssertEqual(numbers, numbers.sorted(by: >), "the newest the highest")
        XCTAssertTrue(numbers.allSatisfy { $0 >= 0 && $0 < SearchNumbering.limit })
        for shard in numbering.shards {
            XCTAssertTrue(shard.positions.allSatisfy { numbering.shard(of: $0) == shard.key })
        }
        // Numbered as photos with nothing said of them, shard after shard from 0, when the months
        // cannot hold them.
        let plain = SearchNumbering(count: 45)
        XCTAssertEqual((0..<45).map { plain[$0] }, Array((Array(0..<20) + Array(64..<84) + Array(128..<133)).reversed()))
        XCTAssertEqual(plain.shards.map(\.key), [2, 1, 0])
        XCTAssertEqual(plain.shards.map(\.positions), [0..<5, 5..<25, 25..<45])
        XCTAssertTrue(SearchNumbering(count: 0).shards.isEmpty)
    }

    /// Months start where the calendar says, in UTC, from the first to the last.
    func testMonthsStartWhereTheCalendarSays() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for (month, start) in SearchNumbering.monthStarts.enumerated() {
            let components = DateComponents(year: SearchNumbering.firstYear + month / 12, month: month % 12 + 1, day: 1)
            XCTAssertEqual(start, calendar.date(from: components)!.timeIntervalSinceReferenceDate, "month \(month)")
        }
    }

    /// A photo added, taken away or come back changes the shard it is in (now and then a
    /// neighbour), and of the other files only what names a photo of those shards: the words
    /// they have, the lists and identifier buckets they are in. Not the files of the photos
    /// before or after them in time.
    func testAPhotoComingOrGoingChangesTheFilesNearItNotTheIndex() throws {
        // Eight hours apart, over some seven months, each found by words of its own and shared
        // ones; a photographer's and a town's photos come in runs, as trips do.
        let photos = (1...600).map { n in
            PhotoImport(source: .content(path: "\(n).jpg"), identifier: "p\(n)", title: "Photo \(n)",
                        description: "Harbour \(["dawn", "dusk", "noon"][n % 3])", person: "Person \(n / 70 % 5)",
                        place: "Town \(n / 30 % 9), California, United States", uploaded: Date(timeIntervalSince1970: 1_500_000_000 + Double(n) * 28_800),
                        width: 4, height: 3, checksum: "c\(n)")
        }
        let whole = try builder(photos).searchIndex()
        let shards = whole.files.filter { $0.path.contains("/p-") }.count
        for away in [0, 150, 311, 599] {
            var without = photos
            without.remove(at: away)
            let other = try builder(without).searchIndex()
            let (before, after) = (Dictionary(uniqueKeysWithValues: whole.files.map { ($0.path, $0.data) }),
                                   Dictionary(uniqueKeysWithValues: other.files.map { ($0.path, $0.data) }))
            let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
            let changedShards = changed.filter { $0.contains("/p-") }
            XCTAssertLessThanOrEqual(changedShards.count, 3, "photo \(away + 1): \(changedShards.sorted()) of \(shards)")
            // The photos of the shards that changed, by identifier, and their numbers then and now.
            var moved = Set<String>()
            var numbers = Set<Int>()
            for (index, files) in [(whole, before), (other, after)] {
                let named = try XCTUnwrap(value(index, "meta.js") as? [String: Any])
                let buckets = try XCTUnwrap(named["buckets"] as? Int)
                for path in changedShards where files[path] != nil {
                    for row in try rows(index, String(path.dropFirst(SearchIndex.folder.count))) {
                        let id = try XCTUnwrap(row["id"] as? String)
                        moved.insert(id)
                        let bucket = try XCTUnwrap(value(index, "i-\(SearchText.bucket(id, of: buckets)).js") as? [String: Int])
                        numbers.insert(try XCTUnwrap(bucket[id]))
                    }
                }
            }
            XCTAssertLessThan(moved.count, 3 * SearchNumbering.slots)
            let words = Set(photos.filter { moved.contains($0.photo.identifier) }.flatMap { made in
                [made.photo.title, made.photo.description, made.person, made.place].compactMap { $0 }.flatMap(SearchText.words)
            })
            for path in changed where !changedShards.contains(path) && !path.hasSuffix("meta.js") {
                let name = String(path.dropFirst(SearchIndex.folder.count))
                if name.hasPrefix("t-") {
                    let (then, now) = (try postings(whole, name), try postings(other, name))
                    let differing = Set(then.keys).union(now.keys).filter { then[$0] != now[$0] }
                    XCTAssertTrue(differing.isSubset(of: words), "photo \(away + 1): \(name) changed for \(differing.subtracting(words).sorted())")
                } else if name.hasPrefix("i-") {
                    let (then, now) = (try value(whole, name) as? [String: Int] ?? [:], try value(other, name) as? [String: Int] ?? [:])
                    XCTAssertTrue(Set(then.keys).union(now.keys).filter { then[$0] != now[$0] }.isSubset(of: moved), "photo \(away + 1): \(name)")
                } else {
                    let (then, now) = (try value(whole, name) as? [Int] ?? [], try value(other, name) as? [Int] ?? [])
                    XCTAssertFalse(numbers.isDisjoint(with: then + now), "photo \(away + 1): \(name) names none of the photos moved")
                }
            }
        }
    }

    /// An edit's index made from the last build's postings: the photos that changed taken out and
    /// put back. Over rounds of random retitles (words shared by many photos, so some files are
    /// cut; words gained that no photo had; words lost that no other photo has), it makes every
    /// file it makes as the whole index does, keeps only files the last build made as they are,
    /// and its postings, kept in the state's encoding and read back, carry on to the next round.
    func testAnIndexUpdatedFromTheLastPostingsIsTheWholeIndex() throws {
        // The postings in one part, and in three: each part read, updated and kept in turn.
        for parts in [1, 3] {
            var random = SplitMix64(7)
            // Twenty-six words filed under "ca": their file passes the budget and is cut.
            let common = (UInt32(97)...122).map { "ca" + String(UnicodeScalar($0)!) }
            func title(_ n: Int) -> String {
                (0..<8).map { _ in common.randomElement(using: &random)! }.joined(separator: " ") + " No. \(n)"
            }
            var photos = (1...2500).map { photo($0, title: title($0)) }
            let first = try builder(photos).searchIndex(parts: parts)
            XCTAssertTrue(first.files.contains { $0.path.hasSuffix("/t-cab.js") }, "the words under \"ca\" are cut")
            var lastFiles = Dictionary(uniqueKeysWithValues: first.files.map { ($0.path, $0.data) })
            var last = try XCTUnwrap(KeptPostings(try XCTUnwrap(first.postings).encoded(files: 0)))
            XCTAssertEqual(last.parts, parts)
            for round in 0..<3 {
                var retitled = Set<String>()
                for _ in 0..<6 {
                    let at = Int.random(in: photos.indices, using: &random)
                    // Words beyond ASCII too: accents folded, a key of two ideographs, Hangul syllables.
                    let titles = ["Harbour at dawn, round \(round)", "Éze, 東京駅 and 한국어 \(round)", title(at + 1000 * round)]
                    photos[at].photo.title = titles.randomElement(using: &random)
                    retitled.insert(photos[at].photo.identifier)
                }
                // A photo that changed nothing is taken out and put back the same.
                retitled.insert(photos[7].photo.identifier)
                let site = try builder(photos)
                let positions = Set(retitled.compactMap { site.photoPosition(.photo(identifier: $0)) })
                let whole = site.searchIndex()
                let wholeFiles = Dictionary(uniqueKeysWithValues: whole.files.map { ($0.path, $0.data) })
                let part = try XCTUnwrap(site.searchIndex(changing: positions, last: last))
                for file in part.files { XCTAssertEqual(file.data, wholeFiles[file.path], "\(parts) parts, round \(round): \(file.path)") }
                XCTAssertEqual(Set(part.kept).union(part.files.map(\.path)), Set(wholeFiles.keys), "round \(round): every file made or kept")
                for path in part.kept { XCTAssertEqual(lastFiles[path], wholeFiles[path], "round \(round): \(path) kept, and the same") }
                let words = { (index: SearchIndex) in index.files.filter { $0.path.contains("/t-") }.count }
                XCTAssertLessThan(words(part), words(whole), "round \(round): only some word files made")
                XCTAssertEqual(part.wordCount, whole.wordCount)
                last = try XCTUnwrap(KeptPostings(try XCTUnwrap(part.postings).encoded(files: UInt64(round))))
                XCTAssertEqual(last.files, UInt64(round))
                XCTAssertEqual(last.parts, parts)
                lastFiles = wholeFiles
            }
            XCTAssertTrue(photos.contains { $0.photo.title?.hasPrefix("Éze") == true }, "the words beyond ASCII were met")
        }
    }

    /// Photos added, taken away, retitled and moved to another month, round after round: the
    /// index updated from the last build's postings (the photos paired by identity) makes every
    /// file it makes as the whole index does, keeps only files the last build made as they are,
    /// and makes few photo files.
    func testAnIndexUpdatedForPhotosThatCameWentOrMovedIsTheWholeIndex() throws {
        var random = SplitMix64(0xC0DE)
        func photo(_ n: Int, title: String) -> PhotoImport {
            PhotoImport(source: .content(path: "\(n).jpg"), identifier: "p\(n)", title: title, person: ["Ansel", "Dorothea"][n % 2],
                        place: "Town \(n / 50 % 7), California, United States",
                        uploaded: Date(timeIntervalSince1970: 1_500_000_000 + Double(n) * 20_000), width: 4, height: 3, checksum: "c\(n)")
        }
        var photos = (0..<1_500).map { photo($0, title: "Photo \($0) of the harbour") }
        var next = photos.count
        var site = try builder(photos)
        let index = site.searchIndex(parts: 4)
        var lastFiles = Dictionary(uniqueKeysWithValues: index.files.map { ($0.path, $0.data) })
        var encoded = try XCTUnwrap(index.postings).encoded(files: 0)
        for round in 0..<6 {
            var retitled = Set<String>()
            for _ in 0..<Int(random.next() % 4) { photos.remove(at: Int(random.next() % UInt64(photos.count))) }
            for _ in 0..<Int(random.next() % 4) {
                photos.insert(photo(next, title: "New \(next) in round \(round)"), at: Int(random.next() % UInt64(photos.count)))
                next += 1
            }
            for _ in 0..<3 {
                let at = Int(random.next() % UInt64(photos.count))
                photos[at].photo.title = "Retitled in round \(round)"
                retitled.insert(photos[at].photo.identifier)
            }
            // Taken a month later: another shard, another number.
            let moved = Int(random.next() % UInt64(photos.count))
            photos[moved].photo.uploaded = photos[moved].photo.uploaded.addingTimeInterval(31 * 86_400)
            retitled.insert(photos[moved].photo.identifier)
            let lastIdentities = site.identities()
            site = try builder(photos)
            let numbering = site.searchNumbering()
            let changed = Set(retitled.compactMap { site.photoPosition(.photo(identifier: $0)) })
            let whole = site.searchIndex()
            let wholeFiles = Dictionary(uniqueKeysWithValues: whole.files.map { ($0.path, $0.data) })
            let last = try XCTUnwrap(KeptPostings(encoded))
            XCTAssertNil(site.searchMoves(since: last, lastIdentities: nil, changed: changed, numbering: numbering), "not in the same order")
            let moves = try XCTUnwrap(site.searchMoves(since: last, lastIdentities: lastIdentities, changed: changed, numbering: numbering))
            let part = try XCTUnwrap(site.searchIndex(updating: moves, last: last, numbering: numbering))
            for file in part.files { XCTAssertEqual(file.data, wholeFiles[file.path], "round \(round): \(file.path)") }
            XCTAssertEqual(Set(part.kept).union(part.files.map(\.path)), Set(wholeFiles.keys), "round \(round): every file made or kept")
            for path in part.kept { XCTAssertEqual(lastFiles[path], wholeFiles[path], "round \(round): \(path) kept, and the same") }
            let shards = { (index: SearchIndex) in index.files.filter { $0.path.contains("/p-") }.count }
            XCTAssertLessThan(shards(part), shards(whole) / 3, "round \(round): only the shards of the photos that changed")
            encoded = try XCTUnwrap(part.postings).encoded(files: UInt64(round))
            XCTAssertEqual(try XCTUnwrap(KeptPostings(encoded)).photoNumbers, numbering.numbers)
            lastFiles = wholeFiles
        }
    }

    /// A spool of photos' words (`PostingsSpool`), each photo's first `title(photo)` words in its title.
    static func spool(of photos: [[String]], spillingInto store: PackedStore? = nil, recordSize: Int = 1 << 16,
                      parts: Int = 1, title: (Int) -> Int = { _ in 1 }) -> PostingsSpool {
        var spool = PostingsSpool(spillingInto: store, parts: parts, recordSize: recordSize)
        for (at, words) in photos.enumerated() {
            spool.add(photo: at, words: words, title: Array(words.prefix(title(at))))
        }
        return spool
    }

    /// The postings of photos' words, each photo's first word in its title.
    static func postings(of photos: [[String]], spillingInto store: PackedStore? = nil, recordSize: Int = 1 << 16) -> SearchPostings {
        var spool = spool(of: photos, spillingInto: store, recordSize: recordSize)
        return spool.take(part: 0)
    }

    /// Photos' words spooled in records of a few pairs, in a file or in memory, and taken in parts
    /// or whole, make the postings of photos put in order all at once: the same word files.
    func testPostingsSpooledAreThoseMadeAtOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-postings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SplitMix64(0x51A)
        // Words as the index has them, folded into one normal form (`SearchText.words`): the keys
        // of two files of one word in two forms would be equal to `String`'s order.
        let vocabulary = (0..<200).map { "w\($0)" } + ["été", "北京"]
        let photos = (0..<500).map { _ in (0..<Int(random.next() % 7)).map { _ in vocabulary[Int(random.next() % 202)] } }
        var atOnce = Self.postings(of: photos)
        // Each word's photos as the postings hold them (`SearchPostings.values`), worked out here.
        var photosOf: [[UInt8]: [UInt32]] = [:]
        for (at, words) in photos.enumerated() {
            for word in Set(words.map { Array($0.utf8) }) {
                photosOf[word, default: []].append(UInt32(at * 2 + (Array(words[0].utf8) == word ? 1 : 0)))
            }
        }
        XCTAssertEqual(atOnce.wordCount, photosOf.count, "each word once, by its bytes")
        for number in atOnce.words.indices {
            let word = atOnce.words.withBytes(of: number) { Array($0) }
            XCTAssertEqual(Array(atOnce.values[atOnce.spans[number].range]), photosOf[word], atOnce.words[number])
        }
        let expected = atOnce.wordFiles().map(\.value)
        for size in [1, 3, 64] {
            // To a file, a few pairs a record (and kept in memory, as where no file can be made).
            let stores = [PackedStore(spillingInto: folder.path, at: 100), PackedStore(spillingInto: nil)]
            for store in stores {
                var spilled = Self.postings(of: photos, spillingInto: store, recordSize: size)
                XCTAssertEqual(spilled.wordFiles().map(\.value), expected, "spilled, records of \(size) bytes")
                XCTAssertEqual(spilled.wordCount, atOnce.wordCount)
                XCTAssertEqual(store.spills, store === stores.first, "records of \(size) bytes")
            }
            // Taken a part at a time: together, the same files.
            for spill in [PackedStore(spillingInto: folder.path, at: 100), nil] {
                var spool = Self.spool(of: photos, spillingInto: spill, recordSize: size, parts: 4)
                var files: [(key: String, value: [UInt8])] = []
                var count = 0
                for part in 0..<4 {
                    var taken = spool.take(part: part)
                    files += taken.wordFiles()
                    count += taken.wordCount
                }
                XCTAssertEqual(files.sorted { $0.key < $1.key }.map(\.value), expected, "in parts, records of \(size) bytes")
                XCTAssertEqual(count, atOnce.wordCount)
            }
        }
    }

    /// Photos taken out of the postings and put back in place, round after round, leave the
    /// postings that their photos' words make afresh: the same word files, byte for byte.
    func testPostingsReplacedInPlaceAreThoseMadeAfresh() {
        var random = SplitMix64(0x9E7)
        let vocabulary = (0..<300).map { "w\($0)" }
        func words() -> [String] { (0..<Int(random.next() % 6)).map { _ in vocabulary[Int(random.next() % 300)] } }
        var photos = (0..<400).map { _ in words() }
        var postings = Self.postings(of: photos)
        for round in 0..<30 {
            let changed = Set((0..<Int(random.next() % 12)).map { _ in Int(random.next() % 400) })
            var put: [(number: Int, words: [Int], title: [Int])] = []
            for at in changed.sorted() {
                photos[at] = words() + (round % 3 == 0 ? ["new\(round)"] : [])
                let numbers = photos[at].map { postings.number(of: $0) }
                put.append((at, numbers, Array(numbers.prefix(1))))
            }
            _ = postings.replace(changed, with: put)
            var fresh = Self.postings(of: photos)
            XCTAssertEqual(postings.wordFiles().map(\.value), fresh.wordFiles().map(\.value), "round \(round)")
            XCTAssertEqual(postings.wordCount, fresh.wordCount, "round \(round)")
        }
    }

    /// A photo taken out and put back is a change only to the words it lost or gained, or that
    /// moved into or out of its title: the place and person it keeps, on every other photo
    /// too, are not touched, and their word files stay as they are.
    func testAPhotoPutBackTouchesOnlyTheWordsThatChanged() throws {
        var photos = (0..<300).map { ["sunrise-\($0)", "harbour", $0 % 2 == 0 ? "ansel" : "dorothea"] }
        var postings = Self.postings(of: photos)
        _ = postings.wordFiles()
        func put(_ at: Int, _ words: [String], title: Int = 1) -> Set<String> {
            photos[at] = words
            let numbers = words.map { postings.number(of: $0) }
            let touched = postings.replace([at], with: [(at, numbers, Array(numbers.prefix(title)))])
            return Set(touched.map { postings.words[$0] })
        }
        XCTAssertEqual(put(42, ["sunset-42", "harbour", "ansel"]), ["sunrise-42", "sunset-42"], "retitled")
        XCTAssertEqual(put(42, ["sunset-42", "harbour", "ansel"]), [], "put back as it was")
        XCTAssertEqual(put(42, ["sunset-42", "harbour", "dorothea"]), ["ansel", "dorothea"], "another person")
        XCTAssertEqual(put(42, ["sunset-42", "harbour", "dorothea"], title: 2), ["harbour"], "a word into its title")
        XCTAssertEqual(put(42, ["sunset-42", "dorothea"], title: 2), ["harbour", "dorothea"], "a word gone, another into its title")
        var spool = Self.spool(of: photos, title: { $0 == 42 ? 2 : 1 })
        var fresh = spool.take(part: 0)
        XCTAssertEqual(postings.wordFiles().map(\.value), fresh.wordFiles().map(\.value))
    }

    /// An edit makes again only the word files holding a word whose photos changed, in a group
    /// cut into many files too; the rest are the files in place (even where a cut moved, the
    /// files it moved are made), and together they are the files made afresh, byte for byte.
    func testAnEditMakesOnlyTheWordFilesOfItsWords() throws {
        var random = SplitMix64(0xF11E)
        // Every photo's file name a word of its own, all under "ph": a group cut into many files.
        var photos = (0..<6000).map { ["photo-\($0)", random.next() % 2 == 0 ? "harbour" : "dawn"] }
        var postings = Self.postings(of: photos)
        var files = Dictionary(uniqueKeysWithValues: postings.wordFiles().map { ($0.key, $0.value) })
        let cut = files.keys.filter { $0.hasPrefix("ph") }.count
        XCTAssertGreaterThan(cut, 5, "the group is cut into many files")
        var keptAny = false
        for round in 0..<24 {
            var changed = Set((0..<(1 + Int(random.next() % 5))).map { _ in Int(random.next() % 6000) })
            // Every third round, 300 photos under "photo-1" given long words, then back again:
            // a file over the budget is cut further, and joined again.
            if round % 3 == 1 { changed.formUnion(1000..<1300) }
            var put: [(number: Int, words: [Int], title: [Int])] = []
            for at in changed.sorted() {
                photos[at] = ["photo-\(at)", "harbour"]
                if round % 3 == 1, (1000..<1300).contains(at) { photos[at].append("photo-\(at)-a-long-name-of-round-\(round)") }
                if round % 4 == 0 { photos[at].append("new\(round)") }
                let numbers = photos[at].map { postings.number(of: $0) }
                put.append((at, numbers, Array(numbers.prefix(1))))
            }
            let touched = postings.replace(changed, with: put)
            let groups = postings.groups(of: touched)
            var remade: [String: [UInt8]] = [:]
            let kept = postings.wordFiles(under: groups, touched: touched) { remade[$0] = $1 }
            var next = files.filter { !groups.contains(SearchText.shardKey($0.key)) }
            for key in kept { next[key] = try XCTUnwrap(files[key], "round \(round): \(key) kept, but there was no such file") }
            next.merge(remade) { _, made in made }
            var fresh = Self.postings(of: photos)
            let freshFiles = Dictionary(uniqueKeysWithValues: fresh.wordFiles().map { ($0.key, $0.value) })
            XCTAssertEqual(next, freshFiles, "round \(round)")
            XCTAssertEqual(postings.keys, freshFiles.keys.sorted(), "round \(round)")
            if round % 3 == 0 {
                XCTAssertLessThan(remade.keys.filter { $0.hasPrefix("ph") }.count, cut / 2, "round \(round): not every file of the group made")
            }
            keptAny = keptAny || kept.contains { $0.hasPrefix("ph") }
            files = next
        }
        XCTAssertTrue(keptAny)
    }

    func testNumbersAreWrittenAsStringWritesThem() {
        var random = SplitMix64(5)
        let values = [0, 1, 9, 10, 99, 100, 65_535, -1, -10, Int.max, Int.min] + (0..<1000).map { _ in Int.random(in: -1_000_000...10_000_000, using: &random) }
        for value in values {
            var bytes: [UInt8] = [7]
            JSONText.appendDecimal(value, to: &bytes)
            XCTAssertEqual(bytes, [7] + Array(String(value).utf8), "\(value)")
        }
        // A list as `map(String.init).joined(separator: ",")` writes it, across the buffer's
        // flushes (Int.min and Int.max are the longest) and empty.
        for list in [values, Array(repeating: Int.min, count: 500), [], [0], values.shuffled(using: &random) + values] {
            var bytes: [UInt8] = [7]
            JSONText.appendList(list, to: &bytes)
            XCTAssertEqual(bytes, [7] + Array(list.map(String.init).joined(separator: ",").utf8))
        }
    }

    /// Postings kept cut short, with anything past their end, or with a byte changed (that still
    /// reads as postings) are not read: a build then makes the whole index.
    func testPostingsThatAreNotWholeAreNotRead() throws {
        let index = try builder((1...50).map { photo($0, title: "Photo \($0)") }).searchIndex(parts: 3)
        let encoded = try XCTUnwrap(index.postings).encoded(files: 1)
        func readWhole(_ data: Data) -> Bool {
            guard var kept = KeptPostings(data) else { return false }
            for _ in 0..<kept.parts where kept.nextPart() == nil { return false }
            return true
        }
        XCTAssertTrue(readWhole(encoded))
        // The last line is "sum " and sixteen hex digits.
        let sum = encoded.count - 21
        XCTAssertEqual(String(decoding: encoded.suffix(from: sum), as: UTF8.self).prefix(4), "sum ")
        for cut in [0, 10, encoded.count / 2, sum - 1, sum, encoded.count - 2] {
            XCTAssertFalse(readWhole(encoded.prefix(cut)), "cut at \(cut)")
        }
        XCTAssertFalse(readWhole(encoded + Data([0, 0, 0, 0])), "a number past the end")
        for (at, byte) in [(sum - 1, UInt8(0xFF)), (sum - 4, 0x00), (encoded.count - 2, 0x30)] {
            var wrong = encoded
            wrong[at] = wrong[at] == byte ? byte ^ 1 : byte
            XCTAssertFalse(readWhole(wrong), "the byte at \(at) changed")
        }
    }

    /// Postings are updated in the parts they were kept in until the photos call for twice as
    /// many; then they are made whole, in as many as the photos call for, and kept in those.
    func testPostingsKeptInTooFewPartsForTheLibraryAreMadeAgain() {
        let perPart = SearchIndex.photosPerPart
        XCTAssertEqual(SearchIndex.parts(photos: 10), 1)
        XCTAssertTrue(SearchIndex.updates(parts: 1, photos: 2 * perPart - 1))
        XCTAssertFalse(SearchIndex.updates(parts: 1, photos: 2 * perPart), "grown to call for two parts")
        XCTAssertEqual(SearchIndex.parts(photos: 20 * perPart), 20)
        XCTAssertFalse(SearchIndex.updates(parts: 10, photos: 20 * perPart))
        XCTAssertTrue(SearchIndex.updates(parts: 11, photos: 20 * perPart))
        XCTAssertTrue(SearchIndex.updates(parts: 20, photos: 20 * perPart))
        // Made whole, they are kept in the parts called for, and updated in those: a library that
        // comes and goes across a count is not made whole each time.
        for photos in [2 * perPart, 2 * perPart - 1, 5 * perPart, 1_000 * perPart] {
            XCTAssertTrue(SearchIndex.updates(parts: SearchIndex.parts(photos: photos), photos: photos), "\(photos)")
        }
        XCTAssertTrue(SearchIndex.updates(parts: 2, photos: 10), "shrunk")
        XCTAssertEqual(SearchIndex.parts(photos: 1_000 * perPart), 64)
    }

    /// An update holds the words of every photo it puts back: past a fifth of a part's photos
    /// the whole index is made instead, whatever the library's size.
    func testAnUpdatePuttingBackManyPhotosIsMadeWhole() {
        let most = SearchIndex.photosPerPart / 5
        XCTAssertTrue(SearchIndex.updates(puttingBack: 0))
        XCTAssertTrue(SearchIndex.updates(puttingBack: most))
        XCTAssertFalse(SearchIndex.updates(puttingBack: most + 1))
        XCTAssertFalse(SearchIndex.updates(puttingBack: 1_000 * SearchIndex.photosPerPart))
    }

    /// An index whose postings are made in parts (`SearchPostings.take(part:of:)`), its words
    /// waiting in a file or in memory, is the index made in one: the same files, byte for byte.
    func testAnIndexMadeInPartsIsTheIndexMadeInOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-parts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SplitMix64(0x9A27)
        let words = ["harbour", "dawn", "東京駅", "한국어", "éze", "canal", "cab", "photo"]
        let site = try builder((1...1200).map { n in
            photo(n, title: (0..<4).map { _ in words[Int(random.next() % 8)] }.joined(separator: " ") + " \(n)")
        })
        let one = site.searchIndex()
        let files = Dictionary(uniqueKeysWithValues: one.files.map { ($0.path, $0.data) })
        for parts in [2, 5, 64] {
            for spill in [nil, folder.path] {
                let made = site.searchIndex(spillingInto: spill, parts: parts)
                XCTAssertEqual(Dictionary(uniqueKeysWithValues: made.files.map { ($0.path, $0.data) }), files, "\(parts) parts")
                XCTAssertEqual(made.wordCount, one.wordCount)
                XCTAssertEqual(try XCTUnwrap(made.postings).keys, try XCTUnwrap(one.postings).keys)
            }
        }
    }

    /// A site of 10,000 photos: nothing a page loads up front grows with it, and what a search
    /// loads stays small. Prints the sizes (see the README's section on search).
    func testTenThousandPhotosMakeSmallFiles() throws {
        var random = SplitMix64(42)
        // Made-up words with English's letter frequencies, so they start with as many different
        // pairs of letters as real ones do.
        let letters = Array("eeeeeeeeeeeetttttttttaaaaaaaaooooooooiiiiiiinnnnnnnssssssrrrrrrhhhhhdddd"
                            + "llllucccmmmwwffggyyppbbvkjxqz")
        let vocabulary = (0..<8000).map { _ in
            String((0..<Int.random(in: 3...9, using: &random)).map { _ in letters.randomElement(using: &random)! })
        }
        func word(_ rank: Int) -> String { vocabulary[rank % vocabulary.count] }
        // Common words are common: a word's rank is drawn with a bias towards the first ones.
        func text(_ count: Int, vocabulary: Int) -> String {
            (0..<count).map { _ in word(Int(pow(Double.random(in: 0..<1, using: &random), 3) * Double(vocabulary))) }.joined(separator: " ")
        }
        let common = ["the", "of", "and", "in", "at", "sunset", "morning", "light", "street", "old"]
        let photos = (0..<10_000).map { n in
            photo(n, title: text(3, vocabulary: 4000).capitalized,
                  description: (text(12, vocabulary: 8000) + " " + common[n % common.count] + " " + common[(n / 7) % common.count]),
                  by: "Person " + word(n % 400), at: "Town \(word(n % 2500)), Region \(word(n % 150)), Country \(word(n % 60))")
        }
        let started = Date()
        let site = try builder(photos)
        let built = Date()
        let index = site.searchIndex()
        let indexTime = Date().timeIntervalSince(built)

        func bytes(_ prefix: String) -> [Int] { index.files.filter { $0.path.hasPrefix(SearchIndex.folder + prefix) }.map(\.data.count) }
        let meta = bytes("meta")[0], words = bytes("t-"), photoFiles = bytes("p-"), buckets = bytes("i-")
        let total = index.files.map(\.data.count).reduce(0, +)
        print("""
            search index of 10,000 photos: \(index.files.count) files, \(total / 1024) KB in all, made in \(String(format: "%.2f", indexTime)) s \
            (model \(String(format: "%.1f", built.timeIntervalSince(started))) s); \(index.wordCount) words; meta.js \(meta / 1024) KB; \
            \(words.count) word files, median \(words.sorted()[words.count / 2] / 1024) KB, largest \(words.max()! / 1024) KB; \
            \(photoFiles.count) photo files, largest \(photoFiles.max()! / 1024) KB; \(buckets.count) identifier files, largest \(buckets.max()! / 1024) KB
            """)
        XCTAssertEqual(Double(photoFiles.count), 500, accuracy: 75, "20 photos a file on average")
        XCTAssertEqual(buckets.count, 256)
        XCTAssertLessThan(meta, 16 * 1024, "loaded by every search: grows with the vocabulary's two-letter starts, not the photos")
        XCTAssertLessThan(photoFiles.max()!, 40 * 1024)
        XCTAssertLessThan(buckets.max()!, 4 * 1024)
        XCTAssertLessThan(words.sorted()[words.count / 2], 16 * 1024)
        // How long it took is printed, not asserted: speed is the benchmark's to measure.
    }
}

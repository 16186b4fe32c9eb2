@testable import FolioModel
@testable import FolioPipeline
import FolioChanges
import FolioCore
import FolioSite
import FolioTestSupport
import Foundation
import XCTest

/// A build redraws only the pages whose key moved (`SiteBuilder.key`): whatever a sequence of
/// edits, the site it leaves must be the site a cold build of the same content makes, byte for
/// byte. Edits are drawn at random from a fixed seed, so a failure replays.
final class IncrementalBuildTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let seeds = ["photo1.jpg", "photo2.jpg", "photo3.jpg"].map { TestSite.repository.appendingPathComponent("content/\($0)") }
    static let places = ["Palo Alto, California, United States", "Nairobi, Kenya", "Lyon, France", "Kyoto, Japan", "Quito, Ecuador"]
    /// nil: a record that names no one, whose photo is no one's (in no People listing, with no page of its own).
    static let people: [String?] = ["Josh", "Al", "Maya", "Kenji", nil]
    static let folders = ["", "travel/", "travel/japan/", "family/"]

    /// One photo as the catalog describes it.
    struct Entry {
        var path: String
        var seed: Int
        var title: String
        var user: String?
        var place: String?
        var favorite: Bool
        var taken: Date
        var uploaded: Date
        /// Where it was taken, which moves its place on the maps.
        var gps: (latitude: Double, longitude: Double)? = nil
        /// The file's bytes are its seed's with a comment naming this: another checksum, the same pixels.
        var mark: Int? = nil

        var record: [String: Any] {
            var record: [String: Any] = ["path": path, "name": title, "favorite": favorite, "taken": taken, "uploaded": uploaded]
            if let user { record["user"] = user }
            if let place { record["place"] = place }
            if let gps { (record["latitude"], record["longitude"]) = (gps.latitude, gps.longitude) }
            return record
        }
    }

    func write(_ entries: [Entry], to site: TestSite) throws {
        try site.catalog("catalog.plist", entries.map(\.record))
    }

    /// A catalog for each folder's photos but family/'s, which have none (their files name them):
    /// a build as a large library's reads them in several parts (`TestSite.build(asLarge:)`).
    func writeByFolder(_ entries: [Entry], to site: TestSite) throws {
        for (at, folder) in Self.folders.enumerated() where folder != "family/" {
            let inFolder = entries.filter { $0.path.hasPrefix(folder) && !$0.path.dropFirst(folder.count).contains("/") }
            try site.catalog("catalog-\(at).plist", inFolder.map(\.record))
        }
    }

    /// Writes the entry's photo file: its seed's bytes, with a JPEG comment segment after the
    /// start of image when it has a mark.
    func writePhoto(_ entry: Entry, to site: TestSite) throws {
        var bytes = try Data(contentsOf: Self.seeds[entry.seed])
        if let mark = entry.mark {
            let text = Array("replaced \(mark)".utf8)
            bytes = bytes.prefix(2) + Data([0xFF, 0xFE, UInt8((text.count + 2) >> 8), UInt8((text.count + 2) & 0xFF)] + text) + bytes.dropFirst(2)
        }
        try site.write(bytes, to: "content/\(entry.path)")
    }

    /// A cold build of the same content and settings, in a folder of its own. With `timesOf`,
    /// each photo file takes the time of that site's: an uncatalogued photo is dated by its
    /// file, and two written within one tick of the file system's clock would tie here where
    /// they did not there, and list in another order.
    func coldBuild(of entries: [Entry], settings: Data, byFolder: Bool = false, timesOf site: TestSite? = nil) async throws -> TestSite {
        let fresh = try TestSite()
        try fresh.write(settings, to: "folio.json")
        for entry in entries {
            try writePhoto(entry, to: fresh)
            if let site { try copyTimes(of: entry.path, from: site, to: fresh) }
        }
        try byFolder ? writeByFolder(entries, to: fresh) : write(entries, to: fresh)
        try await fresh.build(now: now)
        return fresh
    }

    /// Gives the photo file at `path` in `to` the access and modification times it has in `from`, to the nanosecond.
    func copyTimes(of path: String, from: TestSite, to: TestSite) throws {
        var info = stat()
        XCTAssertEqual(stat(from.content.appendingPathComponent(path).path, &info), 0, path)
        let times = [info.st_atim, info.st_mtim]
        XCTAssertEqual(utimensat(AT_FDCWD, to.content.appendingPathComponent(path).path, times, 0), 0, path)
    }

    /// Every file under `root` by path, with its inode.
    func inodes(_ root: URL) -> [String: UInt64] {
        var found: [String: UInt64] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root.path)!
        while let path = enumerator.nextObject() as? String {
            var info = stat()
            guard lstat(root.path + "/" + path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { continue }
            found[path] = UInt64(info.st_ino)
        }
        return found
    }

    /// What the build state's ledger says of the two trees holds: every file but those it names
    /// is one file in both (a hard link), and no file is in one tree alone that it does not name.
    /// Returns how many paths it names; nil when there is no ledger.
    @discardableResult
    func checkTreesInStep(_ site: TestSite, _ context: String) throws -> Int? {
        let file = site.root.appendingPathComponent("folio-state/public.trees")
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let ledger = try XCTUnwrap(LedgerStream(path: file.path).flatMap(TreeLedger.decode(from:)), "\(context): the ledger does not read")
        let differing = Set(ledger.differing)
        let published = inodes(site.publicFolder)
        let next = inodes(site.root.appendingPathComponent(".public.next"))
        func named(_ path: String) -> Bool {
            differing.contains(path) || differing.contains { $0.hasSuffix("/") && path.hasPrefix($0) }
        }
        for path in Set(published.keys).union(next.keys) where !named(path) {
            XCTAssertEqual(published[path], next[path], "\(context): \(path) differs between the trees, and the ledger does not say so")
        }
        return differing.count
    }

    /// Every published file, by path, with its bytes; the build's own state left out.
    func tree(_ root: URL) throws -> [String: Data] { try TestSite.files(under: root) }

    /// An edit's search index is made from the postings the last build kept (only the word
    /// files of the words its changed photos had or have are made), but only from postings of the
    /// word files in place: ones kept for other files (here, those of two builds ago, put back)
    /// are not used, and the site comes out as a cold build's all the same.
    func testTheSearchPostingsKeptAreUsedOnlyForTheWordFilesTheyMade() async throws {
        let site = try TestSite()
        var entries = (0..<30).map { n in
            Entry(path: "photo-\(n).jpg", seed: n % 3, title: "Photo \(n)", user: "Josh", place: nil, favorite: false,
                  taken: now.addingTimeInterval(-Double(n + 2) * 86_400), uploaded: now, mark: n)
        }
        for entry in entries { try writePhoto(entry, to: site) }
        try write(entries, to: site)
        try await site.build(now: now)
        let postings = site.paths.state.appendingPathComponent("public.search")
        let first = try Data(contentsOf: postings)
        entries[12].title = "Photo 12, lighthouse"
        try write(entries, to: site)
        try await site.build(now: now)
        XCTAssertTrue(try site.read("search/data/t-li.js").contains("lighthouse"))
        XCTAssertNotEqual(try Data(contentsOf: postings), first, "kept anew with the edit")
        try await assertSameAsCold(site, entries)

        // Another photo retitled, with the postings of the first build put back: they know
        // nothing of the lighthouse, and an index made from them would lose it.
        entries[25].title = "Harbour"
        try write(entries, to: site)
        try first.write(to: postings)
        try await site.build(now: now)
        XCTAssertTrue(try site.read("search/data/t-li.js").contains("lighthouse"))
        XCTAssertTrue(try site.read("search/data/t-ha.js").contains("harbour"))
        XCTAssertNotEqual(try Data(contentsOf: postings), first, "kept anew")
        try await assertSameAsCold(site, entries)

        // Postings cut short (a disk that filled as they were kept) or with a part's bytes
        // overwritten: their heading reads, a part does not, and the index is made whole.
        let whole = try Data(contentsOf: postings)
        for (damage, damaged) in [("cut short", whole.prefix(whole.count - 9)),
                                  ("overwritten", whole.prefix(whole.count - 40) + Data(repeating: 0x7A, count: 40))] {
            var read = try XCTUnwrap(KeptPostings(damaged), "\(damage): the heading reads")
            var partsRead = 0
            while partsRead < read.parts, read.nextPart() != nil { partsRead += 1 }
            XCTAssertLessThan(partsRead, read.parts, "\(damage): a part does not read")
            entries[3].title = "Photo 3, \(damage) quayside"
            try write(entries, to: site)
            try damaged.write(to: postings)
            try await site.build(now: now)
            XCTAssertTrue(try site.read("search/data/t-qu.js").contains("quayside"), damage)
            XCTAssertTrue(try site.read("search/data/t-li.js").contains("lighthouse"), damage)
            XCTAssertNotEqual(try Data(contentsOf: postings), damaged, "\(damage): kept anew")
            try await assertSameAsCold(site, entries)
        }
    }

    func testEditsAtRandomLeaveTheSiteAColdBuildMakes() async throws {
        var random = SplitMix64(0x5EED_F011)
        let site = try TestSite()
        // Ten to a page, so listings of these few photos run to several pages.
        let settings = Data(#"{"pageSize": 10, "latestCount": 4, "feedCount": 5}"#.utf8)
        try site.write(settings, to: "folio.json")
        var entries: [Entry] = []
        var made = 0
        func newEntry() -> Entry {
            made += 1
            let folder = Self.folders.randomElement(using: &random)!
            return Entry(path: "\(folder)photo-\(made).jpg", seed: Int.random(in: 0..<3, using: &random), title: "Photo \(made)",
                         user: Self.people.randomElement(using: &random)!,
                         place: Bool.random(using: &random) ? Self.places.randomElement(using: &random)! : nil,
                         favorite: Int.random(in: 0..<4, using: &random) == 0,
                         taken: now.addingTimeInterval(-Double(Int.random(in: 0..<(40 * 86_400), using: &random))),
                         uploaded: now.addingTimeInterval(-Double(made * 60)), gps: gps())
        }
        func gps() -> (latitude: Double, longitude: Double)? {
            Bool.random(using: &random) ? (Double.random(in: -60...70, using: &random), Double.random(in: -180...180, using: &random)) : nil
        }
        for _ in 0..<36 {
            let entry = newEntry()
            try writePhoto(entry, to: site)
            entries.append(entry)
        }
        try writeByFolder(entries, to: site)
        try await site.build(now: now)

        for round in 1...8 {
            var done: [String] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0..<entries.count, using: &random)
                switch Int.random(in: 0..<10, using: &random) {
                case 0:
                    entries[at].title += " again"
                    done.append("retitled \(entries[at].path)")
                case 1:
                    entries[at].favorite.toggle()
                    done.append("favorite of \(entries[at].path)")
                case 2:
                    entries[at].place = Bool.random(using: &random) ? Self.places.randomElement(using: &random)! : nil
                    done.append("moved the place of \(entries[at].path)")
                case 3:
                    entries[at].user = Self.people.randomElement(using: &random)!
                    done.append("gave \(entries[at].path) to \(entries[at].user ?? "no one")")
                case 4:
                    entries[at].taken = entries[at].taken.addingTimeInterval(-Double(Int.random(in: 1...20, using: &random)) * 86_400)
                    done.append("redated \(entries[at].path)")
                case 5:
                    let gone = entries.remove(at: at)
                    try FileManager.default.removeItem(at: site.content.appendingPathComponent(gone.path))
                    done.append("deleted \(gone.path)")
                case 6:
                    // Renamed or moved to another folder: a new file as far as the site can tell.
                    let old = entries[at].path
                    let folder = Self.folders.randomElement(using: &random)!
                    made += 1
                    entries[at].path = "\(folder)moved-\(made).jpg"
                    try site.write(try Data(contentsOf: site.content.appendingPathComponent(old)), to: "content/\(entries[at].path)")
                    try FileManager.default.removeItem(at: site.content.appendingPathComponent(old))
                    done.append("moved \(old) to \(entries[at].path)")
                case 7:
                    entries[at].gps = gps()
                    done.append("gave \(entries[at].path) GPS \(String(describing: entries[at].gps))")
                case 8:
                    // The file written over with other bytes, in place: its media are made again,
                    // and its old ones go unless another photo has those bytes.
                    made += 1
                    entries[at].seed = Int.random(in: 0..<3, using: &random)
                    entries[at].mark = Bool.random(using: &random) ? made : nil
                    try writePhoto(entries[at], to: site)
                    done.append("replaced \(entries[at].path) with seed \(entries[at].seed), mark \(String(describing: entries[at].mark))")
                default:
                    let entry = newEntry()
                    try writePhoto(entry, to: site)
                    entries.append(entry)
                    done.append("added \(entry.path)")
                }
            }
            try writeByFolder(entries, to: site)
            // Every third round the site's output goes through a copy first, as a CI job's cache
            // restores it: another folder, known again by its files' bytes (`BuildState.adoptMovedOutput`).
            if round % 3 == 2 {
                let copy = site.root.appendingPathComponent("restored")
                try FileManager.default.copyItem(at: site.publicFolder, to: copy)
                try FileManager.default.removeItem(at: site.publicFolder)
                try FileManager.default.moveItem(at: copy, to: site.publicFolder)
                done.append("public/ restored from a copy")
            }
            // Every other round built as a large library's (content/ read a part at a time, its
            // photos rows read where they lie); the cold builds are read whole and hold theirs.
            let report = try await site.build(now: now, asLarge: round % 2 == 1)
            XCTAssertTrue(report.issues.isEmpty, "round \(round): \(report.issues)")
            XCTAssertLessThan(report.pagesRendered, report.pages, "round \(round) redrew every page: \(done)")

            let differing = try checkTreesInStep(site, "round \(round)")
            if round > 1 { XCTAssertNotNil(differing, "round \(round) kept no ledger of the trees") }
            let fresh = try await coldBuild(of: entries, settings: settings, byFolder: true, timesOf: site)
            let (incremental, cold) = (try tree(site.publicFolder), try tree(fresh.publicFolder))
            XCTAssertEqual(Set(incremental.keys).symmetricDifference(cold.keys).sorted(), [], "round \(round), after \(done)")
            for (path, bytes) in cold where incremental[path] != bytes {
                XCTFail("round \(round), after \(done): \(path) differs from a cold build's")
            }
        }
    }

    func testOnePhotosEditRedrawsOnlyThePagesThatShowIt() async throws {
        let site = try TestSite()
        var entries: [Entry] = []
        for n in 0..<30 {
            entries.append(Entry(path: "\(n % 2 == 0 ? "a" : "b")/photo-\(n).jpg", seed: n % 3, title: "Photo \(n)",
                                 user: Self.people[n % 4], place: Self.places[n % 5], favorite: n % 7 == 0,
                                 taken: now.addingTimeInterval(-Double(n) * 86_400 * 3), uploaded: now.addingTimeInterval(-Double(n) * 60)))
            try site.photo(entries[n].path, from: Self.seeds[n % 3])
        }
        try write(entries, to: site)
        let first = try await site.build(now: now)
        XCTAssertEqual(first.pagesRendered, first.pages)

        entries[20].title = "A new title"
        try write(entries, to: site)
        let report = try await site.build(now: now)
        // Its page and its two neighbours'; its place's, region's, person's and album's
        // listings; the Albums index, whose rows' covers are their newest photos, is not among
        // them (photo 20 is no album's newest). Nothing else.
        XCTAssertLessThanOrEqual(report.pagesRendered, 8, "of \(report.pages)")
        XCTAssertGreaterThanOrEqual(report.pagesRendered, 5)
        XCTAssertTrue(try site.read("photos/\(try site.identifier("a/photo-20.jpg")).html").contains("A new title"))
        // Not even looked at: the other photos' pages, and the listings photo 20 is not in. The
        // indexes are always looked at.
        XCTAssertEqual(first.pagesLookedAt, first.pages)
        XCTAssertLessThan(report.pagesLookedAt, report.pages / 2, "of \(report.pages)")
        XCTAssertTrue(report.summary.contains("\(report.pagesLookedAt) pages looked at, \(report.pagesRendered) rendered"), report.summary)
        // Another theme: every page is looked at again.
        try site.write(Data("p { color: red }".utf8), to: "templates/assets/extra.css")
        let restyled = try await site.build(now: now)
        XCTAssertEqual(restyled.pagesLookedAt, restyled.pages)
    }

    /// Listings are cut into pages where their photos say (`ListingPages`), so a photo added, or
    /// taken away and put back, rewrites the pages it is on, its listings' first pages and its
    /// neighbours' pages; not every page after it, as pages numbered from the top would. The
    /// search index's photo files are cut and numbered the same way (`SearchNumbering`): a few
    /// of them change, not every one after it.
    func testAPhotoAddedOrComingBackRewritesOnlyThePagesItIsOn() async throws {
        let site = try TestSite()
        try site.write(Data(#"{"pageSize": 10}"#.utf8), to: "folio.json")
        var entries: [Entry] = []
        for n in 0..<160 {
            entries.append(Entry(path: "trip-\(n % 4)/photo-\(n).jpg", seed: n % 3, title: "Photo \(n)", user: "Josh", place: Self.places[2],
                                 favorite: false, taken: now.addingTimeInterval(-Double(n + 3) * 86_400), uploaded: now.addingTimeInterval(-Double(n) * 60)))
            try site.photo(entries[n].path, from: Self.seeds[n % 3])
        }
        try write(entries, to: site)
        try await site.build(now: now)
        let listings = ["albums/trip", "places/", "people/josh", "regions/"]
        func listing(_ path: String) -> String? {
            path.hasPrefix("places/index") || path.hasPrefix("regions/index") ? nil : listings.first { path.hasPrefix($0) }
        }
        func pages(_ tree: [String: Data]) -> [String: Set<String>] {
            var found: [String: Set<String>] = [:]
            for path in tree.keys where path.hasSuffix(".html") {
                if let listing = listing(path) {
                    found[listing, default: []].insert(path)
                }
            }
            return found
        }
        /// The pages of each listing, the photo pages and the search index's photo files that
        /// differ from one tree to the next.
        func changed(_ before: [String: Data], _ after: [String: Data]) -> (listings: [String: Int], photos: [String], shards: [String]) {
            let differing = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
            let paths = differing.filter { $0.hasSuffix(".html") }
            var listingPages: [String: Int] = [:]
            for path in paths {
                if let listing = listing(path) {
                    listingPages[listing, default: 0] += 1
                }
            }
            return (listingPages, paths.filter { $0.hasPrefix("photos/") }.sorted(), differing.filter { $0.hasPrefix("search/data/p-") }.sorted())
        }
        let shardCount = { (tree: [String: Data]) in tree.keys.filter { $0.hasPrefix("search/data/p-") }.count }
        let start = try tree(site.publicFolder)
        for listing in listings {
            XCTAssertGreaterThanOrEqual(pages(start)[listing]?.count ?? 0, 8, "\(listing) is cut into pages")
        }

        // A new photo, the newest: the first page of each listing (its album's last), and perhaps
        // the page a full first page hands photos to, and it and its neighbour's pages.
        entries.append(Entry(path: "trip-0/photo-new.jpg", seed: 0, title: "New", user: "Josh", place: Self.places[2],
                             favorite: false, taken: now.addingTimeInterval(-2 * 86_400), uploaded: now))
        try site.photo(entries.last!.path, from: Self.seeds[0])
        try write(entries, to: site)
        try await site.build(now: now)
        let added = try tree(site.publicFolder)
        let afterAdding = changed(start, added)
        for listing in listings {
            XCTAssertLessThanOrEqual(afterAdding.listings[listing] ?? 0, 3, "\(listing): \(afterAdding.listings)")
        }
        XCTAssertLessThanOrEqual(afterAdding.photos.count, 2, "\(afterAdding.photos)")
        XCTAssertLessThanOrEqual(afterAdding.shards.count, 2, "\(afterAdding.shards) of \(shardCount(added))")

        // Photos from the middle taken away and put back, one at a time: the pages they come back
        // to, the first of each listing (its count), and at most a neighbour each when a page
        // boundary moves; their own pages and their neighbours'.
        for taken in [40, 77, 118] {
            let away = entries.remove(at: taken)
            try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/\(away.path)"))
            try write(entries, to: site)
            try await site.build(now: now)
            let without = try tree(site.publicFolder)
            entries.insert(away, at: taken)
            try site.photo(away.path, from: Self.seeds[away.seed])
            try write(entries, to: site)
            let back = try await site.build(now: now)
            let with = try tree(site.publicFolder)
            let comingBack = changed(without, with)
            for listing in listings {
                XCTAssertLessThanOrEqual(comingBack.listings[listing] ?? 0, 4, "photo \(taken), \(listing): \(comingBack.listings)")
            }
            XCTAssertLessThanOrEqual(comingBack.photos.count, 3, "photo \(taken): \(comingBack.photos)")
            XCTAssertLessThanOrEqual(comingBack.shards.count, 3, "photo \(taken): \(comingBack.shards) of \(shardCount(with))")
            XCTAssertLessThan(back.pagesWritten, 30, "of \(back.pages)")
            XCTAssertLessThan(back.pagesLookedAt, back.pages / 2, "the pages it is on and beside are looked at, not every page")
            XCTAssertEqual(with, added, "photo \(taken) back, the site is as it was")
        }
        let fresh = try await coldBuild(of: entries, settings: Data(#"{"pageSize": 10}"#.utf8))
        XCTAssertEqual(try tree(site.publicFolder), try tree(fresh.publicFolder))
    }

    /// A cold build links each file it makes into a twin that becomes the tree beside the new
    /// site: the build after it links nothing and looks at no photo it did not change. A twin
    /// left by a build killed after its swap is taken as the next tree, one left before it goes.
    func testAColdBuildLeavesTheTreeBesideTheSiteInStep() async throws {
        let site = try TestSite()
        var entries: [Entry] = []
        for n in 0..<6 {
            let taken = now.addingTimeInterval(-Double(n) * 86_400), uploaded = now.addingTimeInterval(-Double(n) * 60)
            entries.append(Entry(path: "album-\(n % 2)/photo-\(n).jpg", seed: n % 3, title: "Photo \(n)", user: "Ann",
                                 place: Self.places[n % 5], favorite: n == 2, taken: taken, uploaded: uploaded, mark: n))
        }
        for entry in entries { try writePhoto(entry, to: site) }
        try write(entries, to: site)
        try await site.build(now: now)
        let next = site.root.appendingPathComponent(".public.next")
        let twin = site.root.appendingPathComponent(".public.twin")
        let published = inodes(site.publicFolder)
        XCTAssertGreaterThan(published.count, 20)
        XCTAssertEqual(inodes(next), published, "every file of the new site is one file in both trees")
        XCTAssertFalse(FileManager.default.fileExists(atPath: twin.path))
        XCTAssertEqual(try checkTreesInStep(site, "cold"), 0, "a ledger that says the trees differ nowhere")

        entries[3].title = "Retitled"
        try write(entries, to: site)
        let retitled = try await site.build(now: now)
        XCTAssertEqual(retitled.photosLookedAt, 0, retitled.summary)
        try await assertSameAsCold(site, entries)
        try checkTreesInStep(site, "after the edit")

        // Killed after its swap, before the twin took the next tree's name: no ledger, the twin
        // under its own name. The next build takes it, looks at every file and is in step again.
        try FileManager.default.moveItem(at: next, to: twin)
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("folio-state/public.trees"))
        entries[4].favorite = true
        try write(entries, to: site)
        let adopted = try await site.build(now: now)
        XCTAssertTrue(adopted.succeeded, adopted.summary)
        XCTAssertFalse(FileManager.default.fileExists(atPath: twin.path))
        try await assertSameAsCold(site, entries)
        XCTAssertNotNil(try checkTreesInStep(site, "after the twin was taken"))

        // Killed before its swap: no public/, half a next tree and half a twin. The twin goes,
        // and the build is an ordinary one in the half-made tree, which leaves no twin behind.
        try FileManager.default.removeItem(at: site.publicFolder)
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("folio-state/public.trees"))
        try FileManager.default.createDirectory(at: twin.appendingPathComponent("media"), withIntermediateDirectories: true)
        try Data("half".utf8).write(to: twin.appendingPathComponent("index.html"))
        let again = try await site.build(now: now)
        XCTAssertTrue(again.succeeded, again.summary)
        XCTAssertFalse(FileManager.default.fileExists(atPath: twin.path))
        try await assertSameAsCold(site, entries)
    }

    /// `site`'s published files are those a cold build of `entries` makes, byte for byte.
    func assertSameAsCold(_ site: TestSite, _ entries: [Entry], file: StaticString = #filePath, line: UInt = #line) async throws {
        let fresh = try await coldBuild(of: entries, settings: Data("{}".utf8))
        XCTAssertEqual(try tree(site.publicFolder), try tree(fresh.publicFolder), file: file, line: line)
    }

    /// The media files of `site` whose names start with `checksum`'s prefix.
    func media(of checksum: String, in site: TestSite) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: site.publicFolder.appendingPathComponent("media").path)
            .filter { $0.hasPrefix(checksum.prefix(16) + "-") }
    }

    func testAPhotoFileReplacedIsThePhotoWhoseMediaAreLookedAt() async throws {
        let site = try TestSite()
        // Every photo its own bytes, but photos 0 and 1, which share theirs.
        var entries = (0..<12).map { n in
            Entry(path: "photo-\(n).jpg", seed: n == 0 ? 1 : n % 3, title: "Photo \(n)", user: "Josh", place: Self.places[n % 5], favorite: false,
                  taken: now.addingTimeInterval(-Double(n) * 86_400), uploaded: now.addingTimeInterval(-Double(n) * 60), mark: max(1, n))
        }
        for entry in entries { try writePhoto(entry, to: site) }
        try write(entries, to: site)
        let cold = try await site.build(now: now)
        XCTAssertEqual(cold.photosLookedAt, 12)
        // The cold build left the tree beside the site in step (its twin), and each photo's media known.
        entries[5].title = "Retitled"
        try write(entries, to: site)
        let retitled = try await site.build(now: now)
        XCTAssertEqual(retitled.photosLookedAt, 0, retitled.summary)
        XCTAssertTrue(retitled.summary.contains("0 photos looked at"), retitled.summary)

        // One file written over: its media only, made again; the old ones gone.
        let old = try XCTUnwrap(site.database.photo(identifier: try site.identifier("photo-7.jpg"))).checksum
        XCTAssertFalse(try media(of: old, in: site).isEmpty)
        entries[7].mark = 100
        try writePhoto(entries[7], to: site)
        let replaced = try await site.build(now: now)
        XCTAssertEqual(replaced.photosLookedAt, 1, replaced.summary)
        XCTAssertGreaterThan(replaced.renditionsMade, 0)
        XCTAssertEqual(try media(of: old, in: site), [], "the replaced file's media are no page's any more")
        let new = try XCTUnwrap(site.database.photo(identifier: try site.identifier("photo-7.jpg"))).checksum
        XCTAssertNotEqual(new, old)
        XCTAssertFalse(try media(of: new, in: site).isEmpty)

        // One of two photos with the same bytes written over: their media stay, the other's.
        let shared = try XCTUnwrap(site.database.photo(identifier: try site.identifier("photo-0.jpg"))).checksum
        entries[0].mark = 101
        try writePhoto(entries[0], to: site)
        let twin = try await site.build(now: now)
        XCTAssertEqual(twin.photosLookedAt, 1, twin.summary)
        XCTAssertFalse(try media(of: shared, in: site).isEmpty, "photo 1 still shows them")

        // A photo removed: nothing looked at, its media gone.
        let gone = try XCTUnwrap(site.database.photo(identifier: try site.identifier("photo-9.jpg"))).checksum
        entries.remove(at: 9)
        try FileManager.default.removeItem(at: site.content.appendingPathComponent("photo-9.jpg"))
        try write(entries, to: site)
        let removed = try await site.build(now: now)
        XCTAssertEqual(removed.photosLookedAt, 0, removed.summary)
        XCTAssertEqual(try media(of: gone, in: site), [])

        // A setting that names media otherwise: every photo looked at again.
        try site.write(Data(#"{"thumbnailSizes": [240]}"#.utf8), to: "folio.json")
        let resized = try await site.build(now: now)
        XCTAssertEqual(resized.photosLookedAt, 11)
        let fresh = try await coldBuild(of: entries, settings: Data(#"{"thumbnailSizes": [240]}"#.utf8))
        XCTAssertEqual(try tree(site.publicFolder).keys.sorted(), try tree(fresh.publicFolder).keys.sorted())
    }
}

import Foundation
import XCTest
@testable import FolioCore

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

    /// A cold build of the same content and settings, in a folder of its own.
    func coldBuild(of entries: [Entry], settings: Data) async throws -> TestSite {
        let fresh = try TestSite()
        try fresh.write(settings, to: "folio.json")
        for entry in entries { try fresh.photo(entry.path, from: Self.seeds[entry.seed]) }
        try write(entries, to: fresh)
        try await fresh.build(now: now)
        return fresh
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
        let ledger = try JSONDecoder().decode(TreeLedger.self, from: Data(contentsOf: file))
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
    func tree(_ root: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])!
        for case let url as URL in enumerator where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
            let path = String(url.path.dropFirst(root.path.count + 1))
            if path.hasPrefix(".folio") { continue }
            files[path] = try Data(contentsOf: url)
        }
        return files
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
            try site.photo(entry.path, from: Self.seeds[entry.seed])
            entries.append(entry)
        }
        try write(entries, to: site)
        try await site.build(now: now)

        for round in 1...8 {
            var done: [String] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0..<entries.count, using: &random)
                switch Int.random(in: 0..<9, using: &random) {
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
                default:
                    let entry = newEntry()
                    try site.photo(entry.path, from: Self.seeds[entry.seed])
                    entries.append(entry)
                    done.append("added \(entry.path)")
                }
            }
            try write(entries, to: site)
            let report = try await site.build(now: now)
            XCTAssertTrue(report.issues.isEmpty, "round \(round): \(report.issues)")
            XCTAssertLessThan(report.pagesRendered, report.pages, "round \(round) redrew every page: \(done)")

            let differing = try checkTreesInStep(site, "round \(round)")
            if round > 1 { XCTAssertNotNil(differing, "round \(round) kept no ledger of the trees") }
            let fresh = try await coldBuild(of: entries, settings: settings)
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
}

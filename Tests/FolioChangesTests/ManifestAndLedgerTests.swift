@testable import FolioChanges
import FolioCore
import FolioTestSupport
import Foundation
import XCTest

/// The page manifest and the media ledger as values: what they read back as, whatever they hold.
final class ManifestAndLedgerTests: XCTestCase {
    func testTheManifestReadsBackAsWrittenWhateverItsPaths() {
        var random = SplitMix64(0xFACE_0FF5)
        var manifest = PageManifest()
        let names = ["index.html", "a b/c d.html", "café/été.html", "@odd.html", "x/ @y.html", "日本/京都.html", "search/data/t-zz.js"]
        for number in 0..<500 {
            let path = number < names.count ? names[number] : "photos/p\(random.next() % 100_000).html"
            manifest[path] = PageManifest.Entry(checksum: random.next(), input: number % 7 == 0 ? PageManifest.wholeFile : random.next(),
                                                changed: Date(timeIntervalSince1970: TimeInterval(random.next() % 4_000_000_000)))
        }
        let written = manifest.encoded()
        XCTAssertEqual(PageManifest.decode(written).entries, manifest.entries, "read a byte at a time")
        XCTAssertEqual(PageManifest.decode(String(decoding: written, as: UTF8.self)).entries, manifest.entries, "read as text")
        XCTAssertEqual(written, PageManifest.decode(written).encoded(), "written again, the same bytes")
        let paths = String(decoding: written, as: UTF8.self).split(separator: "\n").map { String($0.split(separator: " ", maxSplits: 3)[3]) }
        XCTAssertEqual(paths.map { Array($0.utf8) }, paths.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) },
                       "in the order of their bytes")
        XCTAssertEqual(Set(paths), Set(manifest.entries.keys))

        // An older Folio's lines (no date, a longer digest) and a damaged one, among this Folio's.
        let mixed = Data(("0123456789abcdef fedcba9876543210 old page.html\n"
            + String(repeating: "ab", count: 32) + " 0000000000000001 @12 long.html\n"
            + "damaged\n" + "0123456789abcdef 0123456789abcdef @99 new.html\n").utf8)
        let read = PageManifest.decode(mixed)
        XCTAssertEqual(read.entries["old page.html"], PageManifest.Entry(checksum: 0x0123456789abcdef, input: 0xfedcba9876543210, changed: nil))
        XCTAssertEqual(read.entries["long.html"]?.checksum, 1, "an older digest reads as 1, which no page's hash is")
        XCTAssertEqual(read.entries["new.html"]?.changed, Date(timeIntervalSince1970: 99))
        XCTAssertEqual(read.entries.count, 3)
        XCTAssertEqual(read.entries, PageManifest.decode(String(decoding: mixed, as: UTF8.self)).entries)

        // Set as pages are drawn, in any order and a path twice: the last set is kept, looked up
        // before the manifest is sorted and after, and written once.
        var drawn = PageManifest()
        let first = PageManifest.Entry(checksum: 1, input: 2, changed: Date(timeIntervalSince1970: 5))
        let last = PageManifest.Entry(checksum: 3, input: 4, changed: Date(timeIntervalSince1970: 6))
        for path in ["b.html", "a.html", "ab.html", "a"] { drawn[path] = first }
        drawn["a.html"] = PageManifest.Entry(checksum: 7, input: 8)
        drawn["ab.html"] = first
        drawn["a.html"] = last
        XCTAssertEqual(drawn["a.html"], last)
        XCTAssertNil(drawn["c.html"])
        drawn.sort()
        XCTAssertEqual(drawn["a.html"], last)
        XCTAssertEqual(drawn["a"], first)
        XCTAssertNil(drawn["a.htm"])
        XCTAssertEqual(drawn.count, 4)
        XCTAssertEqual(Array(drawn.paths), ["a", "a.html", "ab.html", "b.html"])
        XCTAssertEqual(PageManifest.decode(drawn.encoded()).entries, ["a": first, "a.html": last, "ab.html": first, "b.html": first])
    }

    /// Looked for from where the path before was (the render step's pages in path order), an
    /// entry is found where the search from the middle finds it, whatever the hint: before,
    /// after, on the path, at either end; and a path the manifest lacks is found nowhere.
    func testAnEntryLookedForFromAHintIsWhereTheWholeSearchFindsIt() {
        var random = SplitMix64(0x41_1E_AD)
        var manifest = PageManifest()
        for _ in 0..<700 {
            manifest["photos/p\(random.next() % 5_000).html"] = PageManifest.Entry(checksum: random.next(), input: 1, changed: nil)
        }
        for path in ["index.html", "a", "zz/é.html", "photos/p.html"] { manifest[path] = PageManifest.Entry(checksum: 1, input: 1, changed: nil) }
        manifest.sort()
        let paths = Array(manifest.paths)
        let asked = paths + ["photos/p5000.html", "photos/q.html", "", "0", "photos/p1", "zzz"]
        for path in asked {
            let whole = manifest.position(of: path)
            XCTAssertEqual(whole != nil, paths.contains(path), path)
            for hint in [0, 1, paths.count / 2, paths.count - 1, paths.count, -1] + (0..<8).map({ _ in Int(random.next() % UInt64(paths.count)) }) {
                XCTAssertEqual(manifest.position(of: path, after: hint), whole, "\(path) from \(hint)")
            }
            if let whole, whole > 0 {
                XCTAssertEqual(manifest.position(of: path, after: whole - 1), whole, "the next row")
            }
        }
        // Walked in order, each from the one before: every one found.
        var hint = 0
        for (position, path) in paths.enumerated().dropFirst() {
            XCTAssertEqual(manifest.position(of: path, after: hint), position)
            hint = position
        }
    }

    func testTheNextManifestIsTheOneMadeWholeOverTheLastBuilds() throws {
        try checkNextManifest(spilling: false)
    }

    /// The same, the entries at new paths put in lots of five on disk as they come: a path set
    /// again in a later lot, or held, is that entry; none of them is held past a lot.
    func testTheNextManifestInLotsIsTheOneMadeWholeToo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-lots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try checkNextManifest(spilling: true, in: folder.path)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "the lots' file has no name")
        // A folder that takes no file: every entry is held.
        try checkNextManifest(spilling: false, in: folder.appendingPathComponent("missing").path)
    }

    private func checkNextManifest(spilling: Bool, in folder: String? = nil) throws {
        var random = SplitMix64(0x0E1D_F00D)
        func entry() -> PageManifest.Entry {
            PageManifest.Entry(checksum: random.next(), input: random.next() % 5 == 0 ? PageManifest.wholeFile : random.next(),
                               changed: Date(timeIntervalSince1970: TimeInterval(random.next() % 4_000_000_000) + 0.75))
        }
        for round in 0..<20 {
            // The last build's pages; this build draws some again, leaves some out, adds others.
            var last = PageManifest()
            for _ in 0..<(round * 37) { last["photos/p\(random.next() % 2_000).html"] = entry() }
            if round % 3 == 0 { last["日本/京都.html"] = entry() }
            let lastPaths = Set(last.entries.keys)
            var next = NextManifest(last: last, spillingInto: folder, lotSize: 5)
            var held = 0
            var whole = PageManifest()
            for path in lastPaths.sorted().shuffled(using: &random) where random.next() % 4 != 0 {
                XCTAssertEqual(next.last(path), last[path], "the last build's entry, asked before it is set")
                let drawn = entry()
                next.set(path, drawn)
                whole[path] = drawn
            }
            for _ in 0..<(round * 11) {
                let path = random.next() % 2 == 0 ? "photos/p\(random.next() % 2_000).html" : "search/data/w\(random.next() % 300).js"
                let drawn = entry()
                next.set(path, drawn)
                whole[path] = drawn
                held = max(held, next.heldAdded)
            }
            next.finish()
            if !spilling || round >= 3 { XCTAssertEqual(next.hasLots, spilling, "round \(round)") }
            XCTAssertLessThanOrEqual(held, spilling ? 5 : .max)
            XCTAssertEqual(next.lastIsEmpty, lastPaths.isEmpty)
            XCTAssertEqual(Set(next.lastPaths), lastPaths, "the last build's paths, those dropped too")
            for path in lastPaths.union(whole.entries.keys) {
                XCTAssertEqual(next.has(path), whole[path] != nil, path)
            }
            var written = Data()
            next.encode { written.append(contentsOf: $0) }
            XCTAssertEqual(written, whole.encoded(), "round \(round): the same bytes as the manifest made whole")
            XCTAssertEqual(next.manifest.entries, whole.entries)
            XCTAssertEqual(last.only(under: "photos/").entries, last.entries.filter { $0.key.hasPrefix("photos/") })
            // Merged with a manifest that has some of its paths: that one's entries win, each path once.
            var merged: [(String, PageManifest.Entry)] = []
            whole.sort()
            last.sort()
            PageManifest.merge([last.run(), whole.run()]) { merged.append((String(decoding: $0, as: UTF8.self), $1.entry)) }
            XCTAssertEqual(merged.map(\.0), Array(lastPaths.union(whole.entries.keys)).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
            XCTAssertEqual(Dictionary(merged, uniquingKeysWith: { a, _ in a }), last.entries.merging(whole.entries) { $1 })
        }
    }

    /// The ledger of where the trees differ names a path to a line: every page of a large site
    /// after a build that drew them all, written and read a piece at a time.
    func testTheTreesLedgerReadsBackAsWrittenAndNothingElseReadsAsOne() throws {
        let paths = ["index.html", "a b/c d.html", "café/été.html", "日本/京都.html", "media/tiles/0123/", "-"]
            + (0..<5_000).map { "photos/p\($0).html" }
        let ledger = TreeLedger(pages: "0123456789abcdef", next: "2049:77", differing: PathSet(paths), media: "fedcba9876543210",
                                inUse: 42, others: ["media/map-places-0123456789ab.js", "media/world-ba9876543210.svg"])
        let written = ledger.encoded()
        var streamed = Data()
        ledger.encode { streamed.append(contentsOf: $0) }
        XCTAssertEqual(streamed, written, "written a piece at a time: the same bytes")
        XCTAssertGreaterThan(written.count, 1 << 16, "in more than one piece")
        func read(_ data: Data) -> TreeLedger? { TreeLedger.decode(from: LedgerStream(bytes: data)) }
        let back = try XCTUnwrap(read(written))
        XCTAssertEqual(Array(back.differing), paths, "each path, in the order written")
        XCTAssertEqual([back.pages, back.next, back.media], [ledger.pages, ledger.next, ledger.media])
        XCTAssertEqual(back.inUse, 42)
        XCTAssertEqual(back.others, ledger.others)
        // Fields it may lack: none, not an empty one.
        let bare = try XCTUnwrap(read(TreeLedger(pages: "p", next: "n", differing: []).encoded()))
        XCTAssertNil(bare.media)
        XCTAssertNil(bare.inUse)
        XCTAssertNil(bare.others)
        XCTAssertEqual(bare.differing.count, 0)
        XCTAssertEqual(try XCTUnwrap(read(TreeLedger(pages: "p", next: "n", differing: [], others: []).encoded())).others, [])
        // Cut short anywhere, a line more than counted (a path with a line break in it), or the
        // JSON an older Folio wrote: not a ledger (the next build looks at every file).
        for cut in [1, 20, written.count / 2, written.count - 6, written.count - 2] {
            XCTAssertNil(read(written.prefix(cut)), "cut at \(cut)")
        }
        XCTAssertNil(read(TreeLedger(pages: "p", next: "n", differing: ["a\nb.html"]).encoded()))
        XCTAssertNil(read(Data(#"{"pages":"p","next":"n","differing":[]}"#.utf8)))
    }

    /// The ledger's entries put aside as they are planned (`Entries.Parked`) come back as they
    /// went, set in any order and parked in shares of any ids, but those of the photos whose
    /// images failed: held in memory, or spilled to a file in several records.
    func testTheMediaLedgerParkedComesBackAsItWent() throws {
        var random = SplitMix64(0x9A2C_ED00)
        var entries = MediaLedger.Entries()
        let ids = (1...10_000).map({ Int64($0 * 3) }).shuffled(using: &random)
        for id in ids {
            entries[id] = MediaLedger.Entry(digest: random.next(), renditions: Int(random.next() % 12),
                                            prefix: id % 5 == 0 ? nil : String(ContentHash.hexText(random.next()).prefix(Int(id % 16) + 1)),
                                            clipPrefix: id % 4 == 0 ? ContentHash.hexText(random.next()) : nil)
        }
        var ordered = entries
        ordered.putInOrder()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-ledger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        // Whole; in shares of ids in any order (as a plan parks them); in shares each after the
        // one before; an empty share among them.
        let shuffled = stride(from: 0, to: ids.count, by: 2_500).map { Array(ids[$0..<min($0 + 2_500, ids.count)]) }
        let rising = stride(from: 0, to: ids.count, by: 4_000).map { Array(ordered.items[$0..<min($0 + 4_000, ids.count)].map(\.id)) }
        for shares in [[ids], shuffled, rising + [[]]] {
            for (store, spills) in [(PackedStore(spillingInto: nil), false), (PackedStore(spillingInto: folder.path, at: 1 << 12), true)] {
                var parked = MediaLedger.Entries.Parked(in: store)
                for share in shares {
                    var some = MediaLedger.Entries()
                    for id in share { some[id] = ordered[id] }
                    parked.park(some)
                }
                parked.seal()
                XCTAssertEqual(parked.count, ordered.count)
                XCTAssertEqual(store.spills, spills)
                XCTAssertEqual(parked.take(), ordered)
                let failed: Set<Int64> = [3, 3 * 5_000, 3 * 10_000, 4]
                let less = parked.take(removing: failed)
                XCTAssertEqual(less, ordered.removing(failed))
                XCTAssertEqual(less.count, ordered.count - 3)
                XCTAssertEqual(less[3 * 4_999], ordered[3 * 4_999])
                XCTAssertEqual(less.items.map(\.id), less.items.map(\.id).sorted())
            }
        }
    }

    func testTheMediaLedgerReadsBackAsWrittenAndNothingElseReadsAsOne() {
        var random = SplitMix64(0x1ED6_E125)
        var ledger = MediaLedger(drawing: "0123456789abcdef", thumbnails: "200000 5000050000.0 200001")
        for id in (1...300).map({ Int64($0 * 7) }) + [Int64.max] {
            ledger.entries[id] = MediaLedger.Entry(digest: random.next(), renditions: Int(random.next() % 12),
                                                   prefix: id % 5 == 0 ? nil : String(ContentHash.hexText(random.next()).prefix(id % 3 == 0 ? 2 : 16)),
                                                   clipPrefix: id % 4 == 0 ? ContentHash.hexText(random.next()) : nil)
        }
        let written = ledger.encoded()
        XCTAssertEqual(MediaLedger.decode(written), ledger)
        // Written a piece at a time (`BuildState.stage(media:)`): the same bytes.
        var streamed = Data()
        ledger.encode { streamed.append(contentsOf: $0) }
        XCTAssertEqual(streamed, written)
        // Set in any order (as the plan sets the photos it looks at, in the site's order), put
        // in order: the same ledger, the same bytes; a photo taken out is gone from both.
        var shuffled = MediaLedger(drawing: ledger.drawing, thumbnails: ledger.thumbnails)
        var items = ledger.entries.items
        for at in items.indices.reversed() { items.swapAt(at, Int(random.next() % UInt64(at + 1))) }
        for item in items { shuffled.entries[item.id] = item.entry }
        XCTAssertEqual(shuffled.encoded(), written)
        shuffled.entries.putInOrder()
        XCTAssertEqual(shuffled, ledger)
        XCTAssertEqual(shuffled.entries[7 * 40], ledger.entries.items.first { $0.id == 7 * 40 }?.entry)
        XCTAssertNil(shuffled.entries[8])
        let less = shuffled.entries.removing([7, 7 * 40, 9])
        XCTAssertEqual(less.count, ledger.entries.count - 2)
        XCTAssertNil(less[7 * 40])
        XCTAssertEqual(less[7 * 41], ledger.entries[7 * 41])
        XCTAssertEqual(MediaLedger.decode(written)?.encoded(), written, "written again, the same bytes")
        XCTAssertEqual(MediaLedger.decode(MediaLedger(drawing: "d", thumbnails: "").encoded()), MediaLedger(drawing: "d", thumbnails: ""))
        // Cut short anywhere, or one field damaged: not a ledger (the next build plans every photo).
        for cut in [1, 20, written.count / 2, written.count - 1] {
            XCTAssertNil(MediaLedger.decode(written.prefix(cut)), "cut at \(cut)")
        }
        var text = String(decoding: written, as: UTF8.self)
        text = text.replacingOccurrences(of: "\n7 ", with: "\nx7 ")
        XCTAssertNil(MediaLedger.decode(Data(text.utf8)))
        XCTAssertNil(MediaLedger.decode(written + Data("8 0 0 - -\n".utf8)), "more lines than it says")
        // A prefix is up to sixteen lower-case hex digits, leading zeros its own.
        let one = MediaLedger(drawing: "d", thumbnails: "t")
        for prefix in ["00ab", "0", "0123456789abcdef"] {
            var ledger = one
            ledger.entries[1] = MediaLedger.Entry(digest: 1, renditions: 2, prefix: prefix, clipPrefix: nil)
            XCTAssertEqual(ledger.entries[1]?.prefix, prefix)
            XCTAssertEqual(MediaLedger.decode(ledger.encoded()), ledger, prefix)
        }
        for prefix in ["00AB", "0123456789abcdef0", "x1"] {
            let text = String(decoding: one.encoded(), as: UTF8.self).replacingOccurrences(of: "photos 0", with: "photos 1") + "1 1 2 \(prefix) -\n"
            XCTAssertNil(MediaLedger.decode(Data(text.utf8)), prefix)
        }
    }
}

import FolioCore
import Foundation

/// The runs of library mode, in one site: cold, no-op, one photo edited in its catalog, 1% of the
/// photos edited, a no-op with a few photos failing and a few warnings, a photo coming back. Each
/// row says the wall time, the folio process's peak memory, how many pages were written (for a
/// photo coming back, how many of the search index's files too) and the largest page of the site
/// as it then is.
struct LibraryScenarios {
    let library: Library
    let folio: URL
    let runs: Int
    /// Start from the site as it is: another Folio's site, taken over by this one.
    var warm = false

    func run() throws {
        var report = Report()
        let site = library.site

        if warm {
            row(&report, "first build of the site as left (catalogs put back as made)", [try build()], site: site)
        } else {
            row(&report, "cold build", [try coldBuild()], site: site)
        }

        let noop = try (0..<runs).map { _ in try build() }
        row(&report, "no-op build", noop, site: site, largest: false)

        // One photo in the middle of the library: its title, its favorite and its place.
        var one: [Measured] = []
        for round in 0..<runs {
            try library.edit([library.photos / 2 + round], round: round, moving: true)
            one.append(try build())
        }
        row(&report, "one photo edited (title, favorite, place)", one, site: site, largest: false)

        let share = max(1, library.photos / 100)
        var many: [Measured] = []
        for round in 0..<runs {
            let stride = max(1, library.photos / share)
            try library.edit((0..<share).map { ($0 * stride + round * 3) % library.photos }, round: round, moving: round == 0)
            many.append(try build())
        }
        row(&report, "\(share) photos edited (1%)", many, site: site)

        // The same library with a few files that will not decode and sidecars that will not
        // read: what a build says, it says again on every build until they are fixed.
        try library.addProblems(10)
        _ = try build(planted: true)
        let standing = try (0..<runs).map { _ in try build(planted: true) }
        row(&report, "no-op build, 10 photos failing and 10 warnings", standing, site: site, largest: false)
        try library.removeProblems()

        // A photo's file taken away and put back: the pages it comes back to are written again,
        // with its listings' first pages and its neighbours' pages, not the pages after it; and
        // the search index's files of the photos near it in time, not every one.
        var returning: [Measured] = []
        var searchWritten: [Int] = []
        for round in 0..<runs {
            let index = library.photos / 3 + round
            try library.takeAway(index)
            _ = try build(planted: true)
            try library.putBack(index)
            let before = try Self.mark(site)
            returning.append(try build())
            searchWritten.append(Self.filesWritten(under: site.appendingPathComponent("public/search/data"), since: before))
        }
        row(&report, "a photo's file taken away, then put back", returning, site: site, largest: false,
            more: "search files written \(searchWritten.map(String.init).joined(separator: "/"))")

        // Every photo's file touched, its bytes the same: every photo read again and every page
        // looked at; its peak is to be read beside the cold build's.
        let touched = try (0..<runs).map { round in
            try library.touchEveryFile(round: round)
            return try build()
        }
        row(&report, "every photo's file touched", touched, site: site, largest: false)
        report.print()
        try? FileManager.default.removeItem(at: setAside)
    }

    /// A row of median wall time, the largest peak, pages written, the steps of the last run and,
    /// when asked, the largest page of the site.
    private func row(_ report: inout Report, _ label: String, _ runs: [Measured], site: URL, largest: Bool = true, more: String? = nil) {
        let written = runs.map(\.pagesWritten).map(String.init).joined(separator: "/")
        let looked = runs.map(\.pagesLookedAt).map(String.init).joined(separator: "/")
        var note = "\(runs.last!.pageCount) pages, looked at \(looked), written \(written)"
        if let more { note += ", " + more }
        if largest, let page = Self.largestPage(site.appendingPathComponent("public")) {
            note += ", largest \(page.path) \(ByteCountFormatter.string(fromByteCount: Int64(page.size), countStyle: .file))"
        }
        report.row(label, median(runs.map(\.seconds)), peak: runs.map(\.peak).max(), note: note)
        let steps = runs.last!.timings.filter { !$0.key.hasPrefix("cpu-") && $0.key != "peak-rss-mb" && $0.value >= 0.005 }
            .sorted { $0.value > $1.value }.map { String(format: "%@ %.2f s", $0.key, $0.value) }
        if !steps.isEmpty { report.note("    steps (wall, last run): " + steps.joined(separator: ", ")) }
    }

    /// A build of the library; one that reports an error the benchmark did not plant (`planted`)
    /// stops the benchmark, whose figures would be of another library than the one described.
    func build(planted: Bool = false) throws -> Measured {
        let measured = try Measured.run([folio.path, "build", "--site", library.site.path, "--timings"]).checked("folio build")
        if !planted, let error = measured.output.split(separator: "\n").first(where: { $0.hasPrefix("error: ") }) {
            throw BenchError("folio build of the library reported \(error)")
        }
        return measured
    }

    /// Everything but content/ and folio.json gone from the site: the model, the output, the
    /// build's state. They are moved aside and deleted once the figures are taken (`run`): on a
    /// file system without a journal, as this machine's ext4 is, making a file skips over the
    /// inodes freed in the last minutes, so a cold build straight after a large output was deleted
    /// would spend much of its images step in the kernel (`recently_deleted`): the benchmark's
    /// deleting, not Folio's work.
    func coldBuild() throws -> Measured {
        let kept: Set<String> = ["content", "folio.json"]
        let aside = setAside.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: aside, withIntermediateDirectories: true)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: library.site.path)) ?? [] where !kept.contains(name) {
            try FileManager.default.moveItem(at: library.site.appendingPathComponent(name), to: aside.appendingPathComponent(name))
        }
        return try build()
    }

    /// Where a cold build's predecessors wait to be deleted: beside the site, on its file system.
    var setAside: URL { library.root.appendingPathComponent("set-aside") }

    /// The time of a file written now beside the site, by the clock the file system stamps files
    /// with: what a build's files are told from the files it left as they were by.
    static func mark(_ site: URL) throws -> Date {
        let mark = site.deletingLastPathComponent().appendingPathComponent("bench-mark")
        try Data().write(to: mark)
        guard let stamp = LocalFileAccess().stamp(of: mark) else { throw BenchError("cannot read back \(mark.path)") }
        return stamp.modified
    }

    /// The files under `folder` modified after `time`: written by the build since, not taken
    /// over as they were (a file a build leaves as it was keeps its time).
    static func filesWritten(under folder: URL, since time: Date) -> Int {
        let files = LocalFileAccess()
        guard let entries = try? files.entries(under: folder) else { return 0 }
        return entries.filter { (files.stamp(of: folder.appendingPathComponent($0.path))?.modified ?? .distantPast) > time }.count
    }

    /// The largest HTML page under `public`, found by a readdir walk (a stat per page).
    static func largestPage(_ site: URL) -> (path: String, size: Int)? {
        let files = LocalFileAccess()
        guard let entries = try? files.entries(under: site) else { return nil }
        var largest: (path: String, size: Int)?
        for entry in entries where entry.path.hasSuffix(".html") {
            guard let size = files.stamp(of: site.appendingPathComponent(entry.path))?.size else { continue }
            if size > largest?.size ?? -1 { largest = (entry.path, size) }
        }
        return largest
    }
}

extension Measured {
    /// "… 30 pages looked at, 12 rendered, 7 written)" of the summary; none when the build was up to date.
    var pagesWritten: Int { summaryCount(#"[0-9,]+ written\)"#) }
    var pagesLookedAt: Int { summaryCount(#"[0-9,]+ pages looked at"#) }

    private func summaryCount(_ pattern: String) -> Int {
        guard let range = output.range(of: pattern, options: .regularExpression) else { return 0 }
        return Int(output[range].prefix { $0 != " " }.replacingOccurrences(of: ",", with: "")) ?? 0
    }
}

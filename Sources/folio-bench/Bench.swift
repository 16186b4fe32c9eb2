import ArgumentParser
import Foundation

/// Measures Folio on a corpus of photos it makes itself, beside sigal when sigal is installed.
@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "folio-bench",
        abstract: "Builds a photo corpus and times folio build on it: cold, no-op, after touching 1%; beside sigal.",
        discussion: """
            The default corpus is 300 JPEGs at quality 90 with EXIF (200 at 4000x3000, 100 at 6000x4000; \
            some turned, some with GPS). With --small, photos are 800x600, for page-rendering and no-op \
            figures on large sites (e.g. --small --photos 10000). With --wide-gamut, that share of the photos \
            carries an Adobe RGB or Display P3 profile, and the cost of converting them is measured against \
            colour "keep" (the same build, no conversion). Figures are whole-process wall times, \
            median of --runs runs; peak memory is the process's maximum resident set.

            With --library, a photographer's library instead (e.g. --library --photos 100000): tiny \
            JPEGs catalogued a thousand to a folder, with people, places, regions, favorites and one \
            photographer with 30% of the photos. It prints a cold build, a no-op build, one photo's \
            title, favorite and place edited in its catalog, 1% of the photos edited, a no-op with \
            ten photos failing and ten warnings, a photo's file taken away and put back, and every \
            photo's file touched: wall time, peak memory, pages written and the largest page. With \
            --one-catalog, the same library catalogued in one file, as the seed is.
            """
    )

    @Option(help: "How many photos.")
    var photos = 300

    @Flag(help: "Small photos (800x600), for many-photo runs.")
    var small = false

    @Flag(help: "A photographer's library of tiny catalogued photos: cold, no-op, one edit, 1% edited.")
    var library = false

    @Flag(help: "With --library: start from the site as the last run left it, without a cold build (its first build is timed as such).")
    var warm = false

    @Flag(help: "With --library: every photo in one catalog at the top of content/, rewritten whole by each edit.")
    var oneCatalog = false

    @Flag(help: "With --library: the library as a Google Takeout export, a JSON beside each photo and no catalog.")
    var takeout = false

    @Flag(help: "With --library: people in a Zipf curve, the busiest in about 40% of the photos.")
    var zipf = false

    @Option(help: "Runs per figure (the median is reported).")
    var runs = 3

    @Option(help: "Working folder for the corpus and the outputs.")
    var work = "bench"

    @Option(help: "The folio executable (default: the one beside this benchmark).")
    var folio: String?

    @Flag(inversion: .prefixedNo, help: "Time sigal too, when it is on the PATH.")
    var sigal = true

    @Option(help: ArgumentHelp(
        "The share of photos tagged with a wide-gamut profile, half Adobe RGB, half Display P3 (e.g. 20%).",
        valueName: "percent"))
    var wideGamut = "0%"

    /// --wide-gamut as a number from 0 to 100.
    var wideGamutShare: Int { Int(wideGamut.trimmingCharacters(in: CharacterSet(charactersIn: "% "))) ?? -1 }

    @Option(help: ArgumentHelp(
        "Instead of the usual figures, a cold build spread over shards, for each count given (e.g. 1,2,4): each shard's CPU and wall time, the balance, the overhead against one machine, the final build.",
        valueName: "counts"))
    var shards: String?

    /// --shards as numbers.
    var shardCounts: [Int]? { shards.map { $0.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } } }

    func validate() throws {
        if let counts = shardCounts, counts.isEmpty || counts.contains(where: { $0 < 1 }) {
            throw ValidationError("--shards takes counts of at least 1, separated by commas (1,2,4)")
        }
        guard photos >= 10 else { throw ValidationError("--photos must be at least 10") }
        guard (0...100).contains(wideGamutShare) else { throw ValidationError("--wide-gamut must be a share from 0% to 100%") }
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
    }

    func run() throws {
        let root = URL(fileURLWithPath: work).standardizedFileURL
        let executable = folio.map { URL(fileURLWithPath: $0) }
            ?? Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("folio")
        if library {
            let library = Library(root: root.appendingPathComponent("library-\(photos)\(takeout ? "-takeout" : "")\(zipf ? "-zipf" : "")"),
                                  photos: photos, oneCatalog: oneCatalog, takeout: takeout, zipf: zipf)
            let made = try measure { _ = try library.make() }
            print("library: \(photos) photos, \(library.describe()) (\(made.seconds > 5 ? String(format: "made in %.0f s", made.seconds) : "reused"))")
            try LibraryScenarios(library: library, folio: executable, runs: runs, warm: warm).run()
            return
        }
        let wide = wideGamutShare
        let corpus = Corpus(root: root.appendingPathComponent("corpus-\(small ? "small" : "large")-\(photos)\(wide > 0 ? "-wide\(wide)" : "")"),
                            photos: photos, small: small, wideGamut: wide)
        let made = try measure { try corpus.make() }
        print("corpus: \(photos) photos, \(corpus.describe()) (\(made.seconds > 0.5 ? String(format: "made in %.1f s", made.seconds) : "reused"))")
        let scenarios = Scenarios(corpus: corpus, folio: executable, runs: runs)
        if let counts = shardCounts {
            try scenarios.runShards(counts)
            return
        }
        try scenarios.run(compareWithSigal: sigal && !small)
    }
}

func measure(_ body: () throws -> Void) rethrows -> (seconds: Double, Void) {
    let start = Date()
    try body()
    return (Date().timeIntervalSince(start), ())
}

import FolioImaging
import Foundation

/// The benchmark's runs, each in a site of its own over the same photos.
struct Scenarios {
    let corpus: Corpus
    let folio: URL
    let runs: Int

    var runsFolder: URL { corpus.root.appendingPathComponent("runs") }

    /// Settings that make what sigal makes with img_size (1600, 1200) and thumb_size (400, 300).
    static let sameAsSigal = #"{"thumbnailSizes": [400], "screenSizes": [1600], "deepZoom": false, "quality": 90}"#

    func run(compareWithSigal: Bool) throws {
        var report = Report()
        if !corpus.small {
            // The floor and the build take turns, so a busier moment of the machine weighs on
            // both alike; each run's ratio is of the two measured side by side.
            let same = try site("same-as-sigal", settings: Self.sameAsSigal)
            var floors: [Double] = [], cold: [Measured] = []
            for _ in 0..<runs {
                floors.append(try decodeFloor())
                cold.append(try coldBuild(same))
            }
            let ratios = zip(cold, floors).map { $0.seconds / $1 }
            report.row("decode floor (TurboJPEG at 1/2, all cores)", median(floors))
            report.row("folio cold build, sigal's outputs", median(cold.map(\.seconds)), peak: cold.map(\.peak).max(),
                       note: String(format: "%.2fx the floor; run by run %@", median(ratios),
                                    ratios.map { String(format: "%.2f", $0) }.joined(separator: " ")))
            report.breakdown(cold.last!.timings)
            if compareWithSigal, let sigalTimes = try sigalBuilds() {
                report.row("sigal cold build (-n \(ProcessInfo.processInfo.activeProcessorCount))", median(sigalTimes.cold),
                           note: String(format: "folio is %.1fx faster", median(sigalTimes.cold) / median(cold.map(\.seconds))))
                let noop = try (0..<runs).map { _ in try build(same) }
                report.row("folio no-op rebuild, sigal's outputs", median(noop.map(\.seconds)))
                report.row("sigal rebuild, nothing changed", median(sigalTimes.rebuild),
                           note: String(format: "folio is %.0fx faster", median(sigalTimes.rebuild) / median(noop.map(\.seconds))))
            } else {
                report.note("sigal: not on the PATH (pip install sigal), not compared")
            }
        }

        let full = try site("default", settings: "{}")
        let cold = try coldBuilds(full)
        let coldSeconds = median(cold.map(\.seconds))
        report.row("folio cold build, default outputs", coldSeconds, peak: cold.map(\.peak).max(),
                   note: String(format: "%.1f photos/s", Double(corpus.photos) / coldSeconds))
        report.breakdown(cold.last!.timings)
        if corpus.wideGamut > 0 {
            // "keep" makes the same renditions without converting a pixel (the profiles are
            // compact, so they are embedded as they are): the difference is the conversion.
            let keep = try coldBuilds(try site("keep", settings: #"{"colour": "keep"}"#))
            let keepSeconds = median(keep.map(\.seconds))
            report.row("folio cold build, colour \"keep\" (no conversion)", keepSeconds, peak: keep.map(\.peak).max(),
                       note: String(format: "converting %d wide-gamut photos to sRGB cost %+.2f s (%+.1f%%)",
                                    corpus.wideGamutCount, coldSeconds - keepSeconds, (coldSeconds / keepSeconds - 1) * 100))
            report.breakdown(keep.last!.timings)
        }
        let noop = try (0..<runs).map { _ in try build(full) }
        report.row("folio no-op rebuild", median(noop.map(\.seconds)), peak: noop.map(\.peak).max())

        let touched = max(1, corpus.photos / 100)
        var touchRuns: [Measured] = []
        for round in 0..<runs {
            try corpus.touch(touched, round: round, in: full.appendingPathComponent("content"))
            touchRuns.append(try build(full))
        }
        report.row("folio rebuild after editing \(touched) photos (1%)", median(touchRuns.map(\.seconds)),
                   peak: touchRuns.map(\.peak).max())

        var rerender: [Measured] = []
        for round in 0..<runs {
            try Data(#"{"title": "Bench \#(round)"}"#.utf8).write(to: full.appendingPathComponent("folio.json"))
            rerender.append(try build(full))
        }
        let renderSeconds = median(rerender.map { run in ["pages", "render", "write-public/"].reduce(0) { $0 + (run.timings[$1] ?? 0) } })
        report.row("folio rebuild after a settings edit (every page, no image)", median(rerender.map(\.seconds)),
                   note: String(format: "rendering and writing %d pages: %.2f s", rerender.last!.pageCount, renderSeconds))
        report.print()
    }

    // MARK: - Runs

    func site(_ name: String, settings: String) throws -> URL {
        let site = runsFolder.appendingPathComponent(name)
        if !FileManager.default.fileExists(atPath: site.appendingPathComponent("content").path) {
            try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
            // Hard links: the same photos, no copy.
            _ = try Measured.run(["cp", "-al", corpus.content.path, site.appendingPathComponent("content").path]).checked("cp -al")
        }
        try Data(settings.utf8).write(to: site.appendingPathComponent("folio.json"))
        return site
    }

    func build(_ site: URL) throws -> Measured {
        try Measured.run([folio.path, "build", "--site", site.path, "--timings"]).checked("folio build")
    }

    func coldBuilds(_ site: URL) throws -> [Measured] {
        try (0..<runs).map { _ in try coldBuild(site) }
    }

    func coldBuild(_ site: URL) throws -> Measured {
        try? FileManager.default.removeItem(at: site.appendingPathComponent("public"))
        try? FileManager.default.removeItem(at: site.appendingPathComponent("folio.sqlite"))
        return try build(site)
    }

    /// sigal's cold builds, then its rebuilds with every output already there.
    func sigalBuilds() throws -> (cold: [Double], rebuild: [Double])? {
        guard (try? Measured.run(["sigal", "--version"]))?.status == 0 else { return nil }
        let folder = runsFolder.appendingPathComponent("sigal")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("sigal.conf.py")
        try """
            source = '\(corpus.content.path)'
            destination = '\(folder.appendingPathComponent("_build").path)'
            img_size = (1600, 1200)
            thumb_size = (400, 300)
            jpg_options = {'quality': 90, 'optimize': True, 'progressive': True}
            """.write(to: config, atomically: true, encoding: .utf8)
        let cores = "\(ProcessInfo.processInfo.activeProcessorCount)"
        let command = ["sigal", "build", "-c", config.path, "-n", cores]
        let cold = try (0..<runs).map { _ in
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("_build"))
            return try Measured.run(command).checked("sigal build").seconds
        }
        let rebuild = try (0..<runs).map { _ in try Measured.run(command).checked("sigal rebuild").seconds }
        return (cold, rebuild)
    }

    /// Every photo decoded at half size by TurboJPEG on all cores, pixels thrown away: no JPEG
    /// pipeline that makes a 1600-pixel rendition of these photos can be faster. One run.
    func decodeFloor() throws -> Double {
        let paths = (0..<corpus.photos).map { corpus.content.appendingPathComponent(corpus.path($0)) }
        let processor = ImageProcessor()
        let failures = Failures()
        let start = Date()
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            do {
                _ = try processor.pixels(of: try Data(contentsOf: paths[index]), scaleDenominator: 2)
            } catch {
                failures.add("\(error)")
            }
        }
        if let first = failures.first { throw BenchError("decode floor: \(first)") }
        return Date().timeIntervalSince(start)
    }
}

extension Measured {
    /// The page count of the summary line ("300 photos, 1,234 pages …").
    var pageCount: Int {
        let words = output.split(whereSeparator: { $0 == " " || $0 == "," })
        guard let index = words.firstIndex(where: { $0.hasPrefix("page") }), index > 0 else { return 0 }
        return Int(words[index - 1]) ?? 0
    }
}

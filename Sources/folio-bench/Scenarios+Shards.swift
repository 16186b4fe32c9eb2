import Foundation

extension Scenarios {
    /// A cold build spread over `counts` shards each, against one machine's. The shards of a
    /// count run one after another, each with the whole machine, as the tasks of a job array
    /// would each have a node of their own: so each one's wall and CPU time are its own, not
    /// its share of a machine the others crowd.
    func runShards(_ counts: [Int]) throws {
        var report = Report()
        let alone = try site("shards-alone", settings: "{}")
        let one = try coldBuild(alone)
        report.row("one machine: folio cold build", one.seconds, peak: one.peak, note: String(format: "CPU %.1f s", one.cpuSeconds))
        for count in counts {
            let site = try site("shards-\(count)", settings: "{}")
            for leftover in ["public", "folio.sqlite", "folio-cache"] {
                try? FileManager.default.removeItem(at: site.appendingPathComponent(leftover))
            }
            var shards: [Measured] = []
            for index in 1...count {
                let run = try Measured.run([folio.path, "build", "--site", site.path, "--shard", "\(index)/\(count)"]).checked("folio build --shard")
                shards.append(run)
                let summary = run.output.split(separator: "\n").last { $0.hasPrefix("shard ") } ?? ""
                report.row("  \(count) shards: shard \(index)/\(count)", run.seconds, peak: run.peakMegabytes,
                           note: String(format: "CPU %.1f s; %@", run.cpuSeconds, String(summary.split(separator: ":").dropFirst().first ?? "")))
            }
            let final = try build(site)
            let cpu = shards.map(\.cpuSeconds), walls = shards.map(\.seconds)
            let mean = cpu.reduce(0, +) / Double(count), meanWall = walls.reduce(0, +) / Double(count)
            let total = cpu.reduce(0, +) + final.cpuSeconds
            report.row("  \(count) shards: final build", final.seconds, peak: final.peak,
                       note: String(format: "CPU %.1f s; %@", final.cpuSeconds, final.output.split(separator: "\n").first.map(String.init) ?? ""))
            report.note(String(format: "  %d shards: busiest shard %.1f%% over the mean CPU (%.1f%% wall); shards + final %.1f s CPU, %+.1f%% against one machine; "
                               + "array done in %.1f s + final %.1f s, against %.1f s", count,
                               (cpu.max()! / mean - 1) * 100, (walls.max()! / meanWall - 1) * 100, total, (total / one.cpuSeconds - 1) * 100,
                               walls.max()!, final.seconds, one.seconds))
        }
        report.print()
    }
}

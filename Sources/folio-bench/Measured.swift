import Foundation

/// One run of a command: wall time, peak resident memory, exit status and output.
struct Measured {
    var seconds: Double
    var peakMegabytes: Double
    /// User and system CPU time of the process and its threads.
    var cpuSeconds: Double = 0
    var status: Int32
    var output: String

    /// Runs `arguments[0]` with the rest. Peak memory comes from wait4, which on Linux also counts
    /// the memory of the process that spawned it; `folio build --timings` says its own exactly.
    static func run(_ arguments: [String]) throws -> Measured {
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = Date()
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw BenchError("cannot run \(arguments[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        let seconds = Date().timeIntervalSince(start)
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
        return Measured(seconds: seconds, peakMegabytes: Double(usage.ru_maxrss) / 1024, cpuSeconds: cpu, status: exitStatus, output: output)
    }

    func checked(_ what: String) throws -> Measured {
        guard status == 0 else { throw BenchError("\(what) failed with status \(status):\n\(output.suffix(2000))") }
        return self
    }

    /// The peak memory the process reported itself, else what wait4 said.
    var peak: Double { timings["peak-rss-mb"] ?? peakMegabytes }

    /// The `name=seconds` pairs of `folio build --timings`.
    var timings: [String: Double] {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("timings: ") }) else { return [:] }
        var result: [String: Double] = [:]
        for pair in line.dropFirst("timings: ".count).split(separator: " ") {
            let parts = pair.split(separator: "=")
            if parts.count == 2, let value = Double(parts[1]) { result[String(parts[0])] = value }
        }
        return result
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

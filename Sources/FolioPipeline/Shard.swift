import FolioCore
import Foundation

/// One share of a cold build's image work: shard `index` (1-based) of `count`, as `--shard k/n`
/// names it, or as a batch engine hands it to each task of an array.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public var index: Int
    public var count: Int
    /// Where it came from, for the log: "--shard", or the engine's variables.
    public var origin: String

    public init(index: Int, count: Int, origin: String = "--shard") throws {
        guard count >= 1 else { throw FolioError(reason: "\(origin): a build needs at least one shard, not \(count)") }
        guard (1...count).contains(index) else {
            throw FolioError(reason: "\(origin): shard \(index) of \(count) does not exist; shards are numbered 1 to \(count)")
        }
        self.index = index
        self.count = count
        self.origin = origin
    }

    public var description: String { "shard \(index)/\(count)" }

    /// `k/n`, or `auto` for the batch engine's own variables.
    public static func parse(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Shard {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed == "auto" { return try fromEngine(environment) }
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw FolioError(reason: "--shard '\(text)': expected k/n (shard k of n, from 1/n to n/n) or 'auto'")
        }
        return try Shard(index: index, count: count)
    }

    /// The engines' names for "task k of n": each hands out a 0-based index; the count some
    /// set themselves and others leave to the job's author (`FOLIO_SHARD_COUNT`).
    static func fromEngine(_ environment: [String: String]) throws -> Shard {
        func value(_ name: String) -> String? {
            environment[name].map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        func number(_ name: String) throws -> Int? {
            guard let text = value(name) else { return nil }
            guard let number = Int(text), number >= 0 else {
                throw FolioError(reason: "--shard auto: \(name) is '\(text)', not a whole number")
            }
            return number
        }
        if let task = try number("SLURM_ARRAY_TASK_ID") {
            // An array may start anywhere (--array=1-4): the task's place is its distance from the first.
            let first = try number("SLURM_ARRAY_TASK_MIN") ?? 0
            guard let count = try number("SLURM_ARRAY_TASK_COUNT") else {
                throw FolioError(reason: "--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not")
            }
            let names = value("SLURM_ARRAY_TASK_MIN") == nil ? "SLURM_ARRAY_TASK_ID=\(task), SLURM_ARRAY_TASK_COUNT=\(count)"
                : "SLURM_ARRAY_TASK_ID=\(task), SLURM_ARRAY_TASK_MIN=\(first), SLURM_ARRAY_TASK_COUNT=\(count)"
            if let step = try number("SLURM_ARRAY_TASK_STEP"), step > 1 {
                throw FolioError(reason: "--shard auto: an array with a step (SLURM_ARRAY_TASK_STEP=\(step)) leaves gaps; use --array=0-\(count - 1)")
            }
            return try Shard(index: task - first + 1, count: count, origin: "Slurm (\(names))")
        }
        for (indexName, countNames, engine) in [
            ("JOB_COMPLETION_INDEX", ["FOLIO_SHARD_COUNT"], "Kubernetes"),
            ("AWS_BATCH_JOB_ARRAY_INDEX", ["AWS_BATCH_JOB_ARRAY_SIZE", "FOLIO_SHARD_COUNT"], "AWS Batch"),
        ] {
            guard let index = try number(indexName) else { continue }
            guard let countName = countNames.first(where: { value($0) != nil }), let count = try number(countName) else {
                throw FolioError(reason: "--shard auto: \(indexName) is set but not how many tasks there are: set \(countNames.joined(separator: " or ")) to the array's size")
            }
            return try Shard(index: index + 1, count: count, origin: "\(engine) (\(indexName)=\(index), \(countName)=\(count))")
        }
        throw FolioError(reason: "--shard auto: none of SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX is set; outside a job array, give --shard k/n")
    }

    /// Splits work among `count` shards so each gets about the same cost, the same way in every
    /// shard: largest first, each to the least loaded shard so far (ties to the lower number).
    /// Returns each item's shard (1-based).
    public static func assign(costs: [Int], count: Int) -> [Int] {
        let order = costs.indices.sorted { (costs[$0], $1) > (costs[$1], $0) }
        var load = [Int](repeating: 0, count: count)
        var shard = [Int](repeating: 1, count: costs.count)
        for item in order {
            let least = load.indices.min { (load[$0], $0) < (load[$1], $1) }!
            load[least] += costs[item]
            shard[item] = least + 1
        }
        return shard
    }
}

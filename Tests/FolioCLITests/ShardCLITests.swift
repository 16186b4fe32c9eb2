import FolioTestSupport
import Foundation
import XCTest

/// `folio build --shard`: what a task of a job array runs, and what it says.
final class ShardCLITests: CLITestCase {
    /// No engine's variables, whatever the machine running the tests has.
    let noEngine = ["SLURM_ARRAY_TASK_ID": "", "SLURM_ARRAY_TASK_COUNT": "", "SLURM_ARRAY_TASK_MIN": "", "JOB_COMPLETION_INDEX": "",
                    "AWS_BATCH_JOB_ARRAY_INDEX": "", "AWS_BATCH_JOB_ARRAY_SIZE": "", "FOLIO_SHARD_COUNT": ""]

    func testBadShardsAreRefusedWithAClearMessage() throws {
        let site = try temporaryFolder()
        try FileManager.default.createDirectory(at: site.appendingPathComponent("content"), withIntermediateDirectories: true)
        let cases: [([String], [String: String], String)] = [
            (["--shard", "5/4"], [:], "shard 5 of 4 does not exist"),
            (["--shard", "0/0"], [:], "at least one shard"),
            (["--shard", "text"], [:], "expected k/n"),
            (["--shard", "auto"], [:], "none of SLURM_ARRAY_TASK_ID"),
            (["--shard", "auto"], ["SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "4"], "SLURM_ARRAY_TASK_ID is 'x'"),
            (["--shard", "auto"], ["JOB_COMPLETION_INDEX": "3"], "FOLIO_SHARD_COUNT"),
        ]
        for (arguments, environment, expected) in cases {
            let run = try folio(["build", "--site", site.path] + arguments, environment: noEngine.merging(environment) { $1 })
            XCTAssertNotEqual(run.status, 0, "\(arguments) \(environment)")
            XCTAssertTrue(run.errors.contains(expected), "\(arguments) \(environment): \(run.errors)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.appendingPathComponent("folio.sqlite").path))
    }

    func testAutoSaysWhichEngineItReadAndTheFinalBuildTakesWhatTheShardsMade() throws {
        let site = try temporaryFolder()
        for seed in 1...3 {
            let photo = SamplePhoto(width: 900 + 100 * seed, height: 700, seed: UInt64(seed))
            let file = site.appendingPathComponent("content/p\(seed).jpg")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try photo.jpeg().write(to: file)
        }
        let theme = ["FOLIO_THEME": Self.repository.appendingPathComponent("templates").path]
        for task in 0...1 {
            let run = try folio(["build", "--shard", "auto"], in: site, environment: noEngine.merging(theme) { $1 }.merging(
                ["SLURM_ARRAY_TASK_ID": "\(task)", "SLURM_ARRAY_TASK_COUNT": "2", "SLURM_ARRAY_TASK_MIN": "0"]) { $1 })
            XCTAssertEqual(run.status, 0, run.errors)
            XCTAssertTrue(run.errors.contains("shard \(task + 1)/2, from Slurm (SLURM_ARRAY_TASK_ID=\(task)"), run.errors)
            XCTAssertTrue(run.output.hasPrefix("shard \(task + 1)/2: "), run.output)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.appendingPathComponent("folio.sqlite").path))
        let final = try folio(["build"], in: site, environment: noEngine.merging(theme) { $1 })
        XCTAssertEqual(final.status, 0, final.errors)
        XCTAssertTrue(final.output.contains("0 renditions made"), final.output)
        XCTAssertTrue(final.output.contains("renditions taken from the rendition cache"), final.output)
    }
}

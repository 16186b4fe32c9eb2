import ArgumentParser
import FolioCore
import FolioPipeline
import Foundation

struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Builds the site from content/ into public/.",
        discussion: """
            Imports content/ into the site's model (folio.sqlite), makes the renditions that are \
            missing and writes every page. The previous public/ stays in place until the new one \
            is complete.

            Exit status: 0 when the new site was put in place, even if some photos or records were \
            left out (each is named, as a compiler names warnings); 1 when no new site could be put \
            in place (the previous one stays); 2 with --strict when the site was put in place but \
            something was left out or warned about.
            """
    )

    @OptionGroup var siteOptions: SiteOptions

    @Option(name: [.short, .long], help: "Where to write the site (default: <site>/public).", completion: .directory)
    var output: String?

    @Option(help: "A theme folder to use instead of the default one.", completion: .directory)
    var theme: String?

    @Flag(name: .shortAndLong, help: "Print only errors and the summary.")
    var quiet = false

    @Flag(help: "Exit with status 2 when any photo, record or folder was left out or warned about (for CI).")
    var strict = false

    @Flag(help: "Print how long each step took, and the CPU time of image decoding, resampling and encoding.")
    var timings = false

    @Option(help: ArgumentHelp("Make only share k of n of the image work (k from 1 to n) into the rendition cache, or 'auto' for the job array's task (Slurm, Kubernetes Indexed Job, AWS Batch); then run a plain 'folio build'.", valueName: "k/n|auto"))
    var shard: String?

    @Option(help: ArgumentHelp("Where shards keep what they make: a folder (default: <site>/folio-cache/renditions) or s3://bucket/prefix.", valueName: "folder|s3-url"))
    var renditionCache: String?

    @Option(help: "The S3-compatible store of an s3:// rendition cache (default: AWS S3).")
    var cacheEndpoint: String?

    @Option(help: "The region of an s3:// rendition cache (default: $AWS_REGION, else us-east-1).")
    var cacheRegion: String?

    func validate() throws {
        if let shard {
            do { _ = try Shard.parse(shard) } catch let error as FolioError { throw ValidationError(error.reason) }
        }
        if let output, output.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--output needs a folder")
        }
        _ = try sourceDateEpoch()
    }

    func run() async throws {
        let paths = SitePaths(root: siteOptions.paths.root, output: output.map { URL(fileURLWithPath: $0) })
        let terminal = isatty(STDERR_FILENO) == 1 && !quiet
        var options = BuildOptions(themeFolder: theme.map { URL(fileURLWithPath: $0) }, sourceDateEpoch: try sourceDateEpoch(),
                                   progress: terminal)
        do {
            options.renditionCache = try renditionCache.map {
                try openRenditionCache($0, site: paths.root, endpoint: cacheEndpoint, region: cacheRegion)
            }
        } catch {
            throw fail(error)
        }
        if let shard {
            try await runShard(shard, paths: paths, options: options)
            return
        }
        let build = SiteBuild(paths: paths, options: options)
        let report: BuildReport
        do {
            report = try await build.run(log: { line in
                if terminal { tell(line) }
            })
        } catch {
            throw fail(error)
        }
        for issue in report.issues where !(quiet && issue.severity == .warning) {
            tell("\(issue)")
        }
        say(report.summary)
        if report.renditionsFromCache > 0 {
            say("\(report.renditionsFromCache) renditions taken from the rendition cache, made by shards")
        }
        for line in report.skippedLines { say(line) }
        if timings { say("timings: \(report.timings) peak-rss-mb=\(Self.peakResidentMegabytes())") }
        guard !report.issues.isEmpty else { return }
        tell(Self.problemLine(report, quiet: quiet))
        if strict { throw Self.problemsStatus }
    }

    /// One shard of a job array: its share of the image work, then a line that says which
    /// shard it was (and from which engine's variables), what it made and how balanced the
    /// shares are. Fails (status 1) when something it made could not be kept.
    func runShard(_ text: String, paths: SitePaths, options: BuildOptions) async throws {
        let report: ShardReport
        do {
            let shard = try Shard.parse(text)
            report = try await ShardBuild(paths: paths, shard: shard, options: options).run(log: { line in
                tell(line)
            })
        } catch {
            throw fail(error)
        }
        for issue in report.issues where !(quiet && issue.severity == .warning) {
            tell("\(issue)")
        }
        say(report.summary)
        // Photos that would not import or decode are the final build's to report; what was made
        // and not kept is this task's failure, and a rerun makes it again.
        if report.unstored > 0 { throw ExitCode.failure }
    }

    /// What --strict exits with when the site was built with problems: not 1, which says that
    /// no site was put in place.
    static let problemsStatus = ExitCode(2)

    /// The line after the summary when something was wrong: how much, and that the site is
    /// there without it.
    static func problemLine(_ report: BuildReport, quiet: Bool) -> String {
        let counts = [(report.errors.count, "error"), (report.warnings.count, "warning")].filter { $0.0 > 0 }
            .map { Wording.count($0.0, $0.1) }.joined(separator: " and ")
        let hidden = quiet && !report.warnings.isEmpty ? " ('folio problems' lists them all)" : " above"
        let built = report.errors.isEmpty ? "the site was built" : "the site was built without what they name"
        return "\(counts)\(hidden); \(built)."
    }

    /// This process's own high-water mark of resident memory (VmHWM). Not getrusage: its
    /// ru_maxrss also counts the parent's memory at the moment it spawned us.
    static func peakResidentMegabytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes / 1024
    }
}

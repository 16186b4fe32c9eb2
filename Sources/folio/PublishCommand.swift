import ArgumentParser
import FolioCore
import FolioNetwork
import FolioPublish
import Foundation

struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Uploads public/ to an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, Backblaze B2, Wasabi…).",
        discussion: """
            Sends only what changed since the last publish (a manifest of content hashes is kept \
            in the bucket), media first and pages last, so visitors never meet a missing image. \
            Media are sent with a year's immutable caching, everything else with five minutes. \
            Credentials come from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, \
            or from the AWS_PROFILE profile (default "default") of ~/.aws/credentials; they are \
            never printed. An interrupted publish is resumed by the next one.
            """
    )

    @OptionGroup var siteOptions: SiteOptions

    @Option(help: "The bucket's name.")
    var bucket: String

    @Option(help: "The store's address, e.g. https://<account>.r2.cloudflarestorage.com (default: AWS S3).")
    var endpoint: String?

    @Option(help: "The bucket's region (default: $AWS_REGION, $AWS_DEFAULT_REGION, else us-east-1; R2 wants auto).")
    var region: String?

    @Option(help: "The folder of the bucket to publish into (default: its root).")
    var prefix: String = ""

    @Option(name: [.short, .long], help: "The built site to publish (default: <site>/public).", completion: .directory)
    var output: String?

    @Flag(name: .customLong("dry-run"), help: "Print what would be uploaded and deleted, and change nothing.")
    var dryRun = false

    @Flag(help: "Delete from the bucket what public/ no longer has, once the new pages are up.")
    var delete = false

    @Option(help: "Uploads at once.")
    var concurrency: Int = 8

    func validate() throws {
        guard !bucket.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("--bucket needs a name") }
        if let endpoint {
            guard let url = URL(string: endpoint), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw ValidationError("--endpoint must be an http or https address")
            }
        }
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be from 1 to 64") }
    }

    func run() async throws {
        let paths = SitePaths(root: siteOptions.paths.root, output: output.map { URL(fileURLWithPath: $0) })
        let terminal = isatty(STDERR_FILENO) == 1
        let environment = ProcessInfo.processInfo.environment
        // A variable set but empty is no region (as the AWS command line reads it).
        let region = [region, environment["AWS_REGION"], environment["AWS_DEFAULT_REGION"]].compactMap { $0 }.first { !$0.isEmpty } ?? "us-east-1"
        let note: @Sendable (String) -> Void = { line in
            if terminal { tell(line) }
        }
        do {
            let credentials = try S3Credentials.find(environment: environment)
            let store = try S3Bucket(name: bucket, endpoint: endpoint.flatMap(URL.init(string:)), region: region,
                                 credentials: credentials, onRetry: note)
            let options = PublishOptions(bucket: bucket, endpoint: store.endpoint, region: region, prefix: prefix, dryRun: dryRun,
                                         delete: delete, concurrency: concurrency)
            let report = try await Publisher(bucket: store, options: options, progress: terminal, say: note).run(paths.output)
            if dryRun {
                for upload in report.plan.uploads {
                    say("upload \(upload.file.path) (\(upload.reason.rawValue), \(upload.file.size) bytes)")
                }
                for path in report.plan.stale {
                    say(delete ? "delete \(path)" : "keep \(path) (no longer in public/; --delete removes it)")
                }
            }
            say(report.line)
        } catch {
            throw fail(error)
        }
    }
}

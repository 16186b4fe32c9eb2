import FolioCore
import FolioNetwork
import Foundation

/// `folio publish`: sends `public/` to a bucket, only what changed.
///
/// Media go up first, then the theme's files and the search index, then pages, then the home
/// page, the feed, the sitemap and robots.txt: at any moment every link a published page holds
/// leads somewhere. Uploads run `concurrency` at a time; each phase waits for the one before.
/// The manifest is saved every `checkpointEvery` uploads and after each phase, so an
/// interrupted publish picks up where it stopped. With `delete`, what `public/` no longer has
/// goes last, once nothing links to it.
public struct Publisher: Sendable {
    public let bucket: S3Bucket
    public let options: PublishOptions
    /// A line for the terminal now and then; nothing when output is not a terminal.
    let say: @Sendable (String) -> Void
    let showProgress: Bool

    public init(bucket: S3Bucket, options: PublishOptions, progress: Bool = false, say: @escaping @Sendable (String) -> Void = { _ in }) {
        self.bucket = bucket
        self.options = options
        self.showProgress = progress
        self.say = say
    }

    var manifestKey: String { options.prefix + PublishManifest.name }

    /// Publishes `root` (a built `public/`).
    public func run(_ root: URL) async throws -> PublishReport {
        let files = try PublishFile.scan(root)
        let listing = try await bucket.list(prefix: options.prefix)
        var remote: [String: S3Bucket.Object] = [:]
        for (key, object) in listing { remote[String(key.dropFirst(options.prefix.count))] = object }
        var manifest = try await bucket.get(manifestKey).map(PublishManifest.init) ?? PublishManifest()
        let plan = PublishPlan(files: files, manifest: manifest, remote: remote)
        var report = PublishReport(plan: plan, dryRun: options.dryRun)
        if options.dryRun { return report }

        // Entries for objects that are gone (deleted by hand) would only mislead.
        manifest.entries = manifest.entries.filter { remote[$0.key] != nil }
        let progress = ProgressLine("uploading", total: plan.uploads.count, enabled: showProgress)
        for phase in PublishFile.Phase.allCases {
            let uploads = plan.uploads.filter { $0.file.phase == phase }
            for batch in uploads.chunked(options.checkpointEvery) {
                let results = await boundedMap(Array(batch), width: options.concurrency) { upload -> Result<String, Error> in
                    do { return .success(try await self.upload(upload.file, from: root)) } catch { return .failure(error) }
                }
                var failures: [String] = []
                for (upload, result) in zip(batch, results) {
                    switch result {
                    case .success(let hash):
                        manifest.entries[upload.file.path] = PublishManifest.Entry(hash: hash, size: upload.file.size)
                        report.uploaded += 1
                        report.uploadedBytes += upload.file.size
                    case .failure(let error):
                        failures.append("\(error)")
                    }
                }
                progress.update(report.uploaded)
                if report.uploaded > 0 { try await save(manifest) }
                if let first = failures.first {
                    // The next phase would link to what is missing: stop here; the next publish resumes.
                    throw FolioError(reason: failures.count == 1 ? first : "\(first) (and \(failures.count - 1) more failed)")
                }
            }
        }

        if options.delete {
            let results = await boundedMap(plan.stale, width: options.concurrency) { path -> Result<Void, Error> in
                do { return .success(try await self.bucket.delete(self.options.prefix + path)) } catch { return .failure(error) }
            }
            for (path, result) in zip(plan.stale, results) {
                if case .failure(let error) = result { throw FolioError(reason: "\(error)") }
                manifest.entries[path] = nil
                report.deleted += 1
            }
            if !plan.stale.isEmpty { try await save(manifest) }
        } else {
            report.kept = plan.stale.count
        }
        return report
    }

    /// Uploads one file; gives the hash the manifest keeps of it.
    func upload(_ file: PublishFile, from root: URL) async throws -> String {
        let url = root.appendingPathComponent(file.path)
        let key = options.prefix + file.path
        if file.size >= options.multipartThreshold {
            try await bucket.putMultipart(key, file: url, size: file.size, partSize: options.partSize, contentType: file.contentType,
                                          cacheControl: file.cacheControl)
            return file.hash ?? "-"
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw FolioError(path: url.path, reason: "cannot be read: \(error.localizedDescription)")
        }
        try await bucket.put(key, body: data, contentType: file.contentType, cacheControl: file.cacheControl)
        return file.hash ?? ContentHash.hex(data)
    }

    package func save(_ manifest: PublishManifest) async throws {
        try await bucket.put(manifestKey, body: manifest.encoded(), contentType: "text/plain; charset=utf-8", cacheControl: "no-store")
    }
}

import FolioCore
import FolioNetwork
import Foundation

/// Where shards leave what they made for the final build: one bundle per photo's bytes, under a
/// key made of its checksum and the names of what it holds, so that shards never write the same
/// key with different contents and merging is nothing. A folder on a shared file system
/// (`FolderRenditionCache`), or an S3-compatible bucket for workers that share none
/// (`S3RenditionCache`).
public protocol RenditionCache: Sendable, CustomStringConvertible {
    /// The bundle's bytes, or nil when there is none.
    func get(_ key: String) async throws -> Data?
    /// Puts the bundle in place whole: a reader never sees half of it.
    func put(_ key: String, _ data: Data) async throws
    func remove(_ key: String) async throws
}

extension RenditionCache {
    /// The bundle under `key`, or nil when there is none or it is damaged (a shard killed while
    /// writing it on a file system without atomic renames; a damaged upload): made again then.
    func bundle(_ key: String) async -> RenditionBundle? {
        guard let data = try? await get(key) else { return nil }
        return RenditionBundle(decoding: data)
    }
}

extension ImageJob {
    /// The job's name in the rendition cache: the photo's checksum and what the job makes, so a
    /// bundle is only ever taken for exactly the work it holds.
    var cacheKey: String {
        let outputs = requests.map { "\($0)" }.sorted()
            + [tiles.map { "tiles \($0.request) \($0.folder)" } ?? "", animation.map { "animation \($0)" } ?? "",
               video.map { "video \($0.file)" } ?? "",
               "\(colour)", "\(width)x\(height)"]
        let safe = String(checksum.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.prefix(64))
        return "\(safe.prefix(2))/\(safe)-\(ContentHash.hex(outputs.joined(separator: "\u{1e}")).prefix(16))"
    }
}

/// The rendition cache as a folder, shared by every task of an array (NFS, Lustre, GPFS…).
/// A bundle is written to a name of its own and renamed into place, so two shards making the
/// same photo (a task run twice) never write into one file, and a kill leaves only a scratch
/// file, which no reader takes.
public struct FolderRenditionCache: RenditionCache {
    public let folder: URL
    /// Where bundles are written.
    let disk: any Disk

    public init(folder: URL, disk: any Disk = LocalDisk()) {
        self.folder = folder.standardizedFileURL
        self.disk = disk
    }

    public var description: String { folder.path }

    func file(_ key: String) -> URL { folder.appendingPathComponent(key + ".bundle") }

    public func get(_ key: String) async throws -> Data? {
        let url = file(key)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Data(contentsOf: url)
    }

    public func put(_ key: String, _ data: Data) async throws {
        let url = file(key)
        let scratch = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))").path
        do {
            try disk.makeFolders(url.deletingLastPathComponent().path)
            try disk.writeFile(data, to: scratch)
            // rename(2) replaces a bundle another task put there meanwhile: the same work, the same bytes.
            guard disk.rename(scratch, url.path) == 0 else { throw DiskFailure(errno, url.path) }
        } catch {
            _ = disk.unlink(scratch)
            throw error
        }
    }

    public func remove(_ key: String) async throws {
        try? disk.removeTree(file(key).path)
    }
}

/// The rendition cache in an S3-compatible bucket, for workers that share no folder
/// (Kubernetes, AWS Batch): one object per bundle, keyed as in a folder. An upload is whole or
/// absent, so a task killed mid-way leaves nothing behind.
public struct S3RenditionCache: RenditionCache {
    public let bucket: S3Bucket
    /// The bucket's folder, "" or ending in "/".
    public let prefix: String

    public init(bucket: S3Bucket, prefix: String) {
        self.bucket = bucket
        let trimmed = prefix.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        self.prefix = trimmed.isEmpty ? "" : trimmed + "/"
    }

    public var description: String { "s3://\(bucket.name)/\(prefix)" }

    public func get(_ key: String) async throws -> Data? {
        try await bucket.get(prefix + key + ".bundle")
    }

    public func put(_ key: String, _ data: Data) async throws {
        try await bucket.put(prefix + key + ".bundle", body: data, contentType: "application/octet-stream", cacheControl: "no-store")
    }

    public func remove(_ key: String) async throws {
        try await bucket.delete(prefix + key + ".bundle")
    }
}

/// Opens the rendition cache a command line names: a folder (relative to the site), or
/// `s3://bucket/prefix` with the store's address and region as `folio publish` takes them.
public func openRenditionCache(_ text: String, site: URL, endpoint: String?, region: String?,
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws -> any RenditionCache {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { throw FolioError(reason: "--rendition-cache needs a folder or s3://bucket/prefix") }
    guard trimmed.hasPrefix("s3://") else {
        if endpoint != nil { throw FolioError(reason: "--cache-endpoint is for an s3:// rendition cache, not a folder") }
        return FolderRenditionCache(folder: URL(fileURLWithPath: trimmed, relativeTo: site))
    }
    let rest = trimmed.dropFirst("s3://".count)
    let bucket = String(rest.prefix { $0 != "/" })
    let prefix = String(rest.dropFirst(bucket.count))
    guard !bucket.isEmpty else { throw FolioError(reason: "--rendition-cache '\(trimmed)': no bucket after s3://") }
    var address: URL?
    if let endpoint {
        guard let url = URL(string: endpoint), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw FolioError(reason: "--cache-endpoint must be an http or https address")
        }
        address = url
    }
    let region = [region, environment["AWS_REGION"], environment["AWS_DEFAULT_REGION"]].compactMap { $0 }.first { !$0.isEmpty } ?? "us-east-1"
    let store = try S3Bucket(name: bucket, endpoint: address, region: region, credentials: S3Credentials.find(environment: environment))
    return S3RenditionCache(bucket: store, prefix: prefix)
}

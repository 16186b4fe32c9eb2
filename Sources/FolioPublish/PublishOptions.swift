import Foundation

/// Where and how `folio publish` sends `public/`.
public struct PublishOptions: Sendable {
    public var bucket: String
    /// An S3-compatible store's address; AWS when nil.
    public var endpoint: URL?
    public var region: String
    /// The folder of the bucket the site goes in: "" or "photos/" (ending in "/").
    public var prefix: String
    /// Only say what would be done.
    public var dryRun: Bool
    /// Delete what `public/` no longer has (after the new pages are up).
    public var delete: Bool
    /// Uploads at once.
    public var concurrency: Int
    /// Files this large or larger go up in parts of `partSize`.
    public var multipartThreshold: Int
    public var partSize: Int
    /// The manifest is saved in the bucket after this many uploads, so an interrupted publish
    /// resumes from there.
    public var checkpointEvery: Int

    public init(bucket: String, endpoint: URL? = nil, region: String = "us-east-1", prefix: String = "", dryRun: Bool = false,
                delete: Bool = false, concurrency: Int = 8, multipartThreshold: Int = 16 << 20, partSize: Int = 8 << 20,
                checkpointEvery: Int = 25) {
        self.bucket = bucket
        self.endpoint = endpoint
        self.region = region
        self.prefix = Self.folder(prefix)
        self.dryRun = dryRun
        self.delete = delete
        self.concurrency = max(1, concurrency)
        self.multipartThreshold = multipartThreshold
        self.partSize = max(5 << 20, partSize)
        self.checkpointEvery = max(1, checkpointEvery)
    }

    /// "photos" and "/photos/" are both "photos/"; "" and "/" are the bucket's root.
    static func folder(_ prefix: String) -> String {
        let trimmed = prefix.split(separator: "/").joined(separator: "/")
        return trimmed.isEmpty ? "" : trimmed + "/"
    }
}

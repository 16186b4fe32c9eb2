import FolioNetwork
/// What a publish will do: upload what is new or changed, in phases; leave the rest; delete what
/// `public/` no longer has, when asked to.
public struct PublishPlan: Sendable, Equatable {
    public enum Reason: String, Sendable { case new, changed }

    public struct Upload: Sendable, Equatable {
        public var file: PublishFile
        public var reason: Reason
    }

    /// In the order they go up: by phase, then by path.
    public var uploads: [Upload] = []
    public var unchanged = 0
    /// Paths (under the prefix) the bucket has and `public/` does not.
    public var stale: [String] = []

    /// Compares `files` with what the bucket holds. A file is unchanged when the listing has it
    /// at its size and, but for media (named by their content), the manifest has its hash: the
    /// manifest alone could be wrong about an object deleted by hand.
    public init(files: [PublishFile], manifest: PublishManifest, remote: [String: S3Bucket.Object]) {
        for file in files {
            let there = remote[file.path]
            let same = there?.size == file.size && (file.phase == .media || manifest.entries[file.path]?.hash == file.hash)
            if same {
                unchanged += 1
            } else {
                uploads.append(Upload(file: file, reason: there == nil ? .new : .changed))
            }
        }
        uploads.sort { ($0.file.phase, $0.file.path) < ($1.file.phase, $1.file.path) }
        let local = Set(files.map(\.path))
        stale = remote.keys.filter { !local.contains($0) && $0 != PublishManifest.name }.sorted()
    }

    public var uploadBytes: Int { uploads.reduce(0) { $0 + $1.file.size } }
}

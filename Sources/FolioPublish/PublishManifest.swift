import Foundation

/// What Folio has put in the bucket, kept in the bucket itself (`<prefix>.folio-publish`): each
/// object's content hash and size, so a publish compares hashes rather than download anything.
/// It is written as a publish goes, so an interrupted publish is resumed by the next one.
public struct PublishManifest: Sendable, Equatable {
    public static let name = ".folio-publish"

    public struct Entry: Sendable, Equatable {
        /// ContentHash (XXH64) of the file, or "-" for one too large to hash in one read.
        public var hash: String
        public var size: Int
    }

    public var entries: [String: Entry] = [:]

    public init() {}

    /// Reads a manifest; lines it cannot read are skipped (the object is then uploaded again).
    public init(_ data: Data) {
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            // "hash size path"; the path may hold spaces.
            let parts = line.split(separator: " ", maxSplits: 2)
            guard parts.count == 3, let size = Int(parts[1]) else { continue }
            entries[String(parts[2])] = Entry(hash: String(parts[0]), size: size)
        }
    }

    public func encoded() -> Data {
        Data(entries.sorted { $0.key < $1.key }.map { "\($0.value.hash) \($0.value.size) \($0.key)\n" }.joined().utf8)
    }
}

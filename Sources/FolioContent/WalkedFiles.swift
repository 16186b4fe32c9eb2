import FolioCore
import FolioModel
import Foundation

/// The regular files a walk found, by the bytes of their paths, and which of them (or of the
/// paths the walk did not find) are photos already: each record's path is looked up once.
struct WalkedFiles {
    private let files: FileList
    /// Where each regular file is in `files`, by its path's bytes (a table over the listing's
    /// own paths, not a dictionary of them): on Linux two names in different Unicode normal
    /// forms are two files.
    private let positions: NumberTable
    private var listed: [Bool]
    private var listedElsewhere = Set<PhotoSource>()

    init(_ listing: FileList) {
        files = listing
        var positions = NumberTable()
        positions.reserveCapacity(listing.count) { Self.hash(listing, at: $0) }
        for at in listing.indices where !listing.isLink(at: at) {
            listing.withPathBytes(at: at) { path in
                _ = positions.insert(at, hash: Self.hash(path), isKey: { listing.pathIs(path, at: $0) }, hashOf: { Self.hash(listing, at: $0) })
            }
        }
        self.positions = positions
        listed = Array(repeating: false, count: listing.count)
    }

    private static func hash(_ path: UnsafeBufferPointer<UInt8>) -> Int {
        Int(truncatingIfNeeded: ContentHash.hash(UnsafeRawBufferPointer(path), seed: 0x7761_6C6B))
    }

    private static func hash(_ listing: FileList, at index: Int) -> Int {
        listing.withPathBytes(at: index, hash)
    }

    /// Where the walk found the regular file at `path`, by its bytes.
    func position(of path: String) -> Int? {
        var path = path
        return path.withUTF8 { path in positions.number(hash: Self.hash(path)) { files.pathIs(path, at: $0) } }
    }

    /// `position(of:)` of the listing's own file at `index`: the same place, or nil for a link.
    func position(ofListed index: Int) -> Int? {
        files.isLink(at: index) ? nil : index
    }

    package func stamp(at position: Int) -> FileStamp? { files.stamp(at: position) }

    func path(at position: Int) -> String { files.path(at: position) }

    package func stamp(of path: String) -> FileStamp? { position(of: path).flatMap(stamp(at:)) }

    /// Whether the file the walk found at `at` is a photo already.
    func isListed(at: Int) -> Bool { listed[at] }

    /// Whether `path` (found by the walk at `at`) is a photo already.
    func isListed(_ path: String, at: Int?) -> Bool {
        at.map { listed[$0] } ?? listedElsewhere.contains(.content(path: path))
    }

    mutating func list(_ path: String, at: Int?) {
        if let at { listed[at] = true } else { listedElsewhere.insert(.content(path: path)) }
    }
}

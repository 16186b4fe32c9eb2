import FolioCore
import FolioModel
import Foundation

/// The regular files a walk found, by the bytes of their paths, and which of them (or of the
/// paths the walk did not find) are photos already: each record's path is looked up once.
struct WalkedFiles {
    private let files: [FileEntry]
    /// Where each regular file is in `files` (a table over the listing's own paths, not a
    /// dictionary of them). A string finds a name in either Unicode normal form; a hit counts
    /// only when its bytes are the path's (on Linux the two are two files).
    private let positions: NumberTable
    /// Whether two of the files' paths are one string (a name in both Unicode normal forms):
    /// without, each regular file is at its place in the listing, found without a lookup.
    private let twins: Bool
    private var listed: [Bool]
    private var listedElsewhere = Set<PhotoSource>()

    init(_ listing: [FileEntry]) {
        files = listing
        var positions = NumberTable()
        var twins = false
        positions.reserveCapacity(listing.count) { listing[$0].path }
        for (at, file) in listing.enumerated() where !file.isLink {
            if positions.insert(at, for: file.path, key: { listing[$0].path }) { twins = true }
        }
        self.positions = positions
        self.twins = twins
        listed = Array(repeating: false, count: listing.count)
    }

    /// Where the walk found the regular file at `path`, by its bytes.
    func position(of path: String) -> Int? {
        guard let at = positions.number(of: path, key: { files[$0].path }), Self.sameBytes(files[at].path, path) else { return nil }
        return at
    }

    /// `position(of:)` of the listing's own file at `index` (nil for a link): its place, unless
    /// a twin of its path holds the key, so most files are not looked up again.
    func position(ofListed index: Int) -> Int? {
        if files[index].isLink { return nil }
        return twins ? position(of: files[index].path) : index
    }

    /// Whether two paths are the same bytes: one memcmp, not a UTF-8 view's `elementsEqual`, byte
    /// by byte.
    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        var (a, b) = (a, b)
        return a.withUTF8 { x in b.withUTF8 { y in x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0) } }
    }

    package func stamp(at position: Int) -> FileStamp? { files[position].stamp }

    func path(at position: Int) -> String { files[position].path }

    package func stamp(of path: String) -> FileStamp? { position(of: path).flatMap(stamp(at:)) }

    /// Whether `path` (found by the walk at `at`) is a photo already.
    func isListed(_ path: String, at: Int?) -> Bool {
        at.map { listed[$0] } ?? listedElsewhere.contains(.content(path: path))
    }

    mutating func list(_ path: String, at: Int?) {
        if let at { listed[at] = true } else { listedElsewhere.insert(.content(path: path)) }
    }
}

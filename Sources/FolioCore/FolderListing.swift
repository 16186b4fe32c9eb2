/// A walk of a folder: its files and links, and the folders under it that could not be opened.
/// A build goes on without what an unreadable folder holds, as it does without an unreadable file.
public struct FolderListing: Sendable, Equatable {
    public var entries: FileList
    /// The folders the walk could not open (relative to the root), each with why.
    public var unreadable: [(path: String, reason: String)]

    public init(entries: FileList, unreadable: [(path: String, reason: String)] = []) {
        self.entries = entries
        self.unreadable = unreadable
    }

    public init(entries: [FileEntry], unreadable: [(path: String, reason: String)] = []) {
        self.init(entries: FileList(entries), unreadable: unreadable)
    }

    public static func == (a: FolderListing, b: FolderListing) -> Bool {
        a.entries == b.entries && a.unreadable.elementsEqual(b.unreadable) { $0.path == $1.path && $0.reason == $1.reason }
    }
}

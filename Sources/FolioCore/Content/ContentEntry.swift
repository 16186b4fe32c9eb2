import Foundation

/// One image under `content/`, with the catalog record that describes it, if any.
public struct ContentEntry: Sendable, Equatable {
    /// Relative to content/.
    public var path: String
    public var record: CatalogRecord?
    public var stamp: FileStamp

    /// Where the model says the photo comes from.
    public var source: PhotoSource { .content(path: path) }
}

/// Everything found under `content/`, and what was wrong with it.
public struct ContentInventory: Sendable {
    public var entries: [ContentEntry] = []
    public var issues: [BuildIssue] = []
    /// Files that are not photos Folio reads, and the companions of photos.
    public var skipped: [SkippedFile] = []
}

import FolioCore
import FolioModel
import Foundation

/// Finds every catalog and image under `content/` and pairs each image with its record.
public struct ContentLoader: Sendable {
    public let contentRoot: URL
    public let files: any FileAccess
    /// The site's `exclude` patterns; the `.nomedia` files are found by the walk.
    public let exclusions: ContentExclusions
    /// Where the readings of catalogs are kept between builds; every catalog is parsed when nil.
    let catalogCache: CatalogCache?
    /// Whether each entry keeps its record whole, or only where it is and its fingerprint
    /// (`ContentEntry.catalogued`), as a build's load does: its import reads again the records
    /// of the photos that changed (`ImportStep.takeBackRecords`).
    package var keepsRecords = true
    /// How much of content/ `parts(walk:)` gives at once.
    package var partSize = ContentParts.Size()
    /// Where album passwords given by a variable (`passwordVariable`) are read.
    package var environment = ProcessInfo.processInfo.environment

    public init(contentRoot: URL, files: any FileAccess = LocalFileAccess(), exclusions: ContentExclusions = ContentExclusions()) {
        self.init(contentRoot: contentRoot, files: files, exclusions: exclusions, catalogCache: nil)
    }

    package init(contentRoot: URL, files: any FileAccess, exclusions: ContentExclusions, catalogCache: CatalogCache?) {
        self.contentRoot = contentRoot.standardizedFileURL
        self.files = files
        self.exclusions = exclusions
        self.catalogCache = catalogCache
    }

    public func load() throws -> ContentInventory {
        try load(walk: files.listing(under: contentRoot))
    }

    /// The inventory of content/ as `walk` found it (a build walks first, to see whether
    /// anything moved at all).
    package func load(walk: FolderListing) throws -> ContentInventory {
        var parts = parts(walk: walk)
        // Room for every photo's entry up front: grown by doubling, a large library's entries
        // would be copied over and over into fresh pages.
        var entries: [ContentEntry] = []
        entries.reserveCapacity(parts.photoCount)
        while let part = parts.next() { entries += part }
        var inventory = parts.inventory
        inventory.entries = entries
        return inventory
    }

    /// content/ as `walk` found it, to be read a part at a time (`ContentParts`): a build's
    /// import takes each part to the model as it is read.
    package func parts(walk: FolderListing) -> ContentParts {
        ContentParts(self, walk: walk)
    }

    func linkIssue(_ path: String, realRoot: String) -> BuildIssue {
        let url = contentRoot.appendingPathComponent(path)
        let shown = "content/\(path)"
        guard files.realPath(url).pathRelative(to: realRoot) != nil else {
            return .error(shown, "is a link that leads outside content/")
        }
        if files.isFolder(url) {
            return .warning(shown, "is a link to a folder inside content/: not followed (its photos are found where they are)")
        }
        if files.stamp(of: url) == nil {
            return .warning(shown, "is a link that leads nowhere")
        }
        return .warning(shown, "is a link to a file that is not a photo: not followed")
    }

    /// The stamp of the photo file at `path`, which the walk found at `at` (nil: a link, or a
    /// path a catalog names that the walk did not find); nil, said in `issues`, when it is no
    /// photo of the gallery. `isMedia`: whether the path names an image or a video
    /// (`ContentPath.isMedia`), known already.
    func stamp(of path: String, at: Int?, isMedia: Bool, realRoot: String, walked: WalkedFiles,
                       catalog: @autoclosure () -> String?, issues: inout [BuildIssue]) -> FileStamp? {
        var url: URL { contentRoot.appendingPathComponent(path) }
        var shown: String { "content/\(path)" }
        var blame: String { catalog().map { "\($0) (\(path))" } ?? shown }
        guard let stamp = at.flatMap(walked.stamp(at:)) ?? files.stamp(of: url) else {
            issues.append(.error(blame, "image file not found"))
            return nil
        }
        guard at != nil || files.realPath(url).pathRelative(to: realRoot) != nil else {
            issues.append(.error(blame, "is a link that leads outside content/"))
            return nil
        }
        guard isMedia else {
            issues.append(.error(blame, "not an image, RAW or video file (expected .jpg, .png, .gif, .webp, .avif, .heic, .tif, .dng, .cr2, .nef, .mp4, .mov, .webm…)"))
            return nil
        }
        return stamp
    }
}

import FolioCore
import Foundation

/// What a file under `content/` is, by its extension: what Folio imports, and, of the rest,
/// what a gallery owner would call it when told it was skipped.
public enum ContentFileKind: String, Sendable, Equatable, Codable {
    /// A sidecar is only ever skipped when no photo has its name: otherwise it is the photo's.
    case photo, catalog, video, raw = "RAW", sidecar = "sidecar of no photo", document
    /// JSON: a Google Takeout sidecar or album description when it is one (see
    /// `ContentLoader.readTakeoutMetadata`), skipped otherwise.
    case json = "JSON of no photo"
    /// The original of a photo Google Photos edited, published as the edited copy alone. Never a
    /// file's kind by its extension.
    case editedOriginal = "original of an edited photo"
    case other = "not a photo"

    public init(path: String) {
        self.init(lowercasedExtension: RelativePath.lowercasedExtension(of: path))
    }

    /// The kind of the file whose path has these UTF-8 bytes. It is its last name's, so a name
    /// alone that is neither empty nor "." (a walked file's never is) tells the same.
    public init(pathBytes: UnsafeBufferPointer<UInt8>) {
        self.init(lowercasedExtension: RelativePath.lowercasedExtension(ofBytes: pathBytes))
    }

    private init(lowercasedExtension fileExtension: String) {
        if ContentPath.imageExtensions.contains(fileExtension) {
            self = .photo
        } else if fileExtension == "plist" {
            self = .catalog
        } else if ContentPath.videoExtensions.contains(fileExtension) {
            self = .video
        } else if ContentPath.rawExtensions.contains(fileExtension) {
            self = .raw
        } else if Self.sidecars.contains(fileExtension) {
            self = .sidecar
        } else if fileExtension == "json" {
            self = .json
        } else if Self.documents.contains(fileExtension) {
            self = .document
        } else {
            self = .other
        }
    }

    /// What a camera or phone keeps beside a photo under the same name: the RAW of a RAW+JPEG pair
    /// (a RAW with no photo of its name is a photo itself), the edits or metadata of an editor. (A
    /// video so named is a Live Photo's clip, and imported with it.)
    var accompaniesPhotos: Bool { self == .raw || self == .sidecar }

    /// XMP sidecars (`photo.xmp`, `photo.jpg.xmp`), Apple's edit records, video thumbnails.
    private static let sidecars: Set<String> = ["xmp", "aae", "thm"]
    private static let documents: Set<String> = ["pdf", "txt", "md", "rtf", "doc", "docx", "html", "htm", "psd", "svg"]
}

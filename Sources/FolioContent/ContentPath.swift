import FolioCore
import Foundation

/// Paths inside `content/`, kept relative and never allowed to climb out of it.
package enum ContentPath {
    /// `path` as written in a catalog in `folder` (both relative to content/), normalised;
    /// nil when it is absolute or `..` leads above content/.
    static func resolve(_ path: String, in folder: String) -> String? {
        RelativePath(folder).resolving(path)?.text
    }

    /// `hif` is what some cameras (Fujifilm, Canon) name their HEIF files.
    static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "png", "gif", "webp", "avif", "heic", "heif", "hif", "tif", "tiff",
    ]

    /// Cameras' RAW files, as LibRaw reads them.
    static let rawExtensions: Set<String> = [
        "dng", "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "raf", "orf", "rw2", "pef", "srw",
        "x3f", "3fr", "iiq", "erf", "kdc", "mrw", "raw", "rwl",
    ]

    static func isRAW(_ path: String) -> Bool {
        rawExtensions.contains(RelativePath.lowercasedExtension(of: path))
    }

    static func isSidecar(_ path: String) -> Bool {
        RelativePath.lowercasedExtension(of: path) == "xmp"
    }

    static func isImage(_ path: String) -> Bool {
        imageExtensions.contains(RelativePath.lowercasedExtension(of: path))
    }

    /// What cameras, phones and the web write video in; FFmpeg's demuxers read them all.
    static let videoExtensions: Set<String> = [
        "mov", "mp4", "m4v", "avi", "mkv", "webm", "ogv", "3gp", "mts", "m2ts", "mpg", "mpeg", "wmv",
    ]

    package static func isVideo(_ path: String) -> Bool {
        videoExtensions.contains(RelativePath.lowercasedExtension(of: path))
    }

    /// A photo, a RAW or a video: what becomes a photo of the gallery (a RAW, unless a photo of its
    /// name is beside it).
    static func isMedia(_ path: String) -> Bool { isImage(path) || isVideo(path) || isRAW(path) }
}

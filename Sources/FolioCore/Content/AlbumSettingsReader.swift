import Foundation

/// Reads a folder's `album.plist`: a dictionary of `title`, `description` and `cover` (a photo of
/// the folder). A file of that name holding an array is a catalog like any other.
struct AlbumSettingsReader {
    static let fileName = "album.plist"
    static let knownKeys: Set<String> = ["title", "description", "cover", "unlisted"]

    let contentRoot: URL
    let files: FileAccess

    static func isAlbumSettings(_ path: String) -> Bool {
        RelativePath(path).name.lowercased() == fileName
    }

    /// The album's settings, or nil when the file is a catalog after all; with what was wrong.
    func read(_ path: String, photos: Set<String>) -> (album: AlbumInfo?, issues: [BuildIssue]) {
        let shown = "content/\(path)"
        guard let data = try? files.read(contentRoot.appendingPathComponent(path)), BinaryPlistCheck.refusal(data) == nil,
              let dictionary = (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any] else {
            return (nil, [])
        }
        var issues: [BuildIssue] = []
        for key in dictionary.keys.sorted() where !Self.knownKeys.contains(key) {
            issues.append(.warning(shown, "unknown key '\(key)' ignored (an album.plist may hold title, description, cover and unlisted)"))
        }
        func text(_ key: String) -> String? {
            guard let value = dictionary[key] else { return nil }
            guard let string = value as? String else {
                issues.append(.warning(shown, "key '\(key)' should be a string; ignored"))
                return nil
            }
            let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        }
        let folder = RelativePath(path).folder
        var unlisted = false
        if let value = dictionary["unlisted"] {
            if let flag = value as? Bool { unlisted = flag } else { issues.append(.warning(shown, "key 'unlisted' should be true or false; ignored")) }
        }
        var album = AlbumInfo(path: folder, title: text("title"), description: text("description"), cover: text("cover"), unlisted: unlisted)
        if let cover = album.cover {
            let full = ContentPath.resolve(cover, in: folder)
            if full == nil || !photos.contains(full!) || RelativePath(full!).folder != folder {
                issues.append(.warning(shown, "cover '\(cover)' is not a photo of this folder; the newest photo is the cover"))
                album.cover = nil
            }
        }
        return (album, issues)
    }
}

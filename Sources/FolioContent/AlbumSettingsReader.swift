import FolioCore
import FolioModel
import Foundation

/// Reads a folder's `album.plist`: a dictionary of `title`, `description` and `cover` (a photo of
/// the folder). A file of that name holding an array is a catalog like any other.
struct AlbumSettingsReader {
    static let fileName = "album.plist"
    static let knownKeys: Set<String> = ["title", "description", "cover", "unlisted", "password", "passwordVariable"]

    let contentRoot: URL
    let files: FileAccess

    static func isAlbumSettings(_ path: String) -> Bool {
        RelativePath(path).name.lowercased() == fileName
    }

    /// The album's settings, or nil when the file is a catalog after all; with what was wrong, and
    /// the password variable it names when that is not set.
    /// A password comes from `password`, or from the variable `passwordVariable` names; neither it
    /// nor anything computed from it reaches the model, only where it was read from
    /// (`passwordSource`). A protected album without its password is not published (`passwordMissing`).
    func read(_ path: String, stamp: FileStamp?, now: Date, photos: Set<String>,
              environment: [String: String] = ProcessInfo.processInfo.environment)
        -> (album: AlbumInfo?, password: String?, issues: [BuildIssue], unsetVariable: String?)
    {
        let shown = "content/\(path)"
        // Anything but a dictionary, a file too large or too deep among them, is read as a
        // catalog, which says what is wrong with it.
        let url = contentRoot.appendingPathComponent(path)
        guard PropertyListReading.refusal(size: stamp?.size ?? files.stamp(of: url)?.size ?? 0) == nil, let data = try? files.read(url),
              let dictionary = (try? PropertyListReading.read(data).get()) as? [String: Any] else {
            return (nil, nil, [], nil)
        }
        var issues: [BuildIssue] = []
        for key in dictionary.keys.sorted() where !Self.knownKeys.contains(key) {
            issues.append(.warning(shown, "unknown key '\(key)' ignored (an album.plist may hold title, description, cover, unlisted, password and passwordVariable)"))
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
        var password = dictionary["password"] as? String
        if dictionary["password"] != nil, password == nil { issues.append(.error(shown, "key 'password' should be a string")) }
        var unsetVariable: String?
        if let variable = text("passwordVariable") {
            password = environment[variable]
            if password?.isEmpty ?? true {
                unsetVariable = variable
                issues.append(.error(shown, "the password variable '\(variable)' is not set: the album is not published until it is"))
            }
        }
        if dictionary["password"] != nil || dictionary["passwordVariable"] != nil {
            let secret = password.flatMap { $0.isEmpty ? nil : $0 }
            album.passwordSource = secret == nil ? AlbumInfo.passwordMissing : Self.passwordSource(path, stamp: stamp, now: now)
            password = secret
        }
        if let cover = album.cover {
            let full = ContentPath.resolve(cover, in: folder)
            if full == nil || !photos.contains(full!) || RelativePath(full!).folder != folder {
                issues.append(.warning(shown, "cover '\(cover)' is not a photo of this folder; the newest photo is the cover"))
                album.cover = nil
            }
        }
        return (album, password, issues, unsetVariable)
    }

    /// What the model keeps of the `album.plist` at `path` a password was read from: a digest of its
    /// size and modification time (never the password's length) when it was written well before it
    /// was read, else a text no other build makes, so the next build looks again (see
    /// `CatalogCache.settling`). A new source has the album's pages drawn, and its key derived, again.
    static func passwordSource(_ path: String, stamp: FileStamp?, now: Date) -> String {
        guard let stamp, stamp.modified < now.addingTimeInterval(-CatalogCache.settling) else {
            return "unsettled \(UUID().uuidString)"
        }
        return SHA256.hex(Data("folio album password source\u{0}\(path)\u{0}\(stamp.text)".utf8))
    }
}

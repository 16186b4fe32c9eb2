import FolioCore
import FolioModel
import Foundation

/// The description files of a gallery moved from sigal: `<photo stem>.md` beside a photo, and an
/// album's `index.md`. They are part of what they describe, not skipped files.
extension ContentLoader {
    /// sigal's description files among `listing` (the documents of content/, at least), by
    /// lower-cased path without ".md": cameras write IMG_1.JPG, people IMG_1.md. A photo's is
    /// found by `ContentParts` as its entry is made.
    static func sigalMarkdown(_ listing: [FileEntry]) -> [String: String] {
        var markdown: [String: String] = [:]
        for entry in listing where !entry.isLink && RelativePath.lowercasedExtension(of: entry.path) == "md" {
            markdown[String(entry.path.dropLast(3)).lowercased()] = entry.path
        }
        return markdown
    }

    /// Reads the albums' descriptions among `markdown` (`sigalMarkdown`) into `inventory`, and
    /// takes them and those photos took (`used`) out of the skipped files.
    func readSigalAlbumDescriptions(into inventory: inout ContentInventory, markdown: [String: String], used: Set<String>,
                                    photos: () -> Set<String>) {
        guard !markdown.isEmpty else { return }
        var used = used
        for file in markdown.values.sorted() where Self.isAlbumDescription(file) {
            let folder = String(file.dropLast(SigalMarkdown.albumFileName.count + 1))
            guard !folder.isEmpty else { continue }  // content/ itself is no album
            used.insert(file)
            let shown = "content/\(file)"
            let url = contentRoot.appendingPathComponent(file)
            let (read, problem) = SigalMarkdown.read(url, size: files.stamp(of: url)?.size, files: files)
            if let problem { inventory.issues.append(.warning(shown, problem)) }
            guard let described = read else { continue }
            var cover = described.thumbnail
            if let thumbnail = cover {
                let path = ContentPath.resolve(thumbnail, in: folder)
                if path == nil || !photos().contains(path!) || !path!.hasPrefix(folder + "/") || path!.dropFirst(folder.count + 1).contains("/") {
                    inventory.issues.append(.warning(shown, "Thumbnail '\(thumbnail)' is not a photo of this folder; the newest photo is the cover"))
                    cover = nil
                }
            }
            // album.plist, Folio's own, says first; index.md fills in what it does not say.
            var album = inventory.albums.first { $0.path == folder } ?? AlbumInfo(path: folder)
            album.title = album.title ?? described.title
            if album.description == nil, let body = described.body {
                album.description = body.text
                album.descriptionHTML = body.html
            }
            album.cover = album.cover ?? cover
            inventory.albums.removeAll { $0.path == folder }
            inventory.albums.append(album)
        }
        inventory.skipped.removeAll { used.contains($0.path) }
    }

    /// `index.md` in a folder: sigal's description of the album, never a photo's.
    static func isAlbumDescription(_ path: String) -> Bool {
        path == SigalMarkdown.albumFileName || path.hasSuffix("/" + SigalMarkdown.albumFileName)
    }

    /// "trip/11.jpg" → "trip/11"; a name without a dot (or only a leading one) stays whole.
    static func withoutExtension(_ path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return path }
        return String(path.dropLast(name.distance(from: dot, to: name.endIndex)))
    }
}

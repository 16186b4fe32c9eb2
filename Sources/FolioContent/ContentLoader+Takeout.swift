import FolioCore
import FolioModel
import Foundation

/// A Google Photos export (Takeout), extracted under `content/`: the JSON beside each photo is
/// the photo's (`TakeoutNames` tells which), and an album folder's `metadata.json` (named in the
/// owner's language: `métadonnées.json`, …) describes the album. Neither is a skipped file.
extension ContentLoader {
    /// Pairs the photos of `inventory` with their sidecars among `listing` (the JSON files of
    /// content/), reads album descriptions, and notes what Takeout left unpaired.
    func readTakeoutMetadata(into inventory: inout ContentInventory, listing: [FileEntry]) {
        let sidecars = listing.filter { !$0.isLink }
        guard !sidecars.isEmpty else { return }
        // The folders whose albums the owner described (`album.plist`, `index.md`), before Takeout's descriptions.
        let described = Set(inventory.albums.map(\.path))
        let folders = Set(sidecars.map { RelativePath.folder(of: $0.path) })
        // The photos of those folders, by folder and lower-cased name: Takeout writes the names
        // as they were, but a copy may have passed through a file system that ignores case.
        var photos: [String: [String: Int]] = [:]
        for index in inventory.entries.indices {
            let path = inventory.entries[index].path
            let folder = RelativePath.folder(of: path)
            guard folders.contains(folder) else { continue }
            photos[folder, default: [:]][RelativePath(path).name.lowercased()] = index
        }
        var paired: [Int: FileEntry] = [:]
        var unpaired: [(file: FileEntry, described: TakeoutNames.Described)] = []
        // Whole names first, so a name cut short never takes a photo another sidecar names whole.
        for file in sidecars {
            let described = TakeoutNames.described(by: RelativePath(file.path).name)
            let folder = RelativePath.folder(of: file.path)
            if let index = photos[folder]?[described.name.lowercased()], paired[index] == nil {
                paired[index] = file
            } else {
                unpaired.append((file, described))
            }
        }
        unpaired = unpaired.filter { file, described in
            guard described.mayBeCut, let inFolder = photos[RelativePath.folder(of: file.path)] else { return true }
            let start = described.name.lowercased()
            let cut = RelativePath(file.path).name.count >= TakeoutNames.shortestCutName
            let candidates = inFolder.filter { name, index in
                paired[index] == nil && (cut ? name.hasPrefix(start) : RelativePath(name).deletingExtension.text == start)
            }
            guard candidates.count == 1, let index = candidates.first?.value else { return true }
            paired[index] = file
            return false
        }
        // An edited copy shares its original's sidecar and is published in its place.
        var originals: [Int: Int] = [:]  // the original's entry → the edited copy's
        for (folder, inFolder) in photos {
            for (name, index) in inFolder where paired[index] == nil {
                guard let original = TakeoutNames.original(ofEdited: name)?.lowercased() else { continue }
                if let originalIndex = inFolder[original], let sidecar = paired[originalIndex] {
                    paired[index] = sidecar
                    if inventory.entries[originalIndex].recordFingerprint == nil { originals[originalIndex] = index }
                } else if let at = unpaired.firstIndex(where: { RelativePath.folder(of: $0.file.path) == folder && $0.described.name.lowercased() == original }) {
                    paired[index] = unpaired.remove(at: at).file
                }
            }
        }
        for (index, file) in paired where originals[index] == nil {
            guard let stamp = file.stamp ?? files.stamp(of: contentRoot.appendingPathComponent(file.path)) else { continue }
            inventory.entries[index].takeout = Sidecar(path: file.path, stamp: stamp)
        }
        var used = Set(paired.values.map(\.path))
        var gaps = TakeoutGaps()
        for (file, described) in unpaired {
            if !TakeoutNames.hasExtension(described.name), readAlbum(file, into: &inventory) {
                used.insert(file.path)
            } else if TakeoutNames.hasExtension(described.name) {
                gaps.sidecarsAlone.append(file.path)
                used.insert(file.path)
            }
        }
        // Said of the folders Takeout's sidecars are in, where every photo has one.
        let takeoutFolders = Set(paired.values.map { RelativePath.folder(of: $0.path) })
        for (folder, inFolder) in photos where takeoutFolders.contains(folder) {
            for index in inFolder.values where paired[index] == nil && inventory.entries[index].recordFingerprint == nil {
                gaps.photosAlone.append(inventory.entries[index].path)
            }
        }
        let copies = readTakeoutFolders(takeoutFolders, photos: photos, described: described, into: &inventory)
        gaps.copies = copies.count
        gaps.sidecarsAlone.sort()
        gaps.photosAlone.sort()
        inventory.takeoutGaps = gaps
        for (original, edited) in originals {
            inventory.skipped.append(SkippedFile(path: inventory.entries[original].path, kind: .editedOriginal,
                                                 companionOf: inventory.entries[edited].path))
        }
        let gone = Set(originals.keys.map { inventory.entries[$0].path } + copies.map { inventory.entries[$0].path })
        if !gone.isEmpty {
            inventory.entries.removeAll { gone.contains($0.path) }
            inventory.skipped.sort { $0.path < $1.path }
        }
        inventory.skipped.removeAll { used.contains($0.path) }
    }

    /// Marks the folders of a Takeout export that are no albums: its year folders (`Photos from
    /// 2023`), and `Google Photos` above its albums with the `Takeout` folders around it, unless an
    /// `album.plist` or sigal's description (`described`) says they are. Returns the photos it gives twice: a photo of an
    /// album is in its year's folder too, and in each other album it is in, under the same name and
    /// of the same size. Those copies go: the first album's is published, listed in the others too.
    private func readTakeoutFolders(_ takeoutFolders: Set<String>, photos: [String: [String: Int]], described: Set<String>,
                                    into inventory: inout ContentInventory) -> [Int] {
        let years = takeoutFolders.filter { TakeoutNames.isYearFolder(RelativePath($0).name) }
        let aboveYears = Set(years.map { RelativePath.folder(of: $0) })
        let roots = Set(takeoutFolders.map { RelativePath.folder(of: $0) }.filter {
            !$0.isEmpty && (TakeoutNames.isPhotosFolder(RelativePath($0).name) || aboveYears.contains($0))
        })
        guard !years.isEmpty || !roots.isEmpty else { return [] }
        var noAlbums = years.union(roots)
        for root in roots {
            var above = RelativePath.folder(of: root)
            while !above.isEmpty, TakeoutNames.isTakeoutFolder(RelativePath(above).name) {
                noAlbums.insert(above)
                above = RelativePath.folder(of: above)
            }
        }
        // A year folder's own metadata.json (older exports wrote one) does not make it an album.
        for folder in noAlbums.sorted() where !described.contains(folder) {
            if let at = inventory.albums.firstIndex(where: { $0.path == folder }) {
                inventory.albums[at].isAlbum = false
            } else {
                inventory.albums.append(AlbumInfo(path: folder, isAlbum: false))
            }
        }
        // A photo is known by its name and size among the folders of one export.
        var copies: [Int] = []
        for root in aboveYears.union(roots) {
            var first: [String: Int] = [:]
            let albums = takeoutFolders.filter { RelativePath.folder(of: $0) == root && !years.contains($0) }.sorted()
            for album in albums {
                for (name, index) in (photos[album] ?? [:]).sorted(by: { $0.key < $1.key }) where inventory.entries[index].recordFingerprint == nil {
                    let key = "\(inventory.entries[index].stamp.size) \(name)"
                    if let kept = first[key] {
                        inventory.entries[kept].alsoListedIn.append(album)
                        copies.append(index)
                    } else {
                        first[key] = index
                    }
                }
            }
            for year in years where RelativePath.folder(of: year) == root {
                for (name, index) in photos[year] ?? [:] where inventory.entries[index].recordFingerprint == nil {
                    if first["\(inventory.entries[index].stamp.size) \(name)"] != nil { copies.append(index) }
                }
            }
        }
        return copies
    }

    /// Reads `file` as an album's description (`metadata.json`): whether it is one. Folio's own
    /// `album.plist` and sigal's `index.md` say first; this fills in what they do not.
    private func readAlbum(_ file: FileEntry, into inventory: inout ContentInventory) -> Bool {
        let folder = RelativePath.folder(of: file.path)
        guard !folder.isEmpty, let data = try? files.read(contentRoot.appendingPathComponent(file.path)) else { return false }
        guard let described = TakeoutAlbum.read(data) else { return false }
        var album = inventory.albums.first { $0.path == folder } ?? AlbumInfo(path: folder)
        album.title = album.title ?? described.title
        if album.description == nil { album.description = described.description }
        inventory.albums.removeAll { $0.path == folder }
        inventory.albums.append(album)
        return true
    }
}

/// What Google Takeout left unpaired, said once after the summary, by name: a sidecar whose
/// photo is not in its folder, a photo of a Takeout folder without its sidecar. Neither is an
/// error; the photo is published with what its file says.
public struct TakeoutGaps: Sendable, Equatable, Codable {
    /// Relative to content/.
    public var sidecarsAlone: [String] = []
    public var photosAlone: [String] = []
    /// Copies of photos of albums, in their year's folder or in other albums: each photo is
    /// published once, in its albums.
    public var copies = 0

    public init() {}

    public var isEmpty: Bool { sidecarsAlone.isEmpty && photosAlone.isEmpty && copies == 0 }

    /// "Google Takeout: 1 sidecar without its photo: content/a/IMG_1.jpg.json"; the first
    /// few names of a long list, and how many more.
    public var lines: [String] {
        func names(_ paths: [String]) -> String {
            let shown = paths.prefix(5).map { "content/\($0)" }.joined(separator: ", ")
            return paths.count > 5 ? "\(shown) and \(paths.count - 5) more" : shown
        }
        var lines: [String] = []
        if !sidecarsAlone.isEmpty {
            let what = sidecarsAlone.count == 1 ? "1 sidecar without its photo" : "\(sidecarsAlone.count) sidecars without their photos"
            lines.append("Google Takeout: \(what): \(names(sidecarsAlone))")
        }
        if !photosAlone.isEmpty {
            let what = photosAlone.count == 1 ? "1 photo without its sidecar" : "\(photosAlone.count) photos without their sidecars"
            lines.append("Google Takeout: \(what) (published with what its file says): \(names(photosAlone))")
        }
        if copies > 0 {
            let what = copies == 1 ? "1 copy of a photo of an album" : "\(copies) copies of photos of albums"
            lines.append("Google Takeout: \(what) (in a year's folder or another album): each photo published once, in its albums")
        }
        return lines
    }
}

/// An album's description in a Google Takeout export: the `title` and `description` of its
/// folder's `metadata.json`.
enum TakeoutAlbum {
    /// The title and description `data` gives; nil when it is no album's description (not JSON,
    /// no title, or a photo's sidecar).
    static func read(_ data: Data) -> (title: String, description: String?)? {
        guard case .success(let object) = JSONObjectReading.object(data, limit: ReadingLimits.takeoutBytes),
              object["photoTakenTime"] == nil, let title = object["title"] as? String, !title.isEmpty else { return nil }
        let description = (object["description"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        return (title, description)
    }
}

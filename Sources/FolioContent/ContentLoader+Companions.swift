import FolioCore
import FolioModel
import Foundation

/// The files beside a photo that are part of it: its XMP sidecar, a Live Photo's clip, the RAW of
/// a RAW+JPEG pair; and the files that are no photo, counted as skipped.
extension ContentLoader {
    /// What becomes a photo of the gallery: an image, a RAW that is no photo's companion
    /// (`pairedRAWs`), or a video that is no Live Photo's clip (the file at `index` in `paths`,
    /// whose path is looked at only when it is a video).
    static func isPhoto<Paths: RandomAccessCollection<String>>(at index: Int, _ paths: Paths, kind: ContentFileKind,
                                clips: (clipOf: [String: String], stillOf: [String: String]), pairedRAWs: Set<Int>) -> Bool where Paths.Index == Int {
        switch kind {
        case .photo: true
        case .raw: !pairedRAWs.contains(index)
        case .video: clips.clipOf[paths[index]] == nil
        case .catalog, .sidecar, .document, .json, .editedOriginal, .other: false
        }
    }

    /// The RAWs of RAW+JPEG (or HEIC) pairs: each RAW whose folder holds a photo of its name (case
    /// aside), by its index in `paths`. The photo is published; the RAW is its companion.
    static func pairedRAWs<Paths: RandomAccessCollection<String>>(_ paths: Paths, kinds: [ContentFileKind]) -> Set<Int> where Paths.Index == Int {
        let raws = kinds.indices.filter { kinds[$0] == .raw }
        guard !raws.isEmpty else { return [] }
        var stills = Set<String>()
        for index in kinds.indices where kinds[index] == .photo {
            stills.insert(RelativePath(paths[index]).deletingExtension.text.lowercased())
        }
        return Set(raws.filter { stills.contains(RelativePath(paths[$0]).deletingExtension.text.lowercased()) })
    }

    /// Live Photos' clips: each video whose folder holds a still of its name (case aside), by
    /// the video (`clipOf`: video → still) and by the still (`stillOf`: still → video). `kinds`
    /// are the paths' own.
    static func liveClips<Paths: RandomAccessCollection<String>>(_ paths: Paths, kinds: [ContentFileKind])
        -> (clipOf: [String: String], stillOf: [String: String]) where Paths.Index == Int {
        let videos = kinds.indices.filter { kinds[$0] == .video }.map { paths[$0] }
        guard !videos.isEmpty else { return ([:], [:]) }
        var stills: [String: String] = [:]
        for index in kinds.indices where kinds[index] == .photo {
            stills[RelativePath(paths[index]).deletingExtension.text.lowercased()] = paths[index]
        }
        var clipOf: [String: String] = [:], stillOf: [String: String] = [:]
        for video in videos.sorted() {
            guard let still = stills[RelativePath(video).deletingExtension.text.lowercased()], stillOf[still] == nil else { continue }
            clipOf[video] = still
            stillOf[still] = video
        }
        return (clipOf, stillOf)
    }

    /// Every file that is neither a photo (`isPhoto`), a video nor a catalog. A RAW named as a
    /// photo in its folder (`IMG_1.CR2` beside `IMG_1.JPG`) is that photo's companion; a sidecar
    /// named so (`IMG_1.xmp`, `IMG_1.HEIC.xmp`, `IMG_1.AAE`) is part of the photo and not skipped at all.
    func skippedFiles(_ listing: FileList, kinds: [ContentFileKind], isPhoto: [Bool], photos: some Sequence<String>) -> [SkippedFile] {
        // Made only when some file may be a companion: most libraries have none.
        lazy var photoByStem: [String: String] = {
            var byStem: [String: String] = [:]
            for photo in photos {
                byStem[RelativePath(photo).deletingExtension.text.lowercased()] = photo
                byStem[photo.lowercased()] = photo
            }
            return byStem
        }()
        // Looked through where they are, not listed apart with their kinds first.
        var skipped: [SkippedFile] = []
        for index in listing.indices where !listing.isLink(at: index) {
            // Videos are imported: alone, or as the clip of the Live Photo of their name.
            let kind = kinds[index]
            guard !isPhoto[index], kind != .photo, kind != .catalog, kind != .video else { continue }
            let path = listing.path(at: index)
            let photo = kind.accompaniesPhotos ? photoByStem[RelativePath(path).deletingExtension.text.lowercased()] : nil
            if kind == .sidecar, photo != nil || Self.describesRAWOf(path, photoByStem) { continue }
            skipped.append(SkippedFile(path: path, kind: kind, companionOf: photo))
        }
        return skipped.sorted { $0.path < $1.path }
    }

    /// Whether a sidecar is darktable's for the RAW of a photo's pair: `IMG_1.CR2.xmp` beside
    /// `IMG_1.JPG`, or a duplicate's, `IMG_1_01.CR2.xmp` (another edit of the same RAW).
    private static func describesRAWOf(_ path: String, _ photoByStem: [String: String]) -> Bool {
        let named = RelativePath(RelativePath(path).deletingExtension.text.lowercased())
        guard ContentFileKind(path: named.text) == .raw else { return false }
        let stem = named.deletingExtension.text
        if photoByStem[stem] != nil { return true }
        // A duplicate's suffix: an underscore and two digits or more.
        guard let underscore = stem.lastIndex(of: "_"), stem.distance(from: underscore, to: stem.endIndex) >= 3,
              stem[stem.index(after: underscore)...].allSatisfy(\.isNumber) else { return false }
        return photoByStem[String(stem[..<underscore])] != nil
    }
}

/// The XMP sidecars of content/, by which a photo finds its own: `IMG_1.JPG.xmp`, `IMG_1.xmp`
/// (case aside: cameras write IMG_1.JPG, tools IMG_1.xmp or IMG_1.JPG.XMP), or the RAW's of
/// its pair, as darktable names a RAW+JPEG pair's sidecar (IMG_1.CR2.xmp).
struct XMPSidecars: Sendable {
    /// By lower-cased path.
    private var sidecars: [String: String] = [:]
    /// The RAWs' sidecars, by the lower-cased path of the RAW without its extension.
    private var byStem: [String: String] = [:]

    init(_ listing: FileList, kinds: [ContentFileKind]) {
        for index in kinds.indices where kinds[index] == .sidecar && !listing.isLink(at: index) {
            let path = listing.path(at: index)
            if ContentPath.isSidecar(path) { sidecars[path.lowercased()] = path }
        }
        for (lowered, path) in sidecars.sorted(by: { $0.key < $1.key }) {
            let named = RelativePath(String(lowered.dropLast(".xmp".count)))
            if ContentFileKind(path: named.text) == .raw { byStem[named.deletingExtension.text] = byStem[named.deletingExtension.text] ?? path }
        }
    }

    /// The sidecar of the photo at `path`, if it has one.
    func sidecar(of path: String) -> String? {
        guard !sidecars.isEmpty else { return nil }
        let stem = RelativePath(path).deletingExtension.text.lowercased()
        return sidecars[path.lowercased() + ".xmp"] ?? sidecars[stem + ".xmp"] ?? byStem[stem]
    }
}

import FolioCore
import FolioModel
/// What is published of one photo: its thumbnails and its screen renditions as files, each set
/// at the widths a `srcset` offers, and its deep-zoom pyramid when it has one. The plan works it
/// out from the settings and the photo's size; pages show it.
public struct PhotoMedia: Sendable, Equatable {
    public var thumbnails: RenditionFiles
    public var screens: RenditionFiles
    /// Its thumbnails for rows that keep each photo's shape; none for a photo whose page shows
    /// another site's images (a Flickr photo's own sizes), whose rows show those.
    public var rows = RenditionFiles(files: [], format: .jpeg)
    public var tiles: TilePyramid?
    /// An animated photo's animation (the GIF, cleaned of its metadata), at its full size; its
    /// `screens` are then stills, for visitors who prefer reduced motion.
    public var animation: String?
    /// A video's or a Live Photo's web video (H.264/AAC MP4); its `screens` are the poster.
    public var video: String?

    public init(thumbnails: RenditionFiles, screens: RenditionFiles, tiles: TilePyramid? = nil, animation: String? = nil,
                video: String? = nil) {
        self.thumbnails = thumbnails
        self.screens = screens
        self.tiles = tiles
        self.animation = animation
        self.video = video
    }

    /// Every media file and tile folder of this site that this photo's pages refer to.
    public var paths: [String] {
        thumbnails.paths + (screens.isExternal ? [] : screens.paths) + rows.paths.filter { !screens.paths.contains($0) }
            + (tiles.map { [$0.tilesBase] } ?? []) + (animation.map { [$0] } ?? []) + (video.map { [$0] } ?? [])
    }
}

/// One kind of rendition of a photo (its thumbnails, its screen renditions) at each of its
/// sizes, as published files.
public struct RenditionFiles: Sendable, Equatable {
    public struct File: Sendable, Equatable {
        /// Relative to the public root ("media/…").
        public var path: String
        public var width: Int
        public var height: Int
    }

    /// Largest first: the first is the one a page shows without `srcset`.
    public var files: [File]
    /// The format of `files`.
    public var format: EncodedFormat
    /// When `files` are WebP or AVIF, their JPEG twins, size for size: what browsers without
    /// the format get, and what scripts use.
    public var twins: [File]?

    public var paths: [String] { (files + (twins ?? [])).map(\.path) }

    /// Another site's images (a Flickr photo's own sizes): their paths are absolute URLs.
    /// A published file's name never holds a colon; an address does ("https://…"). Looked for
    /// byte by byte: Foundation's `contains` of a string was a search index's hot spot.
    public var isExternal: Bool { files.first?.path.utf8.contains(UInt8(ascii: ":")) == true }

    /// A remote photo's own sizes, largest first, as pages show them.
    public init(remote sizes: [RemotePhoto.Size]) {
        files = sizes.reversed().map { File(path: $0.url, width: $0.width, height: $0.height) }
        format = .jpeg
        twins = nil
    }

    package init(files: [File], format: EncodedFormat, twins: [File]? = nil) {
        self.files = files
        self.format = format
        self.twins = twins
    }
}

/// A deep-zoom tile pyramid of the original, laid out as Deep Zoom (DZI) does: level L is the
/// image scaled to ceil(size / 2^(maxLevel - L)), cut in `tileSize` tiles with `overlap` pixels
/// shared at inner edges, at `<tilesBase><level>/<column>_<row>.<format>`.
public struct TilePyramid: Sendable, Equatable, Encodable {
    /// The original's upright size.
    public var width: Int
    public var height: Int
    public var tileSize: Int
    public var overlap: Int
    /// The tiles' file extension ("jpg").
    public var format: String
    /// The lowest level that has tiles; below it, the screen rendition covers the view.
    public var minLevel: Int
    /// The level at which the image has its full size: ceil(log2(max(width, height))).
    public var maxLevel: Int
    /// Relative to the public root, ending in "/".
    public var tilesBase: String
}

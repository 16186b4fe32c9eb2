/// What a photo is, as far as publishing it goes: each kind is read, made into renditions and
/// shown its own way. Every decision that differs by kind is a `switch` over it with no default,
/// so that a new kind does not compile until each one is made for it:
///
/// - where its renditions are made from: `PlanStep.source(of:settings:paths:contentRoot:)`,
///   `PlanStep.videoSource(of:paths:)` (FolioPipeline);
/// - which media it has: `RenditionSet.media(of:width:height:screensOfItsOwn:)` (FolioMedia);
/// - what its card and page show: `MediaMarks` (FolioSite).
///
/// How a file under `content/` is told to be a photo or a video is `ContentFileKind`'s (FolioContent).
public enum MediaKind: String, Sendable, Hashable, CaseIterable {
    /// A photo.
    case still
    /// A camera's RAW file with no JPEG or HEIC of its name beside it: its renditions are drawn
    /// from the preview the camera embedded when that is large enough, else developed by LibRaw.
    /// (A RAW beside one is that photo's companion, and not a photo of its own.)
    case raw
    /// A GIF or WebP of several frames: its animation is published beside stills of its first frame.
    case animated
    /// A video file: its stills are its poster frame, and its web video is published.
    case video
    /// A still with a short clip of its name beside it (`IMG_1.HEIC` and `IMG_1.MOV`).
    case livePhoto
    /// A photo from elsewhere (Flickr): only its thumbnails are made here, and its page shows that
    /// site's own sizes (a favorite's screen-sized image is published).
    case remote
}

extension Photo {
    /// The photo's kind, from what the import stored of it.
    public var kind: MediaKind {
        if remote != nil { return .remote }
        switch motion?.kind {
        case .video?: return .video
        case .live?: return .livePhoto
        case nil: return animated ? .animated : format == .raw ? .raw : .still
        }
    }
}

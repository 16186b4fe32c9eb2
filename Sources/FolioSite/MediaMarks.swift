import FolioCore
import FolioModel

/// What a photo's kind adds to what the site shows of it: on its cards, a video's length or a
/// Live Photo's mark; on its page, how long it plays, its clip, where it came from and under
/// what licence, and which viewer plays it. The one place the site decides by kind.
struct MediaMarks {
    /// A video's length, as cards show it ("0:07").
    var duration: String?
    /// Whether cards mark it as a Live Photo.
    var live = false
    /// The date a page gives of when the photo was added, for a photo from elsewhere.
    var added: Fact?
    /// The facts a page lists last: a video's length, a Live Photo's clip, a RAW's format, a remote
    /// photo's licence.
    var facts: [Fact] = []
    /// The web video a page plays in place of the photo (a video's), or on demand (a Live Photo's).
    var video: String?
    var liveVideo: String?

    /// `video`: the photo's web video, when it has one; `language` says the facts' words.
    init(_ photo: Photo, video: String? = nil, language: SiteLanguage) {
        func fact(_ kind: Fact.Kind, _ value: String, href: String? = nil) -> Fact {
            Fact(kind: kind, label: language.say(kind.phrase), value: value, href: href)
        }
        switch photo.kind {
        case .still, .animated:
            break
        case .raw:
            // Which camera format it came from: "Camera RAW (NEF)".
            if case .content(let path) = photo.source {
                facts.append(fact(.original, language.say(.factOriginalRAW, ["format": RelativePath(path).lowercasedExtension.uppercased()])))
            }
        case .video:
            duration = photo.motion?.durationText
            if let duration { facts.append(fact(.duration, duration)) }
            self.video = video
        case .livePhoto:
            live = true
            // The clip is a link too: without scripts it is how the motion is seen.
            if let motion = photo.motion {
                facts.append(fact(.live, language.say(.factLiveValue, ["duration": motion.durationText]), href: video))
            }
            liveVideo = video
        case .remote:
            added = fact(.added, language.day(photo.uploaded))
            if let remote = photo.remote { facts = FlickrLicence.facts(remote, language) }
        }
    }
}

/// A list of photos a visitor walks through with previous and next: an album, a place, a
/// region, a person, a place's favorites, the latest additions. A listing's pages name theirs
/// (`PageFrame.sequence`); the theme's script keeps the one a visitor last chose a photo from and
/// leads the photo page's previous and next through it. Without it, previous and next follow the
/// photo's album, as the page is written. Each list is a small script file beside the search
/// index (`folioData("s", key, [numbers])`), so no photo page carries a long list.
public struct PhotoSequence: Sendable, Encodable, Equatable {
    /// "album/travel", "place/paris": the list's kind and its subject's slug.
    public var key: String
    /// What the photo's page says it is walking through: "Travel", "Favorites in Paris".
    public var title: String
    /// Relative to the public root.
    public var file: String

    init(kind: Kind, slug: String, title: String) {
        key = "\(kind.rawValue)/\(slug)"
        self.title = title
        file = SearchIndex.folder + "s-\(kind.rawValue)-\(slug).js"
    }

    enum Kind: String {
        case album, place, region, person, favorites, latest
    }
}

/// The list a photo's page walks through when written, its album: "In Travel", and "3 of 12 in
/// Travel" once the theme's script has read the list's file (`file`). Written into the page only
/// in an unlisted album, which has no such file: a listed album's photo pages stay as they were
/// when another photo joins it.
public struct SequencePlace: Sendable, Encodable, Equatable {
    /// The list's `PhotoSequence.key` (nil in an unlisted album): the script leaves the page's
    /// links as written when the visitor came from this very list.
    public var key: String?
    /// The list's `PhotoSequence.file`, relative to the public root.
    public var file: String?
    /// Where the photo is in it, and of how many: in an unlisted album only.
    public var number: Int?
    public var count: Int?
    public var title: String
    public var href: String
    /// What the photo's page says of it, as HTML (`SiteBuilder.sequenceLine`).
    public var html: String?
}

import Foundation

/// The site as values: every page, the search index, and the media they refer to.
struct SitePages: StepOutput {
    var pages: [Page]
    var search: SearchIndex
    /// The feed, and whatever else is written beside the pages whole.
    var files: [SiteFile]
    var photos: Int
    /// The unlisted albums drawn, whose links the build tells the owner.
    var unlisted: [UnlistedAlbum]
    /// Every media file and tile folder the pages refer to: the rest of `public/media/` goes.
    var media: Set<String>
}

/// Turns the model, less the photos this build could not publish, into page values, and checks
/// that no two pages land on one path before anything is drawn.
struct PagesStep: BuildStep {
    static let name = "pages"

    func run(_ input: (site: ConfiguredSite, plan: BuildPlan, images: MadeImages), in run: BuildRun) async throws -> SitePages {
        let (site, plan, images) = input
        let snapshot = plan.snapshot.excluding(images.failed)
        let media = plan.media.filter { !images.failed.contains($0.key) }
        // Unlisted albums' photos are drawn apart, each album by a builder of its own photos
        // alone, so nothing of them reaches the listed site: its pages, counts, search, feed.
        let unlisted = snapshot.albums.values.contains(where: \.unlisted)
            ? UnlistedAlbum.all(in: snapshot.albums, secret: try site.database.siteSecret()) : []
        var unlistedPhotos: [UnlistedAlbum: Set<Int64>] = [:]
        for item in snapshot.photos {
            guard let folder = AlbumTree.folder(of: item.photo), let album = unlisted.first(where: { $0.contains(folder) }) else { continue }
            unlistedPhotos[album, default: []].insert(item.photo.id!)
        }
        let hidden = unlistedPhotos.values.reduce(into: Set<Int64>()) { $0.formUnion($1) }
        let builder = SiteBuilder(snapshot: snapshot.excluding(hidden), media: media, settings: site.settings, now: run.now)
        var pages = builder.pages()
        for album in unlisted {
            let own = unlistedPhotos[album] ?? []
            let others = Set(snapshot.photos.map { $0.photo.id! }).subtracting(own)
            let albumBuilder = SiteBuilder(snapshot: snapshot.excluding(others), media: media, settings: site.settings,
                                           now: run.now, unlisted: album)
            pages += albumBuilder.pages()
        }
        try Page.checkPaths(pages)
        return SitePages(pages: pages, search: builder.searchIndex(), files: builder.feed().map { [$0] } ?? [],
                         photos: snapshot.photos.count, unlisted: unlisted.filter { unlistedPhotos[$0] != nil },
                         media: Set(media.values.flatMap(\.paths)))
    }
}

import FolioCore
import Foundation
import GRDB

extension GalleryDatabase {
    /// Makes the stored album settings exactly `albums`, in one transaction; the model's
    /// generation moves only when they changed, so unchanged settings cost no page.
    public func replaceAlbums(_ albums: [AlbumInfo]) throws {
        let wanted = Set(albums.map { $0.cleaned() })
        try writer.write { db in
            let stored = Set(try AlbumInfo.fetchAll(db))
            guard stored != wanted else { return }
            try AlbumInfo.deleteAll(db)
            for album in wanted { try album.insert(db) }
            try Self.bumpGeneration(db)
        }
    }

    public func albums() throws -> [AlbumInfo] {
        try writer.read { db in try AlbumInfo.order(AlbumInfo.Columns.path).fetchAll(db) }
    }
}

extension AlbumInfo {
    /// Without control characters, as every text the model keeps; every other field as it is.
    func cleaned() -> AlbumInfo {
        var copy = self
        copy.title = title.map(CleanText.line)
        copy.description = description.map(CleanText.paragraph)
        return copy
    }
}

extension GalleryDatabase {
    /// The site's own secret, made once and kept in the model (never in `public/`): what the
    /// addresses of unlisted albums are derived from, so they stay the same from build to build
    /// and cannot be guessed from the album's name. A secret given from outside the model is
    /// used instead of it (`SiteSecret.outside`), and leaves it as it is.
    public func siteSecret() throws -> SiteSecret {
        let hex = try writer.write { db in
            // Made at most once, whoever asks first (a build, or `folio secret` beside it).
            try db.execute(sql: "INSERT OR IGNORE INTO siteSecret (id, value) VALUES (1, ?)", arguments: [SiteSecret.random().hex])
            return try String.fetchOne(db, sql: "SELECT value FROM siteSecret WHERE id = 1") ?? ""
        }
        return try SiteSecret.parse(hex, origin: "\(path ?? ":memory:") (siteSecret)")
    }
}

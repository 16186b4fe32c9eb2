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
        try writer.read { db in try AlbumInfo.order(Column("path")).fetchAll(db) }
    }
}

extension AlbumInfo {
    /// Without control characters, as every text the model keeps.
    func cleaned() -> AlbumInfo {
        AlbumInfo(path: path, title: title.map(CleanText.line), description: description.map(CleanText.paragraph), cover: cover,
                  descriptionHTML: descriptionHTML)
    }
}

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
    /// and cannot be guessed from the album's name.
    public func siteSecret() throws -> [UInt8] {
        try writer.write { db in
            if let hex = try String.fetchOne(db, sql: "SELECT value FROM siteSecret WHERE id = 1") { return Self.bytes(hex: hex) }
            var generator = SystemRandomNumberGenerator()
            let secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try db.execute(sql: "INSERT INTO siteSecret (id, value) VALUES (1, ?)", arguments: [secret.hexText])
            return secret
        }
    }

    private static func bytes(hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex), index < hex.endIndex {
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }
}

import FolioCore
import Foundation
import GRDB

extension GalleryDatabase {
    /// A snapshot, and whether it came whole from the rows (then worth keeping for the next build).
    package struct KeptRead {
        package var snapshot: GallerySnapshot
        /// The model's revision it was read at (`photoChange`).
        package var revision: Int64
        package var readWhole: Bool
    }

    /// `snapshot()`, the photos taken from the file kept at `place` by an earlier build
    /// (`KeptSnapshot`) when it holds this model's photos at some revision, with the rows changed
    /// since read again; else from every row. The people, places and regions are read again
    /// either way, so a photo's names are the model's now. Past `heldUpTo` photos, the photos
    /// are rows read where they lie (`PhotoRows`).
    package func snapshot(kept place: KeptSnapshot.Place, topRegionLimit: Int = 50, halves: Int = photosReadInHalves,
                          heldUpTo: Int = .max) throws -> KeptRead {
        try writer.read { db in
            let names = try PhotoNames(db)
            let revision = try Self.revision(db)
            if let photos = try Self.patched(db, place: place, names: names, revision: revision, spillingInto: spillFolder,
                                             heldUpTo: heldUpTo) {
                return KeptRead(snapshot: try Self.snapshot(db, photos: photos, names: names, topRegionLimit: topRegionLimit),
                                revision: revision, readWhole: false)
            }
            let photos = try allPhotos(db, names: names, halves: halves, heldUpTo: heldUpTo, beside: reader)
            return KeptRead(snapshot: try Self.snapshot(db, photos: photos, names: names, topRegionLimit: topRegionLimit),
                            revision: revision, readWhole: true)
        }
    }

    /// Keeps `photos`, a snapshot's as read at `revision`, in a file at `place` for the next
    /// build. Best effort: a file that cannot be written only costs the next build every row.
    package func keep(_ photos: PhotoRows, revision: Int64, at place: KeptSnapshot.Place) {
        let token = ContentHash.hexText(UInt64.random(in: .min ... .max)) + ContentHash.hexText(UInt64.random(in: .min ... .max))
        let header = KeptSnapshot.Header(folio: place.folio, token: token, revision: revision, count: photos.count)
        do {
            // The model learns the token before the file is in place: a build stopped between
            // the two finds the last file with another token, and reads every row.
            try KeptSnapshot.write(photos, header: header, to: place.url, disk: place.disk, before: {
                try writer.write { db in
                    try db.execute(sql: "INSERT INTO snapshotToken (id, token) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET token = excluded.token",
                                   arguments: [token])
                }
            })
        } catch {
            try? place.disk.removeTree(place.url.path)
        }
    }

    /// The last revision any photo row was written or deleted at.
    static func revision(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(revision), 0) FROM photoChange") ?? 0
    }

    /// How many rows, at most, a kept file is patched with: past that, every row is read (and
    /// the file written again).
    static func patchLimit(keeping count: Int) -> Int { max(1_000, count / 10) }

    /// The photos of the file at `place` with the rows changed since it was written read again;
    /// nil when there is no file for this model, Folio and revision, or too much changed.
    /// `revision` is the model's now.
    private static func patched(_ db: Database, place: KeptSnapshot.Place, names: PhotoNames, revision: Int64,
                                spillingInto folder: String?, heldUpTo: Int) throws -> PhotoRows? {
        guard let token = try String.fetchOne(db, sql: "SELECT token FROM snapshotToken"),
              let file = KeptSnapshot.File(place.url),
              file.header.folio == place.folio, file.header.token == token, file.header.revision <= revision
        else { return nil }
        let changed = try Int64.fetchAll(db, sql: "SELECT photoId FROM photoChange WHERE revision > ?", arguments: [file.header.revision])
        guard changed.count <= patchLimit(keeping: file.header.count) else { return nil }
        let again = Set(changed)
        // The rows not changed since are the file's: it must hold each once.
        let unchanged = try Photo.fetchCount(db) - (try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM photo JOIN photoChange ON photoChange.photoId = photo.id WHERE photoChange.revision > ?
            """, arguments: [file.header.revision]) ?? 0)
        var photos = PhotoRows.Gathering(count: unchanged + again.count, heldUpTo: heldUpTo, spillingInto: folder)
        var read = 0
        // Photos whose person is gone are passed over, as a read of every row passes them.
        let whole = file.photos { kept, folder, store, offset in
            guard !again.contains(kept.id) else { return }
            read += 1
            guard let person = names.people[kept.personId] else { return }
            let place = kept.placeId.flatMap { names.places[$0] }
            photos.append(GalleryPhoto(kept: kept, folder: folder, person: person, place: place,
                                       region: place.flatMap { names.regions[$0.value.regionId] }, store: store, offset: offset))
        }
        guard whole, read == unchanged else { return nil }
        let fresh = PackedStore(spillingInto: folder)
        for part in changed.chunked(500) {
            try Self.read(db, Photo.filter(Array(part).contains(Photo.Columns.id)), names: names, into: fresh) { photos.append($0) }
        }
        fresh.seal()
        return photos.finish()
    }
}

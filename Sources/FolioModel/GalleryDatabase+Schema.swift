import Foundation
import GRDB

extension GalleryDatabase {
    /// The schema's history. Never edit a registered migration: add a new one, so that a newer
    /// Folio opens any older database in place.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()

        migrator.registerMigration("v1: people, regions, places, photos, thumbnails") { db in
            try db.create(table: "person") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique()
                t.column("slug", .text).notNull().unique()
            }
            try db.create(table: "region") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique()
                t.column("slug", .text).notNull().unique()
                // Distinct people who took a photo in one of the region's places; kept by the
                // import so that Top Regions never counts over all photos.
                t.column("photographerCount", .integer).notNull().defaults(to: 0)
            }
            try db.create(table: "place") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique()
                t.column("title", .text).notNull()
                t.column("subtitle", .text).notNull()
                t.column("slug", .text).notNull().unique()
                t.belongsTo("region", onDelete: .restrict).notNull()
                t.column("hasFavorites", .boolean).notNull().defaults(to: false)
            }
            try db.create(table: "photo") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("identifier", .text).notNull().unique()
                // Where the photo comes from: "content:<path under content/>" or "flickr:<id>".
                t.column("source", .text).notNull().unique()
                t.column("title", .text)
                t.column("description", .text)
                t.belongsTo("person", onDelete: .cascade).notNull()
                t.belongsTo("place", onDelete: .setNull)
                t.column("taken", .datetime)
                t.column("uploaded", .datetime).notNull()
                t.column("width", .integer).notNull()
                t.column("height", .integer).notNull()
                t.column("favorite", .boolean).notNull().defaults(to: false)
                // What the catalog last said, so a favorite set from the command line survives
                // until the catalog itself changes its mind.
                t.column("catalogFavorite", .boolean).notNull().defaults(to: false)
                t.column("checksum", .text).notNull()
                t.column("fileStamp", .text).notNull().defaults(to: "")
                t.column("fingerprint", .text).notNull().defaults(to: "")
                t.column("format", .text).notNull()
                t.column("orientation", .integer).notNull().defaults(to: 1)
                t.column("camera", .text)
                t.column("exposure", .text)
                t.column("latitude", .double)
                t.column("longitude", .double)
                t.column("tags", .text).notNull().defaults(to: "")
            }
            try db.create(index: "photo_on_taken", on: "photo", columns: ["taken"])
            try db.create(index: "photo_on_uploaded", on: "photo", columns: ["uploaded"])
            try db.create(table: "thumbnail") { t in
                t.belongsTo("photo", onDelete: .cascade).notNull()
                // The rendition's settings, e.g. "thumb 400x400 squareCrop jpeg q82": another
                // setting is another row, so changing sizes invalidates exactly what it affects.
                t.column("spec", .text).notNull()
                // The source checksum the bytes were made from.
                t.column("checksum", .text).notNull()
                t.column("width", .integer).notNull()
                t.column("height", .integer).notNull()
                t.column("bytes", .blob).notNull()
                t.primaryKey(["photoId", "spec"])
            }
        }

        migrator.registerMigration("v2: model generation") { db in
            // Counts changes to what pages show, so a build can tell in one read that nothing
            // changed since the last one.
            try db.create(table: "modelGeneration") { t in
                t.column("id", .integer).primaryKey().check { $0 == 1 }
                t.column("generation", .integer).notNull()
            }
            try db.execute(sql: "INSERT INTO modelGeneration (id, generation) VALUES (1, 0)")
        }

        migrator.registerMigration("v3: failures kept on the photo, reserved page names") { db in
            // A photo that fails is left out of one build, not deleted: the model is the durable
            // store of what the user set on it.
            try db.alter(table: "photo") { t in t.add(column: "lastError", .text) }
            // A slug that names one of a folder's own pages ("index", "all") would overwrite it.
            for table in ["person", "place", "region"] {
                var taken = Set(try String.fetchAll(db, sql: "SELECT slug FROM \(table)"))
                for slug in ["index", "all"] where taken.contains(slug) {
                    let replacement = Slug.unique(slug, in: &taken)
                    try db.execute(sql: "UPDATE \(table) SET slug = ? WHERE slug = ?", arguments: [replacement, slug])
                }
            }
            // Pages may have moved: the next build is a real one.
            try db.execute(sql: "UPDATE modelGeneration SET generation = generation + 1")
            // The file says what it is, to Folio and to tools like `file`.
            try db.execute(sql: "PRAGMA application_id = \(GalleryDatabase.applicationID)")
        }

        migrator.registerMigration("v4: people by key, remote photos, Flickr places") { db in
            // A person was their name. A Flickr user is their account, and two accounts may
            // share a display name: people are keyed ("name:Josh", "flickr:12037949754@N01"),
            // their names no longer unique. SQLite cannot drop a UNIQUE: the table is made anew
            // (foreign keys are off while migrations run).
            try db.create(table: "newPerson") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("key", .text).notNull().unique()
                t.column("name", .text).notNull()
                t.column("slug", .text).notNull().unique()
            }
            try db.execute(sql: "INSERT INTO newPerson (id, key, name, slug) SELECT id, 'name:' || name, name, slug FROM person")
            try db.drop(table: "person")
            try db.rename(table: "newPerson", to: "person")
            try db.create(index: "person_on_name", on: "person", columns: ["name"])
            try db.alter(table: "photo") { t in
                // A RemotePhoto as JSON: the photo's page, licence and sized image URLs.
                t.add(column: "remote", .text)
                // Flickr's place id, while the place it names is not known yet.
                t.add(column: "flickrPlaceId", .text)
            }
            try db.create(index: "photo_on_flickrPlaceId", on: "photo", columns: ["flickrPlaceId"])
            // What flickr.places.getInfo said of each place id: looked up once.
            try db.create(table: "flickrPlace") { t in
                t.primaryKey("placeId", .text)
                t.column("name", .text).notNull()
                t.column("region", .text).notNull()
            }
        }

        migrator.registerMigration("v5: album settings") { db in
            // What each folder's album.plist says; the albums themselves are the photos' folders.
            try db.create(table: "album") { t in
                t.primaryKey("path", .text)
                t.column("title", .text)
                t.column("description", .text)
                t.column("cover", .text)
            }
        }

        migrator.registerMigration("v6: the colour of each photo's pixels") { db in
            // What the import read of a photo's colour (sRGB, an ICC profile, Adobe RGB by EXIF,
            // CMYK), so a build names and plans its renditions without opening the file. Photos
            // imported before are read again by the next build (the import's reader version).
            try db.alter(table: "photo") { t in t.add(column: "colour", .text).notNull().defaults(to: "srgb") }
        }

        migrator.registerMigration("v7: problems kept until fixed") { db in
            // What the last builds found wrong. A photo's problems are found only when its file
            // is read, which an unchanged photo's is not: they are kept until it is read again
            // (or leaves content/), so every build can still name them. The build's own
            // (catalogs, folders, images) are replaced by every build that puts a site in place.
            try db.create(table: "problem") { t in
                t.autoIncrementedPrimaryKey("id")
                // The photo ("content:<path>") whose reading found it; NULL for the build's own.
                t.column("photoSource", .text).indexed()
                t.column("severity", .text).notNull()
                t.column("path", .text).notNull()
                t.column("reason", .text).notNull()
            }
        }

        migrator.registerMigration("v8: descriptions written in Markdown") { db in
            // A description from a sigal .md file, rendered by cmark (raw HTML left out), beside
            // its plain text in `description` (search, the feed, meta descriptions).
            try db.alter(table: "photo") { t in t.add(column: "descriptionHTML", .text) }
            try db.alter(table: "album") { t in t.add(column: "descriptionHTML", .text) }
        }

        migrator.registerMigration("v9: unlisted and protected albums, and the site's secret") { db in
            try db.alter(table: "album") { t in
                t.add(column: "unlisted", .boolean).notNull().defaults(to: false)
                // A digest of a protected album's password (never the password).
                t.add(column: "passwordDigest", .text)
            }
            // One row: the key the addresses of unlisted albums are derived from.
            try db.create(table: "siteSecret") { t in
                t.primaryKey("id", .integer).check { $0 == 1 }
                t.column("value", .text).notNull()
            }
        }

        migrator.registerMigration("v10: whether each photo is transparent or animated") { db in
            // A PNG or WebP with alpha gets renditions that keep it (PNG, WebP), under other
            // names; an animated GIF is published as well as its stills: the build plans them
            // from these. Photos imported before are read again.
            try db.alter(table: "photo") { t in
                t.add(column: "transparent", .boolean).notNull().defaults(to: false)
                t.add(column: "animated", .boolean).notNull().defaults(to: false)
            }
        }

        migrator.registerMigration("v11: tags as a JSON array") { db in
            // Tags were one text, one tag a line, split again by every reader. They are now the
            // photo's array, stored as JSON as `remote` is: read whole with the photo, never
            // queried alone, so a table of their own would cost a join and gain nothing. The
            // column's default stays '' (SQLite cannot change it in place); the import always
            // writes the column.
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let rows = try Row.fetchAll(db, sql: "SELECT id, tags FROM photo WHERE tags <> ''")
            for row in rows {
                let tags = (row["tags"] as String).split(separator: "\n").map(String.init)
                let json = String(decoding: try encoder.encode(tags), as: UTF8.self)
                try db.execute(sql: "UPDATE photo SET tags = ? WHERE id = ?", arguments: [json, row["id"] as Int64])
            }
            try db.execute(sql: "UPDATE photo SET tags = '[]' WHERE tags = ''")
        }

        migrator.registerMigration("v12: videos and Live Photos") { db in
            // What moves in a photo (PhotoMotion, as JSON): a video's duration, a Live Photo's
            // clip and its checksum. NULL for a still, as every photo imported before was.
            try db.alter(table: "photo") { t in t.add(column: "motion", .text) }
        }

        migrator.registerMigration("v13: which photos changed and which failed, found without a scan") { db in
            // Every photo row written or deleted, by anyone (the import, a command, a foreign
            // key's cascade), gets the next revision here, by triggers: a build that kept the
            // photos it read at revision R (`KeptSnapshot`) reads again only the rows changed
            // since. One row a photo id, the last change's.
            try db.create(table: "photoChange") { t in
                t.primaryKey("photoId", .integer)
                t.column("revision", .integer).notNull().indexed()
            }
            let mark = { (id: String) in
                """
                INSERT INTO photoChange (photoId, revision) VALUES (\(id), (SELECT IFNULL(MAX(revision), 0) + 1 FROM photoChange))
                    ON CONFLICT (photoId) DO UPDATE SET revision = excluded.revision;
                """
            }
            try db.execute(sql: """
                CREATE TRIGGER photoInserted AFTER INSERT ON photo BEGIN \(mark("NEW.id")) END;
                CREATE TRIGGER photoUpdated AFTER UPDATE ON photo BEGIN \(mark("OLD.id")) \(mark("NEW.id")) END;
                CREATE TRIGGER photoDeleted AFTER DELETE ON photo BEGIN \(mark("OLD.id")) END;
                """)
            // Which kept snapshot the model was last read into: a file kept for another model
            // (one restored from a backup, a copy) names another.
            try db.create(table: "snapshotToken") { t in
                t.primaryKey("id", .integer).check { $0 == 1 }
                t.column("token", .text).notNull()
            }
            // The photos that failed, asked for by every build: found by this index of them
            // alone, not by reading every row.
            try db.execute(sql: "CREATE INDEX photo_failing ON photo (source) WHERE lastError IS NOT NULL")
        }

        migrator.registerMigration("v14: no password digest in the model") { db in
            // A protected album's password was kept as one SHA-256 of it, far cheaper to test a guess
            // against than the published pages. It is dropped: the model keeps only where the password
            // was read from, and the next build draws the album's pages again. Freed bytes are
            // overwritten, so the old digests do not linger in the file's free space.
            let overwrites = try Int.fetchOne(db, sql: "PRAGMA secure_delete") ?? 0
            try db.execute(sql: "PRAGMA secure_delete = ON")
            try db.alter(table: "album") { t in t.rename(column: "passwordDigest", to: "passwordSource") }
            try db.execute(sql: "UPDATE album SET passwordSource = 'from an older Folio' WHERE passwordSource <> ?",
                           arguments: ["missing"])
            try db.execute(sql: "PRAGMA secure_delete = \(overwrites)")
        }

        migrator.registerMigration("v15: the lens") { db in
            try db.alter(table: "photo") { t in t.add(column: "lens", .text) }
        }

        migrator.registerMigration("v16: who is in each photo") { db in
            try db.alter(table: "photo") { t in t.add(column: "pictured", .text).notNull().defaults(to: "[]") }
        }

        migrator.registerMigration("v17: folders that are no album") { db in
            try db.alter(table: "album") { t in t.add(column: "isAlbum", .boolean).notNull().defaults(to: true) }
        }

        migrator.registerMigration("v18: photos listed in several albums") { db in
            try db.alter(table: "photo") { t in t.add(column: "alsoListedIn", .text).notNull().defaults(to: "[]") }
        }

        migrator.registerMigration("v19: no one named is no word") { db in
            // The person of photos no one is named for was kept as "Unknown", an English word the
            // pages then showed whatever the site's language. No one is now a key with no name;
            // pages choose their words. (Their slug, never published, stays.)
            try db.execute(sql: "UPDATE person SET key = ?, name = '' WHERE key = ?",
                           arguments: [Person.nobodyKey, "name:" + Person.unknownName])
        }

        return migrator
    }
}

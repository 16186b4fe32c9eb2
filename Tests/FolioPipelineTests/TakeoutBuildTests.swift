import FolioContent
import FolioCore
import FolioImaging
import FolioModel
@testable import FolioPipeline
import FolioTestSupport
import Foundation
import GRDB
import XCTest

/// A Google Takeout export builds as Google Photos showed it: each photo dated and placed by its
/// sidecar when its file does not say, with its words, favorite and people; the album titled by
/// its `metadata.json`; a changed sidecar read again alone. The export is a real one
/// (`Tests/Fixtures/Takeout`), its photos' pixels made here where the fixture leaves them out (`Tests/Fixtures/README.md`).
final class TakeoutBuildTests: XCTestCase {
    static let fixtures = TestSite.repository.appendingPathComponent("Tests/Fixtures/Takeout")

    /// The fixture under content/ as two parts of one export extracted there, with an image of
    /// no date of its own (a JPEG, a PNG, a GIF, a WebP in turn; the same for the same name, as
    /// Takeout gives an album's photo in its year's folder too) for each sidecar whose photo it
    /// leaves out, video sidecars aside.
    func takeoutSite() throws -> (site: TestSite, sidecars: [String: URL]) {
        let site = try TestSite()
        let parts = [
            ("Takeout1/Google Photos", "Takeout/Google Photos"),
            ("Takeout3/Photos from 2023", "Takeout/Google Photos/Photos from 2023"),
            ("gophers/Google Photos", "takeout-20250313T170510Z-002/Takeout/Google Photos"),
        ]
        for (from, to) in parts {
            let target = site.content.appendingPathComponent(to)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent(from), to: target)
        }
        var sidecars: [String: URL] = [:]
        var drawn: [String: Int] = [:]
        let formats: [(ImageFormat, String)] = [(.jpeg, "jpg"), (.png, "png"), (.gif, "gif"), (.webp, "webp")]
        var made = 0
        let files = FileManager.default.enumerator(at: site.content, includingPropertiesForKeys: nil)!.allObjects.compactMap { $0 as? URL }
        for url in files.sorted(by: { $0.path < $1.path })
        where url.pathExtension == "json" && !url.lastPathComponent.contains("tadonn") && url.lastPathComponent != "metadata.json" {
            var name = url.deletingPathExtension().lastPathComponent
            if name.hasSuffix(".supplemental-metadata") { name = String(name.dropLast(".supplemental-metadata".count)) }
            if name.hasSuffix("(1)") {
                let whole = String(name.dropLast(3)) as NSString
                name = "\(whole.deletingPathExtension)(1).\(whole.pathExtension)"
            }
            var photo = url.deletingLastPathComponent().appendingPathComponent(name)
            guard photo.pathExtension != "mp4" else { continue }
            if !FileManager.default.fileExists(atPath: photo.path) {
                // Takeout keeps a photo's format in its name: the sidecar is renamed with it.
                let image = drawn[name] ?? made
                drawn[name] = image
                let (format, suffix) = formats[image % formats.count]
                photo = photo.deletingPathExtension().appendingPathExtension(suffix)
                let renamed = url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent.replacingOccurrences(of: ".jpg", with: ".\(suffix)"))
                if renamed != url { try FileManager.default.moveItem(at: url, to: renamed) }
                var canvas = Canvas(width: 32, height: 24, background: (image * 40 % 256, 120, 200))
                canvas.fill(x: image % 28, y: 4, width: 4, height: 4, Canvas.red)
                try canvas.encoded(as: format, quality: 80).write(to: photo)
                if image == made { made += 1 }
                sidecars[String(photo.path.dropFirst(site.content.path.count + 1))] = renamed
            } else {
                sidecars[String(photo.path.dropFirst(site.content.path.count + 1))] = url
            }
        }
        return (site, sidecars)
    }

    func testARealExportIsDatedPlacedAndDescribedByItsSidecars() async throws {
        let (site, sidecars) = try takeoutSite()
        let report = try await site.build()
        // The fixture's three empty files are no photos; everything else is.
        let years = "content:Takeout/Google Photos/Photos from 2023/"
        XCTAssertEqual(report.failedPhotos.map(\.text).sorted(), [years + "DSC_0238(1).JPG", years + "DSC_0238.JPG", years + "DSC_0238_1.JPG"])
        XCTAssertEqual(report.warnings, [])
        XCTAssertEqual(report.skippedLines, [
            "Google Takeout: 1 sidecar without its photo: content/Takeout/Google Photos/Album test 6-10-23/PXL_20231006_063909898.LS.mp4.json",
            "Google Takeout: 5 copies of photos of albums (in a year's folder or another album): each photo published once, in its albums",
        ], "no sidecar is a skipped file")

        let rows = try site.database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT source, taken, placeId, latitude, favorite, description FROM photo WHERE lastError IS NULL")
        }
        XCTAssertEqual(rows.count, 12, "an album's photo once, not again from its year's folder")
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        for row in rows {
            let path = String((row["source"] as String).dropFirst("content:".count))
            let sidecar = try XCTUnwrap(sidecars[path], path)
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: sidecar)) as? [String: Any])
            let seconds = try XCTUnwrap(Double(((json["photoTakenTime"] as? [String: Any])?["timestamp"] as? String) ?? ""))
            let month = utc.dateComponents([.year, .month], from: Date(timeIntervalSince1970: seconds))
            let taken: Date? = row["taken"]
            XCTAssertEqual(taken.map { utc.dateComponents([.year, .month], from: $0) }, month, "\(path) dated in its sidecar's month")
            let geo = json["geoData"] as? [String: Any]
            if let latitude = geo?["latitude"] as? Double, latitude != 0 {
                XCTAssertNotNil(row["placeId"] as Int64?, "\(path) placed where its sidecar says")
            }
            XCTAssertEqual(row["favorite"] as Bool, json["favorited"] as? Bool ?? false, path)
        }
        let described = rows.first { ($0["description"] as String?) != nil }
        XCTAssertEqual(described?["description"], "Description from goggle photos")
        // The albums are the account's, at the top: Takeout's own folders are none.
        let albumsPage = try site.read("albums/index.html")
        let listed = albumsPage.components(separatedBy: "href=\"../albums/").dropFirst().compactMap { $0.split(separator: "\"").first }
        XCTAssertEqual(Set(listed).subtracting(["index.html"]), ["album-test-6-10-23.html", "gophers.html"], "Takeout's own folders are no albums")
        XCTAssertTrue(albumsPage.contains("Album test 6/10/23"))
        XCTAssertFalse(albumsPage.contains("Photos from"), "a year's folder is no album")
        let gophers = try site.read("albums/gophers.html")
        XCTAssertTrue(gophers.contains("Gopher"), "titled by its metadata.json")
        XCTAssertTrue(gophers.contains("5 photos"), "the album lists its five photos")

        // What stands is said again by a build that finds nothing changed.
        let again = try await site.build()
        XCTAssertTrue(again.upToDate)
        XCTAssertEqual(again.skippedLines, report.skippedLines)
    }

    /// Who is in a photo is on its page and found by search; a changed sidecar is read again
    /// alone; a broken one is a warning naming it, and the photo is published with what its file says.
    func testPeopleShowAChangedSidecarIsReadAloneAndABrokenOneIsAWarning() async throws {
        let site = try TestSite()
        let real = try Data(contentsOf: Self.fixtures.appendingPathComponent("Takeout1/Google Photos/Album test 6-10-23/PXL_20231006_063851485.jpg.json"))
        var json = try XCTUnwrap(try JSONSerialization.jsonObject(with: real) as? [String: Any])
        json["people"] = [["name": "Ada Lovelace"], ["name": "Grace"]]
        for index in 1...3 {
            try site.write(try TestInputs.photo(index), to: "content/Trip/IMG_\(index).jpg")
            try site.write(try JSONSerialization.data(withJSONObject: json), to: "content/Trip/IMG_\(index).jpg.json")
        }
        try await site.build()
        let found = try await site.database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT identifier FROM photo WHERE source = 'content:Trip/IMG_1.jpg'")
        }
        let identifier = try XCTUnwrap(found)
        let page = try site.read("photos/\(identifier).html")
        XCTAssertTrue(page.contains("In this photo"), "who is in it, on its page")
        XCTAssertTrue(page.contains("Ada Lovelace, Grace"))
        let searchData = try FileManager.default.contentsOfDirectory(at: site.publicFolder.appendingPathComponent("search/data"), includingPropertiesForKeys: nil)
        XCTAssertTrue(try searchData.contains { try String(contentsOf: $0, encoding: .utf8).localizedCaseInsensitiveContains("lovelace") },
                      "found by search")

        json["description"] = "Changed in Google Photos"
        try site.write(try JSONSerialization.data(withJSONObject: json), to: "content/Trip/IMG_2.jpg.json")
        try site.write(Data(#"{"photoTakenTime": {"timestamp": "#.utf8), to: "content/Trip/IMG_3.jpg.json")
        let report = try await site.build()
        XCTAssertEqual(report.imported, 2, "the two photos whose sidecar changed, and no other")
        XCTAssertEqual(report.warnings.map(\.path), ["content/Trip/IMG_3.jpg.json"])
        XCTAssertTrue(report.warnings.first?.reason.hasPrefix("is not readable JSON") == true, "\(report.warnings)")
        let descriptions = try site.database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT source, description, pictured FROM photo ORDER BY source")
        }
        XCTAssertEqual(descriptions.map { $0["description"] as String? }, ["Description from goggle photos", "Changed in Google Photos", nil])
        XCTAssertEqual(descriptions.last?["pictured"], "[]", "a sidecar that will not read says no one")
    }

    /// A Takeout export of photos 1 to 4, each in its year's folder and in the albums `albums`
    /// gives it, with the fixture's real sidecar beside every copy (as Takeout writes it).
    func writeExport(_ albums: [String: [Int]], to site: TestSite) throws {
        let sidecar = try Data(contentsOf: Self.fixtures.appendingPathComponent("Takeout1/Google Photos/Album test 6-10-23/PXL_20231006_063029647.jpg.json"))
        let root = "content/Takeout/Google Photos"
        try? FileManager.default.removeItem(at: site.content)
        for number in 1...4 {
            try site.write(try TestInputs.photo(number), to: "\(root)/Photos from 2023/IMG_\(number).jpg")
            try site.write(sidecar, to: "\(root)/Photos from 2023/IMG_\(number).jpg.json")
        }
        for (album, numbers) in albums {
            try site.write(Data(#"{"title": "\#(album) trip", "description": ""}"#.utf8), to: "\(root)/\(album)/metadata.json")
            for number in numbers {
                try site.write(try TestInputs.photo(number), to: "\(root)/\(album)/IMG_\(number).jpg")
                try site.write(sidecar, to: "\(root)/\(album)/IMG_\(number).jpg.json")
            }
        }
        // Files of one time, as extracting an export gives them: the day a photo was added is its file's.
        let enumerator = FileManager.default.enumerator(at: site.content, includingPropertiesForKeys: nil)!
        for case let url as URL in enumerator {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)], ofItemAtPath: url.path)
        }
    }

    /// A photo in several albums is one photo, listed in each; moving photos between albums is
    /// seen by the next build as a cold build of the same export sees it.
    func testAPhotoInSeveralAlbumsIsOnePhotoListedInEach() async throws {
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        let site = try TestSite()
        try writeExport(["Paris": [1, 2], "Best": [2, 3]], to: site)
        let report = try await site.build(now: now)
        XCTAssertEqual(report.photos, 4, report.summary)
        XCTAssertTrue(report.skippedLines.contains("Google Takeout: 4 copies of photos of albums (in a year's folder or another album): "
                                                   + "each photo published once, in its albums"), "\(report.skippedLines)")
        XCTAssertTrue(try site.read("albums/paris.html").contains("2 photos"))
        XCTAssertTrue(try site.read("albums/best.html").contains("2 photos"))
        let found = try await site.database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT identifier FROM photo WHERE source LIKE '%IMG_2.jpg'")
        }
        let page = try site.read("photos/\(try XCTUnwrap(found)).html")
        XCTAssertTrue(page.contains("Best trip") && page.contains("Paris trip"), "both its albums on its page")

        try writeExport(["Paris": [1, 2], "Best": [1, 2, 4]], to: site)
        let moved = try await site.build(now: now)
        XCTAssertEqual(moved.photos, 4, moved.summary)
        XCTAssertTrue(try site.read("albums/best.html").contains("3 photos"))
        let fresh = try TestSite()
        try writeExport(["Paris": [1, 2], "Best": [1, 2, 4]], to: fresh)
        try await fresh.build(now: now)
        let (built, cold) = (try site.publishedFiles(), try fresh.publishedFiles())
        XCTAssertEqual(Set(built.keys), Set(cold.keys))
        XCTAssertEqual(built.keys.filter { built[$0] != cold[$0] }.sorted(), [], "the next build is a cold build's")
    }
}

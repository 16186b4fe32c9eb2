import ArgumentParser
import FolioCore
import FolioFlickr
import FolioModel
import Foundation

struct PruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Removes imported Flickr photos older than an age from the model, favorites excepted.",
        discussion: "Their places and regions go when no photo is left in them; the next 'folio build' publishes the change."
    )

    @OptionGroup var siteOptions: SiteOptions

    @Option(name: .customLong("older-than"), help: "Photos uploaded longer ago than this: 90m, 36h, 7d, 2w.")
    var olderThan: String = "7d"

    func validate() throws {
        if Age(olderThan) == nil { throw ValidationError("--older-than takes a number and m, h, d or w: 7d, 36h") }
    }

    func run() throws {
        let paths = siteOptions.paths
        guard FileManager.default.fileExists(atPath: paths.database.path) else {
            throw fail(FolioError(path: paths.database.path, reason: "no model yet: nothing to prune"))
        }
        do {
            let age = Age(olderThan)!
            let result = try FlickrPrune.run(paths: paths, database: try GalleryDatabase.open(at: paths.database), olderThan: age)
            say("\(Wording.count(result.photos, "Flickr photo")) older than \(age) removed, \(Wording.count(result.cacheFiles, "cached image")); run 'folio build' to publish.")
        } catch {
            throw fail(error)
        }
    }
}

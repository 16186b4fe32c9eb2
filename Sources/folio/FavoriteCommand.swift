import ArgumentParser
import FolioCore
import FolioModel
import Foundation

struct FavoriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "favorite",
        abstract: "Marks photos as favorites in the site's model (or clears the mark).",
        discussion: "Photos are named by their identifier, the name of their page in public/photos/ (e.g. p1a2b3c4d5e6f)."
    )

    @OptionGroup var siteOptions: SiteOptions

    @Flag(name: .long, help: "Clear the favorite mark instead of setting it.")
    var remove = false

    @Argument(help: "The photos' identifiers.")
    var identifiers: [String]

    func validate() throws {
        if identifiers.isEmpty { throw ValidationError("name at least one photo") }
    }

    func run() throws {
        let paths = siteOptions.paths
        guard FileManager.default.fileExists(atPath: paths.database.path) else {
            throw fail(FolioError(path: paths.database.path, reason: "no model yet: run 'folio build' first"))
        }
        let database: GalleryDatabase
        do { database = try GalleryDatabase.open(at: paths.database) } catch { throw fail(error) }
        var missing: [String] = []
        for identifier in identifiers {
            do {
                if try !database.setFavorite(!remove, photo: identifier) { missing.append(identifier) }
            } catch {
                throw fail(error)
            }
        }
        if !missing.isEmpty {
            throw fail(FolioError(path: paths.database.path, reason: "no photo with the identifier \(missing.joined(separator: ", "))"))
        }
        say("\(identifiers.count) \(identifiers.count == 1 ? "photo" : "photos") \(remove ? "no longer a favorite" : "marked as favorite"); run 'folio build' to publish.")
    }
}

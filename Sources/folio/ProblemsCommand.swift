import ArgumentParser
import FolioCore
import FolioModel
import Foundation

struct ProblemsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "problems",
        abstract: "Lists what is still wrong with the site's photos, records and folders.",
        discussion: """
            One line per problem, errors first, as the last build left them in the model: what \\
            each build found, and what earlier builds found in files not changed since. Nothing is \\
            read or built; a problem is gone once a build finds it fixed.
            """
    )

    @OptionGroup var siteOptions: SiteOptions

    func run() throws {
        let paths = siteOptions.paths
        guard FileManager.default.fileExists(atPath: paths.database.path) else {
            throw fail(FolioError(path: paths.database.path, reason: "no model yet: run 'folio build' first"))
        }
        do {
            for problem in try GalleryDatabase.open(at: paths.database).problems() { say("\(problem)") }
        } catch {
            throw fail(error)
        }
    }
}

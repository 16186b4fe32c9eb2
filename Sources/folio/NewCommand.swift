import ArgumentParser
import FolioPipeline
import Foundation

struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Creates a new, empty site: content/, a catalog to fill and folio.json."
    )

    @Argument(help: "The folder to create.", completion: .directory)
    var folder: String

    @Option(help: "The gallery's title.")
    var title: String = "My photos"

    func validate() throws {
        guard !folder.isEmpty else { throw ValidationError("name the folder to create, such as ~/photos/site") }
    }

    func run() throws {
        do {
            try SiteScaffold.create(at: URL(fileURLWithPath: folder), title: title)
        } catch {
            throw fail(error)
        }
        say("Created \(folder). Put photos in \(folder)/content/, describe them in content/photos.plist, then run 'folio build --site \(folder)'.")
    }
}

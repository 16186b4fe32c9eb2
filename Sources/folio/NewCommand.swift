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

    @Option(help: "The gallery's title (default: the language's words for \"My photos\").")
    var title: String?

    @Option(help: "The language of the gallery's pages, as people write it: en, en-GB, fr, de, es, pl, ja, zh-Hans, ar…")
    var language: String = "en"

    func validate() throws {
        guard !folder.isEmpty else { throw ValidationError("name the folder to create, such as ~/photos/site") }
        guard !language.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("--language names a language, such as pl or zh-Hans")
        }
    }

    func run() throws {
        do {
            let made = try SiteScaffold.create(at: URL(fileURLWithPath: folder), title: title, language: language)
            for issue in made.issues { say("note: \(issue.reason)") }
        } catch {
            throw fail(error)
        }
        say("Created \(folder). Put photos in \(folder)/content/, describe them in content/photos.plist, then run 'folio build --site \(folder)'.")
    }
}

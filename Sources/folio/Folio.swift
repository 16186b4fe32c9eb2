import ArgumentParser
import FolioCore

@main
struct Folio: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "folio",
        abstract: "Builds static photo galleries: places, top regions, people, favorites and recents.",
        version: FolioVersion.description,
        subcommands: [BuildCommand.self, ServeCommand.self, NewCommand.self, ImportCommand.self, FavoriteCommand.self, PruneCommand.self,
                      PublishCommand.self, ProblemsCommand.self]
    )
}

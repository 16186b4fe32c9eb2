import ArgumentParser
import CBuildIdentity
import FolioCore

@main
struct Folio: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "folio",
        abstract: "Builds static photo galleries: places, top regions, people, favorites and recents.",
        // "folio 0.9.0 (git abc1234, built 2026-11-23)", or "(development build)" from a plain swift build.
        version: "folio \(FolioVersion.number) (\(String(cString: folio_build_identity())))",
        subcommands: [BuildCommand.self, ServeCommand.self, NewCommand.self, ImportCommand.self, FavoriteCommand.self, PruneCommand.self,
                      PublishCommand.self, ProblemsCommand.self, SecretCommand.self]
    )
}

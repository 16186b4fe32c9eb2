import ArgumentParser

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Imports photos from elsewhere into the site's model.",
        subcommands: [ImportFlickrCommand.self]
    )
}

import ArgumentParser

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Brings photos from elsewhere into the site: Flickr's into its model, a Google Takeout export into content/.",
        subcommands: [ImportFlickrCommand.self, ImportTakeoutCommand.self]
    )
}

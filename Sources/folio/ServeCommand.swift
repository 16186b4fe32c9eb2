import ArgumentParser
import FolioCore
import FolioPipeline
import FolioPreview
import Foundation

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Builds the site, serves it on 127.0.0.1 and rebuilds it as you edit.",
        discussion: """
            Serves public/ on 127.0.0.1 (never on the network), watches content/, templates/ and \
            folio.json, rebuilds what a change affects and reloads the open browser tabs. A failed \
            build shows in the terminal and on the page, and the last good site stays served. \
            Ctrl-C stops.
            """
    )

    @OptionGroup var siteOptions: SiteOptions

    @Option(name: [.short, .long], help: """
        The port to listen on; taken, it is an error (0: any free port). Without --port, 8000, or a \
        free one when 8000 is taken.
        """)
    var port: Int?

    @Option(name: [.short, .long], help: "Where to write the site (default: <site>/public).", completion: .directory)
    var output: String?

    @Option(help: "A theme folder to use instead of the default one (watched too).", completion: .directory)
    var theme: String?

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be from 0 to 65535") }
        if let output, output.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--output needs a folder")
        }
        if let theme, theme.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--theme needs a folder")
        }
        _ = try sourceDateEpoch()
    }

    func run() async throws {
        let paths = SitePaths(root: siteOptions.paths.root, output: output.map { URL(fileURLWithPath: $0) })
        var options = PreviewOptions(port: UInt16(port ?? 8000), build: BuildOptions(
            themeFolder: theme.map { URL(fileURLWithPath: $0) }, sourceDateEpoch: try sourceDateEpoch(),
            progress: isatty(STDERR_FILENO) == 1))
        options.exactPort = port != nil
        let interrupt = InterruptSignal()
        let session = PreviewSession(paths: paths, options: options) { line in
            // Unbuffered, so the address shows at once even when output goes to a pipe.
            if line.hasPrefix("error:") { tell(line) } else { say(line) }
        }
        do {
            try await session.start()
        } catch {
            throw fail(error)
        }
        await interrupt.wait()
        say("\nStopping.")
        await session.stop()
    }
}

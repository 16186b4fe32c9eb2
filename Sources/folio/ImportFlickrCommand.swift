import ArgumentParser
import FolioCore
import FolioFlickr
import FolioModel
import Foundation

struct ImportFlickrCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flickr",
        abstract: "Imports photos from Flickr into the site's model (folio.sqlite).",
        discussion: """
            By default, recent geo-referenced photos; with --user, someone's public photos; with \
            --album, a photoset. Each place is looked up once, its region learned from Flickr. \
            Thumbnails are downloaded by 'folio build', when a page needs them; pages show the \
            photos from Flickr itself, with their owner, licence and a link to their Flickr page. \
            The API key comes from --api-key or FLICKR_API_KEY and is never written anywhere.
            """
    )

    @OptionGroup var siteOptions: SiteOptions

    @Option(help: "The Flickr REST endpoint.")
    var endpoint: String = FlickrClient.defaultEndpoint.absoluteString

    @Option(name: .customLong("api-key"), help: "Your Flickr API key (default: $FLICKR_API_KEY).")
    var apiKey: String?

    @Option(help: "A user's public photos: their screen name or account id (12037949754@N01).")
    var user: String?

    @Option(help: "A photoset's photos, by its id.")
    var album: String?

    @Option(help: "Only photos with all these tags, comma-separated.")
    var tags: String?

    @Option(help: "Only photos under these licences, Flickr's ids, comma-separated (e.g. 4,5,9,10).")
    var license: String?

    @Option(help: "How many pages of results.")
    var pages: Int = 1

    @Option(name: .customLong("per-page"), help: "Photos per page, 1 to 500.")
    var perPage: Int = 100

    var key: String? {
        (apiKey ?? ProcessInfo.processInfo.environment["FLICKR_API_KEY"])?.trimmingCharacters(in: .whitespaces).nilIfBlank
    }

    func validate() throws {
        if user != nil && album != nil { throw ValidationError("choose --user or --album, not both") }
        guard pages >= 1 else { throw ValidationError("--pages must be at least 1") }
        guard (1...500).contains(perPage) else { throw ValidationError("--per-page must be from 1 to 500") }
        guard let url = URL(string: endpoint), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ValidationError("--endpoint must be an http or https address")
        }
        if key == nil { throw ValidationError("no Flickr API key: pass --api-key or set FLICKR_API_KEY") }
    }

    func run() async throws {
        let paths = siteOptions.paths
        let terminal = isatty(STDERR_FILENO) == 1
        let database: GalleryDatabase
        do {
            guard FileManager.default.fileExists(atPath: paths.root.path) else {
                throw FolioError(path: paths.root.path, reason: "no such folder (make a site with 'folio new')")
            }
            database = try GalleryDatabase.open(at: paths.database)
        } catch {
            throw fail(error)
        }
        let note: @Sendable (String) -> Void = { line in
            if terminal { tell(line) }
        }
        let client = FlickrClient(endpoint: URL(string: endpoint)!, apiKey: key ?? "", onRetry: note)
        let selection: FlickrImport.Selection = user.map { .user($0) } ?? album.map { .album($0) } ?? .recent
        let options = FlickrImport.Options(
            selection: selection, tags: Self.list(tags), licenses: Self.list(license), pages: pages, perPage: perPage)
        let summary: FlickrImport.Summary
        do {
            summary = try await FlickrImport(client: client, database: database, progress: note).run(options)
        } catch {
            throw fail(error)
        }
        for failure in summary.failures { tell("warning: \(failure)") }
        say(summary.line)
        if !summary.failures.isEmpty { throw ExitCode.failure }
    }

    static func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

import ArgumentParser
import FolioContent
import FolioCore
import Foundation

struct ImportTakeoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "takeout",
        abstract: "Unpacks a Google Takeout export's .zip or .tgz parts into content/.",
        discussion: """
            Google Photos' folder of each part is unpacked into content/Takeout/, as Google laid it \
            out, the parts of one export merged; other Google products in the parts are left in \
            them. Files already unpacked (the same size and time) are passed over, so a part can be \
            unpacked again, and a new export's parts over an old one. Then run 'folio build': each \
            photo's JSON gives its date, place, description, favorite and who is in it.
            """
    )

    @OptionGroup var siteOptions: SiteOptions

    @Argument(help: "The export's parts (takeout-…-001.zip, takeout-…-002.tgz, …).", completion: .file())
    var archives: [String]

    func validate() throws {
        guard !archives.isEmpty else { throw ValidationError("name the export's .zip or .tgz parts") }
    }

    func run() throws {
        let paths = siteOptions.paths
        guard FileManager.default.fileExists(atPath: paths.content.path) else {
            throw fail(FolioError(path: paths.content.path, reason: "no such folder (make a site with 'folio new')"))
        }
        // On a terminal, how far into each part, in megabytes of it: a large export takes minutes.
        let terminal = isatty(STDERR_FILENO) == 1
        var line: (archive: String, progress: ProgressLine)?
        let summary = TakeoutArchives(contentRoot: paths.content).unpack(archives.map { URL(fileURLWithPath: $0) }) { archive, read in
            guard terminal else { return }
            if line?.archive != archive {
                line?.progress.finish()
                let size = (try? FileManager.default.attributesOfItem(atPath: archives.first { $0.hasSuffix(archive) } ?? "")[.size] as? Int) ?? 0
                line = (archive, ProgressLine("unpacking \(archive)", total: max(1, size >> 20), unit: "MB", enabled: true))
            }
            line?.progress.update(Int(read >> 20))
        }
        line?.progress.finish()
        for issue in summary.leftOut + summary.errors { tell(issue.description) }
        say(Self.line(summary))
        if !summary.errors.isEmpty { throw ExitCode.failure }
    }

    /// The line said last: the files unpacked and their size, those already there, those of other
    /// Google products, and how many were left out.
    static func line(_ summary: TakeoutArchives.Summary) -> String {
        var line = "unpacked \(Wording.count(summary.unpacked, "file"))"
        if summary.bytes > 0 { line += " (\(ByteCountFormatter.string(fromByteCount: summary.bytes, countStyle: .file)))" }
        line += " into content/"
        if summary.alreadyThere > 0 { line += ", \(summary.alreadyThere) already there" }
        if summary.otherProducts > 0 {
            line += "; \(Wording.count(summary.otherProducts, "file")) of other Google products left in the archives"
        }
        if !summary.leftOut.isEmpty { line += "; \(summary.leftOut.count) left out (above)" }
        return line
    }
}

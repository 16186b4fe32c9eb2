import FolioCore
import FolioSite
import Foundation

/// What a build keeps for the next about the site it published, in `folio-state/` beside the
/// model: never in `public/`, and not in the model, as it is a record of one output folder,
/// swapped in with it. Per output folder: `<name>.pages` (the `PageManifest`), `<name>.site`
/// (`SiteDigest`), `<name>.trees` and `<name>.media` (`TreeLedger`, `MediaLedger`),
/// `<name>.search` (`SearchPostings`), and `<name>.build`, written last, which names the
/// `public/` they describe (device and inode) and vouches for the others by their hashes. Lose it
/// and the next build draws every page and writes only those that differ; a `.build` naming
/// another folder (a site moved or restored, or swapped in by a killed build) is checked first
/// (`adoptMovedOutput`).
package struct BuildState {
    package let folder: URL
    package let output: URL
    /// Where the state is written.
    package let disk: any Disk

    package init(paths: SitePaths, disk: any Disk = LocalDisk()) {
        folder = paths.state
        output = paths.output
        self.disk = disk
    }

    /// The default output's state is `public.build`; another output's is named by its path.
    package var name: String {
        output.lastPathComponent == "public" && output.deletingLastPathComponent().path == folder.deletingLastPathComponent().path
            ? "public" : "output-" + ContentHash.hex(output.path).prefix(12)
    }

    private var recordFile: URL { folder.appendingPathComponent(name + ".build") }
    private var pagesFile: URL { folder.appendingPathComponent(name + ".pages") }
    private var digestFile: URL { folder.appendingPathComponent(name + ".site") }
    private var treesFile: URL { folder.appendingPathComponent(name + ".trees") }
    private var stagedTreesFile: URL { folder.appendingPathComponent(name + ".trees-next") }
    private var mediaFile: URL { folder.appendingPathComponent(name + ".media") }
    /// The media ledger a build leaves, written before the site is put in place (`stage(media:)`).
    private var stagedMediaFile: URL { folder.appendingPathComponent(name + ".media-next") }
    /// The page manifest a build leaves, written while the site is put in place (`stage(pages:)`).
    private var stagedPagesFile: URL { folder.appendingPathComponent(name + ".pages-next") }
    /// The site digest a build leaves, written once its pages are laid out (`stage(digest:)`).
    private var stagedDigestFile: URL { folder.appendingPathComponent(name + ".site-next") }
    private var searchFile: URL { folder.appendingPathComponent(name + ".search") }

    /// The `.build` file: which output folder, which manifest, and the mark of the build that made them.
    private struct Record: Codable {
        package var output: String
        package var pages: String
        /// The digest's hash; nil in a record an older Folio wrote.
        package var site: String?
        package var mark: BuildMark?
    }

    /// The output folder's device and inode, or nil when there is none.
    package static func identity(of folder: URL) -> String? {
        var info = stat()
        guard stat(folder.path, &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino)"
    }

    private func record() -> Record? {
        guard let data = try? Data(contentsOf: recordFile), let record = try? JSONDecoder().decode(Record.self, from: data),
              let current = Self.identity(of: output), record.output == current else { return nil }
        return record
    }

    /// Takes the state over for an output folder that holds the last build's pages but is not
    /// the folder the state names (a site moved, copied or restored, or one a killed build swapped
    /// in): every file the manifest lists is held to its checksum, and the state is kept for those
    /// that are as it says. The ledgers and the mark are not carried over. Nil when there is
    /// nothing to take over; else how many files were listed and how many kept.
    package func adoptMovedOutput() throws -> (listed: Int, kept: Int)? {
        guard let data = try? Data(contentsOf: recordFile), var record = try? JSONDecoder().decode(Record.self, from: data),
              let current = Self.identity(of: output), record.output != current,
              let manifest = PageManifest.read(path: pagesFile.path, hash: record.pages), !manifest.isEmpty else { return nil }
        let root = output.path
        let kept = manifest.filter { path, entry in Self.holds(root + "/" + path, checksum: entry.checksum) }
        try dropTrees()
        try keeping {
            if kept.count != manifest.count {
                record.pages = try stage(pages: kept)
                try rename(stagedPagesFile, to: pagesFile)
            }
            record.output = current
            record.mark = nil
            try write(record)
        }
        return (manifest.count, kept.count)
    }

    /// Whether the regular file at `path` (not a link) holds bytes of `checksum`.
    private static func holds(_ path: String, checksum: UInt64) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
              let data = FileManager.default.contents(atPath: path) else { return false }
        return ContentHash.hash(data) == checksum
    }

    /// Whether the state says this Folio built the output folder as it is.
    package var describesOutput: Bool { record() != nil }

    /// The mark of the build that made the site in place, if any.
    package func mark() -> BuildMark? {
        if let record = record() { return record.mark }
        return legacy().mark
    }

    /// The manifest of the pages in place; empty when nothing is known of them.
    package func pages() -> PageManifest {
        if let record = record() {
            return PageManifest.read(path: pagesFile.path, hash: record.pages) ?? PageManifest()
        }
        return legacy().pages
    }

    /// The entries of `pages()` under the folder `prefix` alone ("search/"), read without the rest.
    package func pages(under prefix: String) -> PageManifest {
        if let record = record() {
            return PageManifest.read(path: pagesFile.path, hash: record.pages, under: prefix) ?? PageManifest()
        }
        return legacy().pages.only(under: prefix)
    }

    /// What the pages in place were made from; nil when nothing is known of it (every page is
    /// then looked at).
    package func digest() -> SiteDigest? {
        guard let record = record(), let hash = record.site, let data = try? Data(contentsOf: digestFile),
              ContentHash.hex(data) == hash else { return nil }
        return SiteDigest.decode(data)
    }

    /// Where the output folder and the tree beside it (`next`) differ, as the last build left
    /// them; nil unless both are the very folders it left, under the manifest it kept.
    package func trees(next: URL) -> TreeLedger? {
        guard let record = record(), let stream = LedgerStream(path: treesFile.path), let ledger = TreeLedger.decode(from: stream),
              ledger.pages == record.pages, ledger.next == Self.identity(of: next) else { return nil }
        return ledger
    }

    /// Forgets the ledger: done before a build touches the tree beside the output, so a build
    /// killed half-way leaves the next one looking at every file.
    package func dropTrees() throws {
        guard access(treesFile.path, F_OK) == 0 else { return }
        try keeping { try disk.removeTree(treesFile.path) }
    }

    /// Each photo's media as the last build left them in both trees (`MediaLedger`); nil unless
    /// `ledger`, the trees' ledger in place, vouches for it.
    package func media(of ledger: TreeLedger) -> MediaLedger? {
        guard let hash = ledger.media, let data = try? Data(contentsOf: mediaFile), ContentHash.hex(data) == hash else { return nil }
        return MediaLedger.decode(data)
    }

    /// Writes the media ledger a build will leave beside the one in place, which it replaces
    /// when the build keeps its trees' ledger (`save(trees:stagedMedia:)`); a build that stops
    /// before leaves it there for the next to write over. Returns the hash of what was written.
    package func stage(media ledger: MediaLedger) throws -> String {
        try keeping {
            try disk.makeFolders(folder.path)
            return try write(stagedMediaFile) { write in ledger.encode(to: write) }
        }
    }

    /// Keeps the ledger of the trees now in place, and of each photo's media in them, once
    /// their state is saved (`save(stagedPages:…)`): the media ledger written by `stage(media:)`,
    /// whose hash was `media`.
    package func save(trees ledger: TreeLedger, stagedMedia media: String) throws {
        var ledger = ledger
        try keeping {
            try rename(stagedMediaFile, to: mediaFile)
            ledger.media = media
            // Written beside the one in place, then put in its place: a large one is handed to
            // the file a piece at a time, never held whole.
            _ = try write(stagedTreesFile) { write in ledger.encode(to: write) }
            try rename(stagedTreesFile, to: treesFile)
        }
    }

    /// The search index's postings as some build last wrote them, read up to their first part
    /// (the rest as they are used, `KeptPostings.nextPart()`), with the mark of the word files
    /// they were written as (`KeptPostings.files`): they describe the site in place only when
    /// its manifest's word files have that mark. Nil when there are none to read.
    package func search() -> KeptPostings? {
        LedgerStream(path: searchFile.path).flatMap(KeptPostings.init(from:))
    }

    /// Keeps the search index's postings (`search()`), written as the word files of `files`.
    package func save(search postings: MadePostings, files: UInt64) throws {
        try keeping {
            try disk.makeFolders(folder.path)
            let scratch = folder.appendingPathComponent(name + ".search-next")
            _ = try write(scratch) { write in postings.encode(files: files, to: write) }
            try rename(scratch, to: searchFile)
        }
    }

    /// What an older Folio kept in `public/` itself (`.folio-build`, `.folio-pages`), read when
    /// there is no state beside the model for it: the state moves there with the next build,
    /// which draws no page it need not and writes only those that came out different.
    private func legacy() -> (mark: BuildMark?, pages: PageManifest) {
        let mark = (try? Data(contentsOf: output.appendingPathComponent(BuildMark.legacyFileName)))
            .flatMap { try? JSONDecoder().decode(BuildMark.self, from: $0) }
        let pages = (try? String(contentsOf: output.appendingPathComponent(PageManifest.legacyFileName), encoding: .utf8))
            .map(PageManifest.decode) ?? PageManifest()
        return (mark, pages)
    }

    /// Replaces the mark of the output folder in place, its manifest as it is.
    package func save(mark: BuildMark) throws {
        guard var record = record() else { return }
        record.mark = mark
        try keeping { try write(record) }
    }

    /// Keeps the state of the output folder now in place: the manifest and the digest first,
    /// then the record that vouches for them. The `mark` lets the next build see it has
    /// nothing to do.
    package func save(pages: PageManifest, digest: SiteDigest?, mark: BuildMark?) throws {
        try save(stagedPages: stage(pages: pages), stagedDigest: digest.map(stage(digest:)), mark: mark)
    }

    /// Writes the page manifest a build will leave beside the state in place, as it is encoded
    /// (never whole in memory), for `save(stagedPages:digest:mark:)` to put in place once the
    /// site is. Returns the hash of what was written.
    package func stage(pages manifest: PageManifest) throws -> String {
        try stage(pages: NextManifest(made: manifest))
    }

    /// `stage(pages:)` for the manifest a build made over the last one's.
    package func stage(pages manifest: NextManifest) throws -> String {
        try keeping {
            try disk.makeFolders(folder.path)
            return try write(stagedPagesFile) { write in manifest.encode(to: write) }
        }
    }

    /// Writes the site digest a build will leave beside the state in place, as it is encoded
    /// (never whole in memory), for `save(stagedPages:stagedDigest:mark:)` to put in place once
    /// the site is. Returns the hash of what was written.
    package func stage(digest: SiteDigest) throws -> String {
        try keeping {
            try disk.makeFolders(folder.path)
            return try write(stagedDigestFile) { write in digest.encode(to: write) }
        }
    }

    /// Keeps the state of the output folder now in place: the manifest written by
    /// `stage(pages:)` (whose hash was `pages`) and the digest written by `stage(digest:)`
    /// (whose hash was `site`; nil: none is kept) first, then the record that vouches for them.
    package func save(stagedPages pages: String, stagedDigest site: String?, mark: BuildMark?) throws {
        guard let current = Self.identity(of: output) else {
            throw FolioError(path: output.path, reason: "the site just put in place is not there")
        }
        try keeping {
            try rename(stagedPagesFile, to: pagesFile)
            if site != nil { try rename(stagedDigestFile, to: digestFile) } else { try? disk.removeTree(digestFile.path) }
            try write(Record(output: current, pages: pages, site: site, mark: mark))
        }
    }

    /// Writes `file` as `encode` hands it its bytes, a piece at a time; returns their hash.
    private func write(_ file: URL, _ encode: (@escaping (UnsafeRawBufferPointer) -> Void) -> Void) throws -> String {
        let descriptor = disk.open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw DiskFailure(errno, file.path) }
        var hash = ContentHash.Stream()
        var failure: Int32 = 0
        let disk = self.disk
        encode { bytes in
            guard failure == 0 else { return }
            hash.add(bytes)
            failure = disk.writeAll(descriptor, bytes)
        }
        if disk.close(descriptor) != 0, failure == 0 { failure = errno }
        if failure != 0 { throw DiskFailure(failure, file.path) }
        return ContentHash.hexText(hash.value)
    }

    /// Puts `file` in place of `target` in one step.
    private func rename(_ file: URL, to target: URL) throws {
        guard disk.rename(file.path, target.path) == 0 else { throw DiskFailure(errno, target.path) }
    }

    /// The hash of the manifest the state in place keeps, which a ledger names.
    package func pagesHash() -> String? { record()?.pages }

    /// The `.build` file, encoded one way whichever save writes it: keys sorted, so the same
    /// state is the same bytes.
    private func write(_ record: Record) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try disk.writeFile(try encoder.encode(record), to: recordFile.path, atomically: true)
    }

    /// Runs `save`, whose failure is the build state's, named by its folder; the disk's own
    /// failures are the machine's, and say so.
    private func keeping<Kept>(_ save: () throws -> Kept) throws -> Kept {
        do {
            return try save()
        } catch let failure as DiskFailure {
            throw failure
        } catch {
            throw FolioError(path: folder.path, reason: "cannot keep the build's state: \(error.localizedDescription)")
        }
    }
}

/// How the published site and the tree beside it differ after a build (`PublicOutput`): every
/// other path is one file in both. Kept in the build state beside the manifest it goes with, a
/// path to a line: after a build that drew every page of a large site, it names each of them.
package struct TreeLedger: Sendable, LedgerFile {
    /// The manifest's hash: a ledger speaks for the state it was saved with, no other.
    package var pages: String
    /// The tree beside the output (its device and inode).
    package var next: String
    /// The pages, files, media files and tile folders ("media/tiles/…/") the last build wrote or deleted.
    package var differing: PathSet
    /// The hash of the photos' media ledger kept beside it (`MediaLedger`).
    package var media: String?
    /// What decides the media the pages refer to besides each photo's own (`MediaInUse.digest(drawing:)`):
    /// with the same, only the names of photos whose media moved are looked at.
    package var inUse: UInt64?
    /// The media files in use that are not a photo's (the map's), sorted.
    package var others: [String]?

    package init(pages: String, next: String, differing: PathSet, media: String? = nil, inUse: UInt64? = nil, others: [String]? = nil) {
        self.pages = pages
        self.next = next
        self.differing = differing
        self.media = media
        self.inUse = inUse
        self.others = others
    }

    private static let heading = "folio-trees 2"

    /// The fields a line each ("-" for none), the map's files after their count, then the count
    /// of the paths that differ.
    package var ledgerHeading: String {
        var lines = [Self.heading, "pages \(pages)", "next \(next)", "media \(media ?? "-")", "in-use \(inUse.map(String.init) ?? "-")",
                     "others \(others.map { String($0.count) } ?? "-")"]
        lines += others ?? []
        lines.append("differing \(differing.count)")
        return lines.joined(separator: "\n") + "\n"
    }

    package var ledgerSize: Int { differing.count * 48 }

    /// A line each path that differs, then "end": a file cut short, even within its last path, is no ledger.
    package func writeLines(into file: inout LedgerWriter) {
        for path in differing {
            file.line.append(contentsOf: path.utf8)
            file.endLine()
        }
        file.line.append(contentsOf: "end".utf8)
        file.endLine()
    }

    /// Nil for anything but a ledger this Folio wrote whole: the next build then looks at every
    /// file. A path with a line break in it reads as two lines, one more than counted: nil too.
    package static func decode(from stream: LedgerStream) -> TreeLedger? {
        func field(_ label: String) -> String? {
            guard let line = stream.line(), line.hasPrefix(label + " ") else { return nil }
            return String(line.dropFirst(label.count + 1))
        }
        func count(_ text: String) -> Int? {
            Int(text).flatMap { $0 >= 0 && $0 <= stream.size ? $0 : nil }
        }
        guard stream.line() == Substring(heading), let pages = field("pages"), let next = field("next"), let media = field("media"),
              let inUse = field("in-use"), let othersCount = field("others") else { return nil }
        var ledger = TreeLedger(pages: pages, next: next, differing: PathSet(), media: media == "-" ? nil : media)
        if inUse != "-" {
            guard let number = UInt64(inUse) else { return nil }
            ledger.inUse = number
        }
        if othersCount != "-" {
            guard let others = count(othersCount) else { return nil }
            ledger.others = []
            for _ in 0..<others {
                guard let line = stream.line() else { return nil }
                ledger.others?.append(String(line))
            }
        }
        guard let differing = field("differing").flatMap(count) else { return nil }
        ledger.differing.reserveCapacity(differing)
        for _ in 0..<differing {
            guard let line = stream.line() else { return nil }
            ledger.differing.insert(String(line))
        }
        guard stream.line() == "end", stream.atEnd, stream.failure == nil else { return nil }
        return ledger
    }
}

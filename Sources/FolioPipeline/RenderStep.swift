import FolioChanges
import FolioCore
import FolioSite
import Foundation

/// The pages drawn into the new site, beside the old one.
struct RenderedSite: StepOutput {
    /// The manifest this build leaves, made over the last build's (whose paths it keeps).
    var manifest: NextManifest
    /// Pages whose keys were made: those a change since the last build could touch.
    var lookedAt = 0
    /// Pages drawn through the templates: those whose values or drawing changed.
    var rendered = 0
    /// Pages whose HTML changed, written anew; the rest are taken over from the last build.
    var written = 0
}

/// Draws every page through the theme into the new site, a chunk of routes at a time, each
/// page's values made from the model as it is drawn and dropped once written, and writes the
/// search index, the feed, robots.txt and the sitemap. A page whose values and drawing are as
/// last time is taken over without rendering; one that renders the same is taken over unwritten.
struct RenderStep: BuildStep {
    static let name = "render"
    static let activity = "writing pages"

    private struct Drawn: Sendable {
        var path: String
        /// Where the last build's entry at `path` is in the manifest.
        var position: Int?
        var entry: PageManifest.Entry
        var lookedAt: Bool
        var rendered: Bool
        var written: Bool
    }

    /// The pages drawn so far, from every chunk, set in the manifest as each chunk is done.
    private final class DrawnPages: @unchecked Sendable {
        private let lock = NSLock()
        private var counts = (lookedAt: 0, rendered: 0, written: 0)
        let manifest: SharedManifest

        init(_ manifest: SharedManifest) {
            self.manifest = manifest
        }

        func add(_ pages: [Drawn]) {
            manifest.set(pages.map { ($0.path, $0.position, $0.entry) })
            lock.withLock {
                for page in pages {
                    if page.lookedAt { counts.lookedAt += 1 }
                    if page.rendered { counts.rendered += 1 }
                    if page.written { counts.written += 1 }
                }
            }
        }

        /// What was drawn, the manifest handed over.
        func finish() -> RenderedSite {
            lock.withLock {
                RenderedSite(manifest: manifest.take(), lookedAt: counts.lookedAt, rendered: counts.rendered, written: counts.written)
            }
        }
    }

    func run(_ input: (site: ConfiguredSite, pages: SitePages), in run: BuildRun) async throws -> RenderedSite {
        let (site, values) = input
        let output = site.output
        let renderer = PageRenderer(theme: site.theme, settings: site.settings, language: site.language)
        let routes = values.routes
        let drawing = values.drawing
        let progress = run.progress("pages", total: routes.count)
        let now = run.now
        let chunkSize = 64
        // Ranges of the routes, not copies of them.
        let chunks = stride(from: 0, to: routes.count, by: chunkSize).map { $0..<min($0 + chunkSize, routes.count) }
        // Each chunk's pages go into the manifest as the chunk is done, not held for all of them.
        // Room for every page, and for the search index's files when they are known: set after
        // the pages, they would otherwise outgrow a large site's room at the render's end.
        values.manifest.reserveCapacity(pages: routes.count + values.searchFiles)
        let drawn = DrawnPages(values.manifest)
        // The builders, held here once: asked through `values` whether each route may differ,
        // the listed site's builder would be copied whole for each.
        let builders = values.builders
        let (listedSite, changes) = (builders[0], values.changes)
        let results = await boundedMap(chunks, width: run.concurrency, onEach: { done in
            progress.update(min(done * chunkSize, routes.count))
        }) { chunk -> (any Error & Sendable)? in
            do {
                var pages: [Drawn] = []
                // Every page written or taken over is in the manifest, which vouches for them all: none
                // is noted made as it goes. Looked up in the last build's manifest all at once, each from
                // where the one before was (a photo's pages come in the order of their paths).
                let chunkRoutes = Array(routes[chunk])
                let paths = chunkRoutes.map(\.route.path)
                let lasts = drawn.manifest.last(paths)
                for (index, (route, number)) in chunkRoutes.enumerated() {
                    let (path, (position, last)) = (paths[index], lasts[index])
                    let photo = routes.photo(at: chunk.lowerBound + index)
                    // No change since the last build can touch it: its key is not even made.
                    if number == 0, !listedSite.mayDiffer(route, photo: photo, changes), var last, last.isPage, output.reuse(path, noting: false) {
                        last.changed = last.changed ?? now
                        pages.append(Drawn(path: path, position: position, entry: last, lookedAt: false, rendered: false, written: false))
                        continue
                    }
                    let builder = builders[number]
                    guard let key = builder.key(route, photo: photo) else {
                        throw FolioError(path: route.path, reason: "the site lists this page, but nothing draws it")
                    }
                    let input = PageManifest.input(key: key, drawing: drawing)
                    if var last, last.input == input, output.reuse(path, noting: false) {
                        last.changed = last.changed ?? now
                        pages.append(Drawn(path: path, position: position, entry: last, lookedAt: true, rendered: false, written: false))
                        continue
                    }
                    guard let page = builder.page(route, photo: photo) else {
                        throw FolioError(path: route.path, reason: "the site lists this page, but nothing draws it")
                    }
                    var html = Data(try renderer.render(page).utf8)
                    if let seal = values.seals.first(where: { page.path.hasPrefix($0.key) })?.value {
                        html = try Self.sealed(page, html: html, with: seal, renderer: renderer, media: output.next)
                    }
                    var entry = PageManifest.Entry(checksum: ContentHash.hash(html), input: input, changed: now)
                    let same = last?.checksum == entry.checksum && output.reuse(page.path, noting: false)
                    if same { entry.changed = last?.changed ?? now }
                    if !same { try output.write(html, to: page.path, noting: false) }
                    pages.append(Drawn(path: page.path, position: page.path == path ? position : nil, entry: entry, lookedAt: true, rendered: true, written: !same))
                }
                drawn.add(pages)
                return nil
            } catch let error as FolioError {
                return error
            } catch let failure as DiskFailure {
                return failure
            } catch {
                return FolioError(reason: "\(error)")
            }
        }
        // The search index, made beside the pages, is done (and done writing) before the step ends.
        let search = await values.search?.result
        if let failure = results.lazy.compactMap({ $0 }).first { throw failure }
        try search?.get().forEach { drawn.manifest.set($0, $1) }
        var rendered = drawn.finish()
        let address = SiteAddress(site.settings.baseURL)
        // A sitemap only for a site that says where it lives, each of its files written as it
        // is made from the pages in the manifest; these files' entries are set once all are
        // made, as the manifest is not changed while it is read.
        var written: [(path: String, entry: PageManifest.Entry)] = []
        try Sitemap.write(pages: { each in
            try rendered.manifest.forEach { path, entry in
                if entry.isPage && !path.hasPrefix(UnlistedAlbum.top) { try each(path, entry.changed ?? now) }
            }
        }, address: address) { file in
            written.append((file.path, try Self.write(file.data, to: file.path, last: rendered.manifest.last(file.path),
                                                      output: output, now: now)))
        }
        for file in values.files + [Sitemap.robots(address: address)] {
            written.append((file.path, try Self.write(file.data, to: file.path, last: rendered.manifest.last(file.path),
                                                      output: output, now: now)))
        }
        for (path, entry) in written { rendered.manifest.set(path, entry) }
        rendered.manifest.finish()
        let made = rendered.manifest
        output.vouch { made.has($0) }
        return rendered
    }

    /// Writes a file made whole (the search index's files, the feed, the sitemap) unless its
    /// bytes are the last build's: that one is taken over, same file, same modification time, as
    /// an unchanged page is.
    static func write(_ data: Data, to path: String, last: PageManifest.Entry?, output: PublicOutput, now: Date) throws -> PageManifest.Entry {
        var entry = PageManifest.Entry(checksum: ContentHash.hash(data), input: PageManifest.wholeFile, changed: now)
        if let last, last.checksum == entry.checksum, !last.isPage, output.reuse(path) {
            entry.changed = last.changed ?? now
        } else {
            try output.write(data, to: path)
        }
        return entry
    }

    /// A protected page as published: the page drawn as usual, its images put inside it (one of
    /// each: `srcset` dropped), then encrypted whole into the theme's "locked" page, which asks
    /// for the password and opens it in the browser.
    static func sealed(_ page: any SitePage, html: Data, with seal: AlbumSeal, renderer: PageRenderer, media: URL) throws -> Data {
        var text = String(decoding: html, as: UTF8.self)
        text = text.replacingOccurrences(of: #"\s(srcset|sizes)="[^"]*""#, with: "", options: .regularExpression)
        var inlined = ""
        var rest = Substring(text)
        // Every attribute that names a published image (="../../media/<name>"), as a data: address.
        // Only attribute values: a title that says "media/…" is escaped text, and stays as it is.
        while let range = rest.range(of: #"="(\.\./)*media/[A-Za-z0-9._-]+""#, options: .regularExpression) {
            inlined += rest[..<range.lowerBound]
            let reference = rest[range].dropFirst(2).dropLast()
            let name = String(reference.split(separator: "/").last ?? "")
            if let data = try? Data(contentsOf: media.appendingPathComponent("media/\(name)")) {
                inlined += "=\"data:\(ContentType.of(name));base64,\(data.base64EncodedString())\""
            } else {
                inlined += rest[range]
            }
            rest = rest[range.upperBound...]
        }
        inlined += rest
        var frame = PageFrame(path: page.path, section: page.frame.section, title: renderer.language.say(.lockedTitle))
        frame.noindex = true
        frame.lock = seal.lock
        let shell = LockedPage(frame: frame, sealed: SealedPage(
            payload: try seal.cipher.seal(Data(inlined.utf8)).base64EncodedString(),
            salt: Data(seal.cipher.salt).base64EncodedString(), iterations: AlbumCipher.iterations))
        return Data(try renderer.render(shell).utf8)
    }
}

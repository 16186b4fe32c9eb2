import Foundation

/// Writes the pages and the theme's assets, then puts the new site in place of the old one. A
/// page whose values and drawing are as last time is taken over without rendering; one that
/// renders the same as last time is taken over unwritten.
struct WriteStep: BuildStep {
    let name = "write public/"

    func run(_ context: BuildContext) async throws {
        guard !context.upToDate else { return }
        let output = context.output!
        let renderer = PageRenderer(theme: context.theme, settings: context.settings)
        let pages = context.pages
        let previous = PageManifest.read(from: context.paths.output)
        let drawing = BuildStamp.drawing(theme: context.theme, settings: context.settings)
        let progress = ProgressLine("pages", total: pages.count, enabled: context.options.progress)
        let chunkSize = 64
        let chunks = pages.chunked(chunkSize).map(Array.init)
        let results = await boundedMap(chunks, width: context.concurrency, onEach: { done in
            progress.update(min(done * chunkSize, pages.count))
        }) { chunk -> Result<[(path: String, entry: PageManifest.Entry, rendered: Bool, written: Bool)], FolioError> in
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                var written: [(path: String, entry: PageManifest.Entry, rendered: Bool, written: Bool)] = []
                for page in chunk {
                    let input = try PageManifest.input(of: page, drawing: drawing, encoder: encoder)
                    let last = previous.entries[page.path]
                    if let last, last.input == input, output.reuse(page.path) {
                        written.append((page.path, last, false, false))
                        continue
                    }
                    let html = Data(try renderer.render(page).utf8)
                    let entry = PageManifest.Entry(checksum: ContentHash.hex(html), input: input)
                    let same = last?.checksum == entry.checksum && output.reuse(page.path)
                    if !same { try output.write(html, to: page.path) }
                    written.append((page.path, entry, true, !same))
                }
                return .success(written)
            } catch let error as FolioError {
                return .failure(error)
            } catch {
                return .failure(FolioError(reason: "\(error)"))
            }
        }
        var manifest = PageManifest()
        for result in results {
            for page in try result.get() {
                manifest.entries[page.path] = page.entry
                if page.rendered { context.report.pagesRendered += 1 }
                if page.written { context.report.pagesWritten += 1 }
            }
        }
        try output.copyAssets(from: context.theme.assetFolders)
        try output.write(manifest.encoded(), to: PageManifest.fileName)
        // A build with errors leaves no stamp, so the next one tries the failed photos again.
        if context.issues.allSatisfy({ $0.severity == .warning }) {
            // Made now, not at planning: storing new thumbnails changed the model's generation.
            let fingerprint = BuildStamp.fingerprint(generation: try context.database.generation(), theme: context.theme,
                                                     settings: context.settings)
            let stamp = BuildStamp(fingerprint: fingerprint, builtAt: context.now,
                                   photos: context.snapshot.photos.count, pages: pages.count)
            try output.write(stamp.encoded(), to: BuildStamp.fileName)
        }
        try output.commit(keepingMedia: Self.mediaInUse(context.images))
    }

    /// Every media file and tile folder the site's pages refer to.
    static func mediaInUse(_ images: [Int64: PhotoImages]) -> Set<String> {
        var media = Set<String>()
        for entry in images.values {
            for ref in [entry.thumb, entry.screen].compactMap({ $0 }) {
                media.insert(ref.src)
                media.formUnion(ref.candidates.map(\.src))
                media.formUnion(ref.picture?.candidates.map(\.src) ?? [])
            }
            if let zoom = entry.zoom { media.insert(zoom.tilesBase) }
        }
        return media
    }
}

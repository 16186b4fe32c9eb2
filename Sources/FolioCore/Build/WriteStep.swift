import Foundation

/// Writes the pages (leaving those that came out the same untouched) and the theme's assets,
/// then puts the new site in place of the old one.
struct WriteStep: BuildStep {
    let name = "write public/"

    func run(_ context: BuildContext) async throws {
        guard !context.upToDate else { return }
        let output = context.output!
        let renderer = PageRenderer(theme: context.theme, settings: context.settings)
        let pages = context.pages
        let previous = PageManifest.read(from: context.paths.output)
        let progress = ProgressLine("pages", total: pages.count, enabled: context.options.progress)
        let chunkSize = 64
        let chunks = pages.chunked(chunkSize).map(Array.init)
        let results = await boundedMap(chunks, width: context.concurrency, onEach: { done in
            progress.update(min(done * chunkSize, pages.count))
        }) { chunk -> Result<[(String, String, Bool)], FolioError> in
            do {
                var written: [(String, String, Bool)] = []
                for page in chunk {
                    let html = Data(try renderer.render(page).utf8)
                    let checksum = ContentHash.hex(html)
                    let same = previous.checksums[page.path] == checksum && output.reuse(page.path)
                    if !same { try output.write(html, to: page.path) }
                    written.append((page.path, checksum, !same))
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
            for (path, checksum, wasWritten) in try result.get() {
                manifest.checksums[path] = checksum
                if wasWritten { context.report.pagesWritten += 1 }
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

import Foundation

/// Brings the model in line with `content/`: new and edited photos are read (checksum, size,
/// EXIF) and upserted, photos whose files are gone are removed, unchanged ones cost nothing.
struct ImportStep: BuildStep {
    let name = "import"

    /// The fingerprint of a photo no catalog lists: only its file says anything about it.
    static let uncataloguedFingerprint = "uncatalogued"

    func run(_ context: BuildContext) async throws {
        let database = context.database!
        let stamps = try database.stamps(sourcePrefix: "content:")
        var changed: [(ContentEntry, PhotoStamp?)] = []
        for entry in context.inventory.entries {
            let old = stamps[entry.source]
            if let old, old.fileStamp == entry.stamp.text, old.fingerprint == Self.fingerprint(entry) { continue }
            changed.append((entry, old))
        }

        let contentRoot = context.paths.content
        let processor = context.processor
        let progress = ProgressLine("reading", total: changed.count, enabled: context.options.progress)
        let results = await boundedMap(changed, width: context.concurrency, onEach: { progress.update($0) }) { entry, old in
            Self.read(entry, old: old, contentRoot: contentRoot, processor: processor)
        }

        var batch = ImportBatch()
        var failed = Set<String>()
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let photo): batch.upserts.append(photo)
            case .failure(let issue):
                context.issues.append(issue)
                failed.insert(changed[index].0.source)
            }
        }
        // A photo whose file went bad leaves the model too, so the site never shows a photo it
        // cannot draw; the next build tries it again.
        let listed = Set(context.inventory.entries.map(\.source))
        batch.removals = stamps.keys.filter { !listed.contains($0) || failed.contains($0) }.sorted()
        try database.apply(batch)
        context.report.imported = batch.upserts.count
        context.report.removed = batch.removals.filter { !listed.contains($0) }.count
    }

    static func fingerprint(_ entry: ContentEntry) -> String {
        entry.record.map { ContentHash.hex($0.fingerprintText) } ?? uncataloguedFingerprint
    }

    /// Reads one photo's file; the checksum is reused when the file itself is untouched.
    static func read(_ entry: ContentEntry, old: PhotoStamp?, contentRoot: URL, processor: ImageProcessor) -> Result<PhotoImport, BuildIssue> {
        let shown = entry.record.map { "\($0.location) (\(entry.path))" } ?? "content/\(entry.path)"
        let data: Data
        let metadata: ImageMetadata
        do {
            data = try LocalFileAccess().read(contentRoot.appendingPathComponent(entry.path))
            metadata = try processor.metadata(of: data)
        } catch let error as ImagingError {
            return .failure(.error(shown, error.reason))
        } catch {
            return .failure(.error(shown, "cannot be read: \(error.localizedDescription)"))
        }
        let sameFile = old?.fileStamp == entry.stamp.text
        let checksum = sameFile ? old!.checksum : ContentHash.hex(data)
        let record = entry.record
        let stem = ((entry.path as NSString).lastPathComponent as NSString).deletingPathExtension
        return .success(PhotoImport(
            source: entry.source,
            identifier: old?.identifier ?? "p" + ContentHash.hex(entry.source).prefix(12),
            title: record == nil ? stem.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ") : record?.name,
            description: record?.description,
            person: record?.user ?? metadata.artist ?? "Unknown",
            place: record?.place ?? record?.region,
            region: record?.region,
            taken: record?.taken ?? metadata.taken,
            uploaded: record?.uploaded ?? entry.stamp.modified,
            width: metadata.width, height: metadata.height,
            favorite: record?.favorite ?? false,
            checksum: checksum, fileStamp: entry.stamp.text, fingerprint: fingerprint(entry),
            format: metadata.format.rawValue, orientation: metadata.orientation,
            camera: metadata.camera, exposure: metadata.exposure,
            latitude: record?.latitude ?? metadata.latitude, longitude: record?.longitude ?? metadata.longitude,
            tags: record?.tags ?? []))
    }
}

extension BuildContext {
    var concurrency: Int { max(1, options.concurrency ?? ProcessInfo.processInfo.activeProcessorCount) }
}

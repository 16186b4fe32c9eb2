import Foundation

/// What the import did to the model.
struct ImportResult: StepOutput {
    var imported = 0
    var removed = 0
    /// Photos whose file could not be read this time, and why. Those already in the model keep
    /// their row and everything set on it; this build leaves them out, the next one reads them
    /// again.
    var failed: [PhotoSource: String] = [:]
    var issues: [BuildIssue] = []
}

/// Brings the model in line with `content/`: new and edited photos are read (checksum, size,
/// EXIF) and upserted, photos whose files are gone are removed, unchanged ones cost nothing.
struct ImportStep: BuildStep {
    static let name = "import"

    /// The fingerprint of a photo no catalog lists: only its file says anything about it.
    static let uncataloguedFingerprint = "uncatalogued"

    func run(_ input: (site: ConfiguredSite, inventory: ContentInventory), in run: BuildRun) async throws -> ImportResult {
        let (site, inventory) = input
        let database = site.database
        let stamps = try database.stamps(of: .content)
        var changed: [(ContentEntry, PhotoStamp?)] = []
        for entry in inventory.entries {
            let old = stamps[entry.source]
            if let old, old.fileStamp == entry.stamp.text, old.fingerprint == Self.fingerprint(entry) { continue }
            changed.append((entry, old))
        }

        let contentRoot = site.paths.content
        let processor = site.processor
        let files = run.files
        let progress = run.progress("reading", total: changed.count)
        let results = await boundedMap(changed, width: run.concurrency, onEach: { progress.update($0) }) { entry, old in
            Self.read(entry, old: old, contentRoot: contentRoot, processor: processor, files: files)
        }

        var result = ImportResult()
        var batch = ImportBatch()
        for ((entry, _), read) in zip(changed, results) {
            switch read {
            case .success(let photo): batch.upserts.append(photo)
            case .failure(let issue):
                result.issues.append(issue)
                result.failed[entry.source] = issue.reason
            }
        }
        Self.placeByPosition(&batch.upserts, gazetteer: site.paths.gazetteer)
        let listed = Set(inventory.entries.map(\.source))
        batch.removals = stamps.keys.filter { !listed.contains($0) }.sorted()
        try database.apply(batch)
        try database.recordFailures(result.failed.filter { stamps[$0.key] != nil }, published: [])
        result.imported = batch.upserts.count
        result.removed = batch.removals.count
        return result
    }

    /// Photos with coordinates and no place from anyone get the place the gazetteer finds there;
    /// its index is loaded only when some photo needs it.
    static func placeByPosition(_ photos: inout [PhotoImport], gazetteer: URL) {
        let waiting = photos.indices.filter { photos[$0].place == nil && photos[$0].latitude != nil && photos[$0].longitude != nil }
        guard !waiting.isEmpty else { return }
        let finder = PlaceFinder.load(cache: gazetteer)
        for index in waiting {
            guard let latitude = photos[index].latitude, let longitude = photos[index].longitude,
                  let found = finder.place(latitude: latitude, longitude: longitude) else { continue }
            photos[index].place = found.place
            photos[index].region = found.region
        }
    }

    static func fingerprint(_ entry: ContentEntry) -> String {
        entry.record.map { ContentHash.hex($0.fingerprintText) } ?? uncataloguedFingerprint
    }

    /// Reads one photo's file; the checksum is reused when the file itself is untouched.
    static func read(_ entry: ContentEntry, old: PhotoStamp?, contentRoot: URL, processor: ImageProcessor,
                     files: any FileAccess) -> Result<PhotoImport, BuildIssue> {
        let shown = entry.record.map { "\($0.location) (\(entry.path))" } ?? "content/\(entry.path)"
        let data: Data
        let metadata: ImageMetadata
        do {
            data = try files.read(contentRoot.appendingPathComponent(entry.path))
            metadata = try processor.metadata(of: data)
        } catch let error as ImagingError {
            return .failure(.error(shown, error.reason))
        } catch {
            return .failure(.error(shown, "cannot be read: \(error.localizedDescription)"))
        }
        let sameFile = old?.fileStamp == entry.stamp.text
        let checksum = old.flatMap { sameFile ? $0.checksum : nil } ?? ContentHash.hex(data)
        let record = entry.record
        let stem = ((entry.path as NSString).lastPathComponent as NSString).deletingPathExtension
        return .success(PhotoImport(
            source: entry.source,
            identifier: old?.identifier ?? "p" + ContentHash.hex(entry.source.text).prefix(12),
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

import FolioContent
import FolioCore
import FolioImaging
import FolioMetadata
import FolioModel
import Foundation

/// How the import reads one photo: its file, its sidecars, its record, merged in their order.
extension ImportStep {
    /// Reads one photo's file (and sidecar); the checksum is reused when the file itself is
    /// untouched. What describes it comes, first found first taken, from the catalog record, the
    /// XMP sidecar, the file's XMP, its IPTC, its EXIF, the place its GPS falls in (later, for the
    /// whole batch: `placeByPosition`), and its file name. The date and the position come from the
    /// XMP sidecar before the file's EXIF, from Google Takeout's JSON after it; Takeout's words come
    /// before the XMP's (written later, in Google Photos). docs/content.md has the table.
    static func read(_ entry: ContentEntry, old: KnownPhoto?, contentRoot: URL, processor: ImageProcessor,
                     files: any FileAccess, favorites: FavoriteRule, sourceDateEpoch: Date? = nil) -> Result<(photo: PhotoImport, issues: [BuildIssue]), BuildIssue> {
        let shown = entry.record.map { "\($0.location) (\(entry.path))" } ?? "content/\(entry.path)"
        let sameFile = old?.fileStamp == entry.stamp.text
        var metadata: ImageMetadata
        var issues: [BuildIssue] = []
        var described: PhotoDescription
        var checksum: String
        var motion: PhotoMotion?
        do {
            if ContentPath.isVideo(entry.path) {
                let video = try Self.readVideo(contentRoot.appendingPathComponent(entry.path), old: sameFile ? old?.checksum : nil,
                                               pixelLimit: processor.pixelLimit)
                (metadata, checksum, described) = (video.metadata, video.checksum, video.described)
                motion = PhotoMotion(kind: .video, duration: video.duration)
            } else {
                let data = try files.read(contentRoot.appendingPathComponent(entry.path))
                metadata = try processor.metadata(of: data)
                // The last import's checksum only for a photo no sidecar can have turned: a turned
                // photo's is its turn's, not its file's.
                checksum = old.flatMap { sameFile && entry.sidecar == nil ? $0.checksum : nil } ?? ContentHash.hex(data)
                if let problem = metadata.colourProblem { issues.append(.warning("content/\(entry.path)", problem)) }
                let problem: String?
                (described, problem) = EmbeddedDescription.read(data, format: metadata.format)
                if let problem { issues.append(.warning("content/\(entry.path)", problem)) }
            }
        } catch let error as ImagingError {
            return .failure(.error(shown, error.reason))
        } catch {
            return .failure(.error(shown, "cannot be read: \(error.localizedDescription)"))
        }
        if let clip = entry.clip {
            // A Live Photo's clip that will not read leaves a still photo, said so.
            do {
                let video = try Self.readVideo(contentRoot.appendingPathComponent(clip.path), old: nil, pixelLimit: processor.pixelLimit)
                motion = PhotoMotion(kind: .live, duration: video.duration, clip: clip.path, clipChecksum: video.checksum)
            } catch {
                let reason = (error as? ImagingError)?.reason ?? "cannot be read: \(error.localizedDescription)"
                issues.append(.warning("content/\(clip.path)", "\(reason); the Live Photo is published as a still"))
            }
        }
        // A sidecar's date and place are its tool's (a photographer's correction); the file's
        // own XMP repeats its EXIF's, which is read instead.
        var fromSidecar: PhotoDescription?
        if let sidecar = entry.sidecar {
            let read: Result<PhotoDescription, XMPReader.Failure>
            if sidecar.stamp.size > ReadingLimits.xmpBytes {
                read = .failure(.tooLarge(sidecar.stamp.size))  // not read into memory to be refused
            } else {
                read = Result { try files.read(contentRoot.appendingPathComponent(sidecar.path)) }
                    .mapError { XMPReader.Failure.malformed($0.localizedDescription) }
                    .flatMap(XMPReader.read)
            }
            switch read {
            case .success(let found):
                described = found.filling(from: described)
                fromSidecar = found
            case .failure(let failure): issues.append(.warning("content/\(sidecar.path)", "\(failure.reason); ignored"))
            }
        }
        var sigal: SigalMarkdown?
        if let markdown = entry.markdown {
            let problem: String?
            (sigal, problem) = SigalMarkdown.read(contentRoot.appendingPathComponent(markdown.path), size: markdown.stamp.size, files: files)
            if let problem { issues.append(.warning("content/\(markdown.path)", problem)) }
        }
        var takeout: TakeoutSidecar?
        if let sidecar = entry.takeout {
            let problems: [String]
            (takeout, problems) = readTakeout(sidecar, contentRoot: contentRoot, files: files)
            issues += problems.map { .warning("content/\(sidecar.path)", $0) }
        }
        // A sidecar's turn is the photographer's (Lightroom and digiKam turn a RAW there, leaving
        // the file as it is): it wins over the file's own. A video is not turned by one.
        // Its renditions are another picture's than the file's, and are named so (by the checksum).
        if let turn = fromSidecar?.orientation, motion?.kind != .video, turn != metadata.orientation {
            metadata = metadata.turned(turn)
            checksum = ContentHash.hex("\(checksum) turned \(turn)")
        }
        let record = entry.record
        let place = record?.place ?? record?.region ?? described.place
        let rated = described.isFavorite(by: favorites)
        // sigal's .md is the gallery's own words, as a catalog's are: over any XMP, under the catalog.
        let markdownBody = record?.description == nil ? sigal?.body : nil
        var row = Photo(identifier: old?.identifier ?? "p" + ContentHash.hex(entry.source.text).prefix(12), source: entry.source,
                        uploaded: uploaded(entry, sourceDateEpoch: sourceDateEpoch), checksum: checksum)
        row.title = record?.name ?? sigal?.title ?? described.shownTitle ?? (record == nil ? Self.title(fromFileName: entry.path) : nil)
        row.description = record?.description ?? markdownBody?.text ?? takeout?.description ?? described.description
        row.descriptionHTML = markdownBody?.html
        row.taken = record?.taken ?? fromSidecar?.taken ?? metadata.taken ?? takeout?.taken
        (row.width, row.height) = (metadata.width, metadata.height)
        row.favorite = (record?.favorite ?? false) || rated || takeout?.favorite == true
        (row.format, row.orientation, row.colour) = (metadata.format, metadata.orientation, metadata.colour)
        (row.transparent, row.animated) = (metadata.transparent, metadata.animated)
        row.motion = motion
        (row.camera, row.exposure) = (metadata.camera, metadata.exposure)
        row.lens = described.lens ?? metadata.lens
        row.latitude = record?.latitude ?? metadata.latitude
        row.longitude = record?.longitude ?? metadata.longitude
        if record?.latitude == nil, record?.longitude == nil, let latitude = fromSidecar?.latitude, let longitude = fromSidecar?.longitude {
            (row.latitude, row.longitude) = (latitude, longitude)
        }
        if row.latitude == nil, row.longitude == nil, let latitude = takeout?.latitude, let longitude = takeout?.longitude {
            (row.latitude, row.longitude) = (latitude, longitude)
        }
        row.alsoListedIn = entry.alsoListedIn
        row.pictured = takeout.map { $0.people.isEmpty ? described.people : $0.people } ?? described.people
        row.tags = record.map { $0.tags.isEmpty ? described.keywords : $0.tags } ?? described.keywords
        var photo = PhotoImport(row, person: record?.user ?? described.creator ?? metadata.artist ?? Person.unknownName, place: place,
                                region: record?.place != nil || record?.region != nil ? record?.region : described.region)
        photo.fileStamp = entry.stamp.text
        photo.fingerprint = fingerprint(entry, favorites: favorites, sourceDateEpoch: sourceDateEpoch)
        return .success((photo, issues))
    }

    /// What Google Takeout's sidecar says of a photo, and what was wrong in it; nil when it will
    /// not read at all.
    private static func readTakeout(_ sidecar: Sidecar, contentRoot: URL, files: any FileAccess) -> (TakeoutSidecar?, [String]) {
        // Not read into memory to be refused.
        guard sidecar.stamp.size <= ReadingLimits.takeoutBytes else {
            return (nil, ["is larger than the \(ReadingLimits.megabytes(ReadingLimits.takeoutBytes)) Folio reads of a sidecar; ignored"])
        }
        do {
            let (read, problems) = TakeoutSidecar.read(try files.read(contentRoot.appendingPathComponent(sidecar.path)))
            return (read, read == nil ? problems.map { "\($0); ignored" } : problems)
        } catch {
            return (nil, ["cannot be read: \(error.localizedDescription); ignored"])
        }
    }

    /// "_MG_7805.JPG" → "MG 7805", "harbour-at_dawn .png" → "harbour at dawn": no extension, no
    /// underscores or dashes, no spaces at either end or twice in a row.
    static func title(fromFileName path: String) -> String? {
        let stem = RelativePath(path).stem
        let words = stem.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")
            .split(whereSeparator: \.isWhitespace)
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}

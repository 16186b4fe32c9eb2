import FolioContent
import FolioCore
import FolioFlickr
import FolioImaging
import FolioMetadata
import FolioModel
import FolioNetwork
import FolioPipeline
import FolioPreview
import FolioVideo
import Foundation

/// What the fuzzers throw their inputs at, through Folio's public doors: a catalog, a JPEG's
/// EXIF, an image file, a preview request's head, a Flickr answer, the names of a content
/// folder, a video's container, a sigal description, a site's settings, a Google Takeout JSON,
/// a camera's RAW, a Takeout archive. The libFuzzer binary
/// (`Fuzz/`) and `FuzzRegressionTests` both call `run`; finding no crash, hang or leak is the point.
public enum FuzzTarget: String, CaseIterable, Sendable {
    case catalog, exif, image, request, flickr, metadata, paths, video, markdown, settings, takeout, raw, archive

    /// Runs every target once, so the globals Folio makes lazily (decoders' tables, formatters)
    /// exist before the fuzzer starts counting allocations: made during the first input, they
    /// would look like that input's leak.
    public static func warmUp() {
        _ = tinyJPEG
        for target in allCases { target.run(Data("warm up".utf8)) }
        image(tinyJPEG)
        exif(Data("MM\0*\0\0\0\u{8}\0\0".utf8))
    }

    public func run(_ data: Data) {
        switch self {
        case .catalog: Self.catalog(data)
        case .exif: Self.exif(data)
        case .image: Self.image(data)
        case .request: Self.request(data)
        case .flickr: Self.flickr(data)
        case .metadata: Self.metadata(data)
        case .paths: Self.paths(data)
        case .video: Self.video(data)
        case .markdown: Self.markdown(data)
        case .settings: Self.settings(data)
        case .takeout: Self.takeout(data)
        case .raw: Self.raw(data)
        case .archive: Self.archive(data)
        }
    }

    /// The input as a camera's RAW: its facts, a thumbnail (from its preview, when it has one that
    /// covers it) and its development, through LibRaw.
    static func raw(_ data: Data) {
        let processor = ImageProcessor(pixelLimit: 2_000_000, fullDecodePixelLimit: 2_000_000)
        guard let metadata = try? processor.metadata(of: data) else { return }
        let thumb = RenditionRequest(name: "t", width: 32, height: 32, fit: .squareCrop, format: .jpeg, quality: 70)
        _ = try? processor.renditions(of: data, metadata: metadata, requests: [thumb])
        _ = try? processor.pixels(of: data)
    }

    /// The input as a part of a Google Takeout export, unpacked into a content folder of its own.
    static func archive(_ data: Data) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-fuzz-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let part = folder.appendingPathComponent("takeout-001.zip"), content = folder.appendingPathComponent("content")
        guard (try? FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)) != nil,
              (try? data.write(to: part)) != nil else { return }
        _ = TakeoutArchives(contentRoot: content).unpack([part])
    }

    /// The input as sigal's description of an album (`index.md`, read with its folder) and of a photo.
    static func markdown(_ data: Data) {
        let files = MemoryFiles(["trip/index.md": data, "trip/a.jpg": Data([0xFF, 0xD8, 0xFF, 0xD9])])
        _ = try? ContentLoader(contentRoot: MemoryFiles.root, files: files).load()
        _ = SigalMarkdown(String(decoding: data, as: UTF8.self))
    }

    /// The input as Google Takeout's JSON: a photo's sidecar, read as the import reads it, and an
    /// album's `metadata.json`, beside photos whose names it may give.
    static func takeout(_ data: Data) {
        _ = TakeoutSidecar.read(data)
        let files = MemoryFiles(["trip/metadata.json": data, "trip/a.jpg.json": data, "trip/a.jpg": Data([0xFF, 0xD8, 0xFF, 0xD9])])
        _ = try? ContentLoader(contentRoot: MemoryFiles.root, files: files).load()
    }

    /// The input as a site's `folio.json`.
    static func settings(_ data: Data) {
        _ = try? SiteSettings.load(from: MemoryFiles.root.appendingPathComponent("folio.json"), files: MemoryFiles(["folio.json": data]))
    }

    /// The input as `content/c.plist`, beside one photo it may name.
    static func catalog(_ data: Data) {
        let files = MemoryFiles(["c.plist": data, "a.jpg": Data([0xFF, 0xD8, 0xFF, 0xD9])])
        _ = try? ContentLoader(contentRoot: MemoryFiles.root, files: files).load()
    }

    /// The input as the EXIF block of a small JPEG's APP1 segment.
    static func exif(_ data: Data) {
        let block = Data("Exif\0\0".utf8) + data.prefix(65_000)
        let length = block.count + 2
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)]) + block + tinyJPEG.dropFirst(2)
        _ = try? ImageProcessor(pixelLimit: 1_000_000).metadata(of: jpeg)
    }

    /// The input as a video file: its container read (libavformat over Folio's own reader), its
    /// poster decoded when its frames are small, and its tags' ISO 6709 reading of the input as text.
    static func video(_ data: Data) {
        _ = ISO6709.coordinates(String(decoding: data.prefix(64), as: UTF8.self))
        guard let video = try? VideoFile(data: data, pixelLimit: 250_000) else { return }
        _ = video.playsOnTheWeb(maxHeight: 1080)
        _ = try? video.poster()
    }

    /// The input as an image file: its header read, then renditions made when it is small, and
    /// the animation published when it moves.
    package static func image(_ data: Data) {
        let processor = ImageProcessor(pixelLimit: 250_000, fullDecodePixelLimit: 250_000)
        guard let metadata = try? processor.metadata(of: data) else { return }
        let thumb = RenditionRequest(name: "t", width: 32, height: 32, fit: .squareCrop, format: .jpeg, quality: 70)
        _ = try? processor.renditions(of: data, metadata: metadata, requests: [thumb])
        _ = try? processor.animation(of: data, metadata: metadata)
    }

    /// The input as the bytes a preview connection receives, in pieces.
    static func request(_ data: Data) {
        var reader = RequestHeadReader()
        var buffer: [UInt8] = []
        for piece in Array(data).chunked(into: 7) {
            buffer += piece
            if case .head(_, let length) = reader.read(buffer) { buffer.removeFirst(length) }
        }
    }

    /// The input as Flickr's answer to a search (and to every place lookup), imported into a model.
    static func flickr(_ data: Data) {
        guard let database = try? GalleryDatabase.inMemory() else { return }
        let client = FlickrClient(endpoint: URL(string: "http://127.0.0.1:9/")!, apiKey: "k", web: Canned(body: data),
                                  retry: RetryPolicy(attempts: 1, sleep: { _ in }))
        let semaphore = DispatchSemaphore(value: 0)
        Task {
            _ = try? await FlickrImport(client: client, database: database).run(.init(pages: 2, perPage: 10))
            semaphore.signal()
        }
        semaphore.wait()
    }

    /// The input as an XMP packet (a sidecar), and as the IPTC-IIM of a JPEG's APP13 segment.
    static func metadata(_ data: Data) {
        _ = XMPReader.read(data)
        let iim = data.prefix(60_000)
        var resource = Data("Photoshop 3.0\0".utf8) + Data("8BIM".utf8) + Data([0x04, 0x04, 0, 0])
        resource += Data([UInt8(iim.count >> 24 & 0xFF), UInt8(iim.count >> 16 & 0xFF), UInt8(iim.count >> 8 & 0xFF), UInt8(iim.count & 0xFF)]) + iim
        let length = resource.count + 2
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xED, UInt8(length >> 8), UInt8(length & 0xFF)]) + resource + tinyJPEG.dropFirst(2)
        _ = EmbeddedDescription.read(jpeg, format: .jpeg)
    }

    /// The input as the names of a content folder (paths split at NUL bytes, at most 24), each a
    /// photo, with a catalog at the top naming each as written; the site built whole, content in
    /// memory and theme and output on disk. A folder called "A" took the whole build down once.
    static func paths(_ data: Data) {
        let written = data.split(separator: 0, omittingEmptySubsequences: true).prefix(24).map { String(decoding: $0, as: UTF8.self) }
        var files: [String: Data] = [:]
        let photo = tinyJPEG
        for raw in written {
            guard let path = RelativePath.root.resolving(raw), !path.isHidden else { continue }
            files[path.text] = photo
        }
        let records = written.enumerated().map { ["path": $1, "name": "Photo \($0)"] }
        files["c.plist"] = try? PropertyListSerialization.data(fromPropertyList: records, format: .binary, options: 0)
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("folio-fuzz-paths-\(getpid())")
        try? FileManager.default.removeItem(at: site)
        try? FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: site) }
        let content = OverlaidContent(root: site.appendingPathComponent("content"), files: files)
        let build = SiteBuild(paths: SitePaths(root: site), options: BuildOptions(concurrency: 1, files: content))
        let semaphore = DispatchSemaphore(value: 0)
        Task {
            _ = try? await build.run()
            semaphore.signal()
        }
        semaphore.wait()
    }

    /// Every request answered with the same body.
    struct Canned: WebClient {
        var body: Data
        func send(_ request: WebRequest) async throws -> WebResponse { WebResponse(status: 200, body: body) }
    }

    /// A 1x1 JPEG to carry an EXIF block. Made anew each time: a global's bytes, held in a way
    /// LeakSanitizer cannot see, would be reported as a leak.
    static var tinyJPEG: Data {
        (try? ImageProcessor().encode(PixelBuffer(width: 1, height: 1, words: [0x808080]), as: .jpeg, quality: 80)) ?? Data()
    }
}

/// A content folder in memory.
struct MemoryFiles: FileAccess {
    static let root = URL(fileURLWithPath: "/fuzz/content")
    let files: [String: Data]

    init(_ files: [String: Data]) { self.files = files }

    func read(_ url: URL) throws -> Data {
        guard let data = files[relative(url)] else { throw CocoaError(.fileNoSuchFile) }
        return data
    }

    package func stamp(of url: URL) -> FileStamp? {
        files[relative(url)].map { FileStamp(size: $0.count, modified: Date(timeIntervalSince1970: 0)) }
    }

    func isFolder(_ url: URL) -> Bool { url.standardizedFileURL == Self.root }

    func entries(under root: URL) throws -> [FileEntry] {
        files.keys.sorted().map { FileEntry(path: $0, isLink: false) }
    }

    func realPath(_ url: URL) -> String { url.standardizedFileURL.path }

    private func relative(_ url: URL) -> String {
        url.standardizedFileURL.path.pathRelative(to: Self.root.path) ?? ""
    }
}

/// A site whose `content/` is in memory, under any names at all (none is too long or too odd
/// for it); everything else (the theme, the output) on disk.
struct OverlaidContent: FileAccess {
    let root: URL
    let files: [String: Data]
    let disk = LocalFileAccess()

    init(root: URL, files: [String: Data]) {
        self.root = root.standardizedFileURL
        self.files = files
    }

    func read(_ url: URL) throws -> Data {
        guard let relative = relative(url) else { return try disk.read(url) }
        guard let data = files[relative] else { throw CocoaError(.fileNoSuchFile) }
        return data
    }

    package func stamp(of url: URL) -> FileStamp? {
        guard let relative = relative(url) else { return disk.stamp(of: url) }
        return files[relative].map { FileStamp(size: $0.count, modified: Date(timeIntervalSince1970: 0)) }
    }

    func isFolder(_ url: URL) -> Bool {
        guard let relative = relative(url) else { return url.standardizedFileURL == root || disk.isFolder(url) }
        return files.keys.contains { $0.hasPrefix(relative + "/") }
    }

    func entries(under folder: URL) throws -> [FileEntry] {
        guard folder.standardizedFileURL == root else { return try disk.entries(under: folder) }
        return files.keys.sorted().map { FileEntry(path: $0, isLink: false) }
    }

    func realPath(_ url: URL) -> String { relative(url) == nil ? disk.realPath(url) : url.standardizedFileURL.path }

    /// The path under content/, or nil for a file elsewhere.
    private func relative(_ url: URL) -> String? {
        guard let relative = url.standardizedFileURL.path.pathRelative(to: root.path), !relative.isEmpty else { return nil }
        return relative
    }
}

extension Array {
    func chunked(into size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}

import FolioCore
import Foundation

/// What the owner of `content/` said must not be published: `.nomedia` files, as sigal and
/// Android read them (an empty one leaves its folder out, and all under it; one that lists names,
/// one a line, leaves out those files and folders beside it), and the site's `exclude` patterns.
/// A file left out is not read, not in the model, and in no page, index, feed or count.
public struct ContentExclusions: Sendable {
    public static let markerName = FileEntry.nomedia
    private static let markerBytes = Array(markerName.utf8)

    public var patterns: [ExcludePattern]
    /// Each `.nomedia`'s folder, with the names it lists (nil: the whole folder).
    var markers: [(folder: RelativePath, names: Set<String>?)] = []

    public init(patterns: [ExcludePattern] = []) {
        self.patterns = patterns
    }

    /// Whether `path` is a `.nomedia` file, by its last name (bytes, and cheap: asked of every file).
    static func isMarker(_ path: String) -> Bool {
        var path = path
        return path.withUTF8(isMarker(bytes:))
    }

    static func isMarker(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let name = markerBytes
        guard bytes.count >= name.count, bytes.suffix(name.count).elementsEqual(name) else { return false }
        return bytes.count == name.count || bytes.dropLast(name.count).last == UInt8(ascii: "/")
    }

    /// Reads the `.nomedia` files among `paths` (relative to `contentRoot`).
    mutating func readMarkers(_ paths: [String], contentRoot: URL, files: any FileAccess) {
        for path in paths.map(RelativePath.init) where path.name == Self.markerName {
            let folder = path.parent ?? .root
            let text = (try? files.read(contentRoot.appendingPathComponent(path.text))).map { String(decoding: $0, as: UTF8.self) } ?? ""
            let names = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            markers.append((folder, names.isEmpty ? nil : Set(names)))
        }
    }

    /// What leaves `path` out ("content/a/.nomedia", "exclude '*.tmp.jpg'"), or nil when it is published.
    public func reason(for path: RelativePath) -> String? {
        for marker in markers where path.isInside(marker.folder) && path != marker.folder {
            let shown = "content/" + marker.folder.appending(Self.markerName).text
            guard let names = marker.names else { return shown }
            let below = path.components[marker.folder.components.count]
            if names.contains(below) { return shown }
        }
        if let pattern = patterns.first(where: { $0.matches(path) }) { return "exclude '\(pattern.text)'" }
        return nil
    }

    public var isEmpty: Bool { patterns.isEmpty && markers.isEmpty }
}

/// A file under `content/` that the owner left out, and what left it out.
public struct LeftOutFile: Sendable, Equatable, Codable {
    public var path: String
    public var reason: String

    /// "left out 3 files: 2 by content/private/.nomedia, 1 by exclude '*.tmp.jpg'"; nil when none.
    public static func line(_ files: [LeftOutFile]) -> String? {
        guard !files.isEmpty else { return nil }
        var counts: [String: Int] = [:]
        for file in files { counts[file.reason, default: 0] += 1 }
        let parts = counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.value) by \($0.key)" }
        return "left out \(Wording.count(files.count, "file")): \(parts.joined(separator: ", "))"
    }
}

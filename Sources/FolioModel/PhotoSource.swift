import FolioCore
import GRDB

/// Where a photo comes from: a file under `content/`, or a photo on Flickr. Stored as one text
/// column ("content:<path>", "flickr:<id>"), unique, so importing the same thing twice finds
/// the same row.
public enum PhotoSource: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// A file, by its path relative to `content/`.
    case content(path: String)
    /// A Flickr photo, by Flickr's id.
    case flickr(id: String)

    public enum Kind: String, Sendable, CaseIterable {
        case content, flickr
    }

    public var kind: Kind {
        switch self {
        case .content: return .content
        case .flickr: return .flickr
        }
    }

    /// The column's text.
    public var text: String {
        switch self {
        case .content(let path): return "content:\(path)"
        case .flickr(let id): return "flickr:\(id)"
        }
    }

    /// Reads the column's text; nil for a kind this Folio does not know.
    public init?(text: String) {
        // Split at the byte: as Characters, a path that begins with a combining mark fuses with
        // the colon before it ("content:\u{301}/a.jpg" has no ":" Character).
        guard let colon = text.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let value = String(decoding: text.utf8[text.utf8.index(after: colon)...], as: UTF8.self)
        switch Kind(rawValue: String(decoding: text.utf8[..<colon], as: UTF8.self)) {
        case .content: self = .content(path: value)
        case .flickr: self = .flickr(id: value)
        case nil: return nil
        }
    }

    /// The file under `content/`, for a content photo.
    public var contentPath: String? {
        if case .content(let path) = self { return path }
        return nil
    }

    /// The folder a content photo's file is in, relative to content/ ("travel/japan"); nil at
    /// the top of content/ or from elsewhere.
    public var folder: String? {
        guard case .content(let path) = self else { return nil }
        let folder = RelativePath.folder(of: path)
        return folder.isEmpty ? nil : folder
    }

    /// How messages name it: the file as the user sees it, or the Flickr photo.
    public var description: String {
        switch self {
        case .content(let path): return "content/\(path)"
        case .flickr(let id): return "Flickr photo \(id)"
        }
    }

    public static func < (a: PhotoSource, b: PhotoSource) -> Bool { a.text < b.text }

    // Compared by bytes, as SQLite and the file system compare them: to Swift's String,
    // "Montréal" written composed and decomposed is one text, but on Linux they are two files,
    // and the model's unique source column holds each as it is.
    public static func == (a: PhotoSource, b: PhotoSource) -> Bool {
        a.kind == b.kind && a.value.utf8.elementsEqual(b.value.utf8)
    }

    /// The bytes at once, and no `text` made for it: a build hashes every photo's source a few
    /// times, and a byte at a time cost more than the rest of finding nothing changed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        var value = value
        value.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The path or the id.
    private var value: String {
        switch self {
        case .content(let path): return path
        case .flickr(let id): return id
        }
    }
}

extension PhotoSource: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let source = PhotoSource(text: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown photo source '\(text)'")
        }
        self = source
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// Packed (a snapshot's records) as its text, as its `Codable` conformance encodes it.
extension PhotoSource: PackedScalar {
    public static func read(from reader: inout PackedReader) throws -> PhotoSource {
        let text = reader.text()
        guard let source = PhotoSource(text: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unknown photo source '\(text)'"))
        }
        return source
    }

    public func write(to writer: inout PackedWriter) { writer.text(text) }
}

extension PhotoSource: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { text.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> PhotoSource? {
        String.fromDatabaseValue(dbValue).flatMap(PhotoSource.init(text:))
    }
}

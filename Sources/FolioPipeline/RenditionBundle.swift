import FolioCore
import Foundation

/// What a shard made of one photo's bytes, as one blob in the rendition cache: its media files,
/// its tile pyramid and which files are the thumbnails; or why it could not. One blob, so that
/// putting it in place is one rename (or upload) and a reader sees all of it or nothing: a line
/// "folio-renditions 1", the length of a JSON header, the header, then the files' bytes; the
/// header ends with the XXH64 of those bytes, so a truncated or damaged blob is known as one.
struct RenditionBundle: Sendable, Equatable {
    struct File: Codable, Sendable, Equatable {
        /// As in `public/`: "media/….jpg".
        var path: String
        var bytes: Data

        enum CodingKeys: String, CodingKey { case path, size }
        init(path: String, bytes: Data) {
            self.path = path
            self.bytes = bytes
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            path = try container.decode(String.self, forKey: .path)
            // The size, until the body fills it in.
            bytes = Data(count: try container.decode(Int.self, forKey: .size))
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(bytes.count, forKey: .size)
        }
    }

    struct ThumbnailFile: Codable, Sendable, Equatable {
        var spec: String
        var path: String
        var width: Int
        var height: Int
    }

    var media: [File] = []
    /// The pyramid's folder ("media/tiles/…") and its tiles, by path inside it.
    var tilesFolder: String?
    var tiles: [File] = []
    var thumbnails: [ThumbnailFile] = []
    /// How many renditions this is, as the images step counts them.
    var made = 0
    /// Why the photo could not be made: the final build reports it as its own failure.
    var failure: String?

    private struct Header: Codable {
        var media: [File]
        var tilesFolder: String?
        var tiles: [File]
        var thumbnails: [ThumbnailFile]
        var made: Int
        var failure: String?
        var xxh64: String
    }

    private static let magic = "folio-renditions 1\n"

    package func encoded() throws -> Data {
        var body = Data()
        for file in media + tiles { body.append(file.bytes) }
        let header = Header(media: media, tilesFolder: tilesFolder, tiles: tiles, thumbnails: thumbnails,
                            made: made, failure: failure, xxh64: ContentHash.hex(body))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(header)
        var data = Data(Self.magic.utf8)
        data.append(Data("\(json.count)\n".utf8))
        data.append(json)
        data.append(body)
        return data
    }

    /// Nil for anything but a whole, undamaged bundle.
    init?(decoding data: Data) {
        let magic = Data(Self.magic.utf8)
        guard data.count > magic.count, data.prefix(magic.count) == magic else { return nil }
        var offset = data.startIndex + magic.count
        guard let newline = data[offset...].firstIndex(of: 0x0A),
              let length = Int(String(decoding: data[offset..<newline], as: UTF8.self)), length > 0,
              newline + 1 + length <= data.endIndex else { return nil }
        offset = newline + 1
        guard let header = try? JSONDecoder().decode(Header.self, from: data[offset..<(offset + length)]) else { return nil }
        offset += length
        let body = data[offset...]
        guard body.count == (header.media + header.tiles).reduce(0, { $0 + $1.bytes.count }),
              ContentHash.hex(body) == header.xxh64 else { return nil }
        func filled(_ files: [File]) -> [File] {
            files.map { file in
                defer { offset += file.bytes.count }
                return File(path: file.path, bytes: Data(data[offset..<(offset + file.bytes.count)]))
            }
        }
        media = filled(header.media)
        tiles = filled(header.tiles)
        tilesFolder = header.tilesFolder
        thumbnails = header.thumbnails
        made = header.made
        failure = header.failure
    }

    init(media: [File] = [], tilesFolder: String? = nil, tiles: [File] = [], thumbnails: [ThumbnailFile] = [],
         made: Int = 0, failure: String? = nil) {
        self.media = media
        self.tilesFolder = tilesFolder
        self.tiles = tiles
        self.thumbnails = thumbnails
        self.made = made
        self.failure = failure
    }
}

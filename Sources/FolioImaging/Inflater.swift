import CZlib
import Foundation

/// zlib's inflate, for the compressed chunks of PNG files (an `iCCP` colour profile): the only
/// code that calls zlib. Its stream lives and ends inside one call. libpng inflates the same
/// data inside libgd, but keeps what it finds there to itself.
enum Inflater {
    enum Failure: Error, Equatable {
        case corrupt(String)
        case tooLarge
    }

    /// The inflated bytes of a zlib stream, refused once they pass `limit` bytes (a few bytes
    /// of zlib can inflate to gigabytes) or when the stream is damaged or cut short.
    static func inflate(_ compressed: Data, limit: Int) throws(Failure) -> Data {
        var stream = z_stream()
        guard folio_inflate_init(&stream) == Z_OK else { throw .corrupt("zlib could not start") }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        let status: Int32 = compressed.withUnsafeBytes { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: UInt8.self).baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let result = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                guard output.count + produced <= limit else { return Z_MEM_ERROR }
                output.append(contentsOf: chunk.prefix(produced))
                if result != Z_OK { return result }
                // No progress with input left means the stream wants more than there is.
                if produced == 0 && stream.avail_in == 0 { return Z_BUF_ERROR }
            }
        }
        switch status {
        case Z_STREAM_END: return output
        case Z_MEM_ERROR: throw .tooLarge
        case Z_BUF_ERROR: throw .corrupt("the data ends before the stream does")
        default: throw .corrupt(stream.msg.map { String(cString: $0) } ?? "zlib error \(status)")
        }
    }
}

import FlyingSocks
import Foundation

/// A large file's bytes streamed from its open descriptor in chunks, so a 40 MB original costs
/// one chunk of memory per client instead of 40 MB.
struct FileBodySequence: AsyncBufferedSequence {
    typealias Element = UInt8

    let file: PublicFile
    let range: Range<Int>
    static let chunk = 256 * 1024

    func makeAsyncIterator() -> Iterator { Iterator(file: file, offset: range.lowerBound, end: range.upperBound) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        let file: PublicFile
        var offset: Int
        let end: Int

        mutating func next() async throws -> UInt8? {
            try await nextBuffer(suggested: 1)?.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> Data? {
            guard offset < end else { return nil }
            let upper = Swift.min(end, offset + Swift.max(1, Swift.min(count, FileBodySequence.chunk)))
            let data = try file.read(offset..<upper)
            offset = upper
            return data
        }
    }
}

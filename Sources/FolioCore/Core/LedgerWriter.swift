import Foundation

/// A build-state file written a line at a time (`LedgerReader` reads them): each line made in a
/// small buffer, moved into the file's bytes when the buffer fills. Made whole and then copied
/// into a `Data`, a file of a million lines was there twice (160 MB for the page manifest).
struct LedgerWriter {
    private var data: Data
    /// The line being made, after those made since the buffer was last moved.
    var line: [UInt8] = []

    /// A file that starts with `heading`, of about `capacity` bytes.
    init(heading: String = "", capacity: Int) {
        data = Data(heading.utf8)
        data.reserveCapacity(data.count + capacity)
        line.reserveCapacity(1 << 16)
    }

    /// Ends the line: a line feed, and the buffer moved when it is nearly full.
    mutating func endLine() {
        line.append(0x0A)
        if line.count >= (1 << 16) - 4_096 {
            data.append(contentsOf: line)
            line.removeAll(keepingCapacity: true)
        }
    }

    consuming func finish() -> Data {
        data.append(contentsOf: line)
        return data
    }
}

import Foundation

/// A build-state file written a line at a time (`LedgerReader` reads them): each line made in a
/// small buffer, moved on when the buffer fills: into the file's bytes, or handed to a sink (a
/// file being written) so that the whole is never held, nor copied.
package struct LedgerWriter {
    private var data = Data()
    private let sink: ((UnsafeRawBufferPointer) -> Void)?
    /// The line being made, after those made since the buffer was last moved.
    package var line: [UInt8] = []
    /// The hash of the bytes moved on (`endWithSum()`).
    private var hash = ContentHash.Stream()

    /// A file that starts with `heading`, of about `capacity` bytes, made whole (`finish`).
    package init(heading: String = "", capacity: Int) {
        sink = nil
        data = Data(heading.utf8)
        data.reserveCapacity(data.count + capacity)
        line.reserveCapacity(1 << 16)
    }

    /// A file that starts with `heading`, handed to `sink` 60 kB or so at a time.
    package init(heading: String = "", sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.sink = sink
        line.reserveCapacity(1 << 16)
        line.append(contentsOf: heading.utf8)
    }

    /// Ends the line: a line feed, and the buffer moved when it is nearly full.
    package mutating func endLine() {
        line.append(0x0A)
        spill()
    }

    /// Moves the buffer on when it is nearly full (for files that are not all lines).
    package mutating func spill() {
        if line.count >= (1 << 16) - 4_096 { move() }
    }

    /// Ends the file with a line that holds the hash of every byte before it, which
    /// `LedgerStream.endsWithSum()` checks: for a file that nothing else vouches for, whose bytes,
    /// damaged, could still read as a file of its kind.
    package mutating func endWithSum() {
        move()
        line.append(contentsOf: "sum \(ContentHash.hexText(hash.value))".utf8)
        endLine()
    }

    private mutating func move() {
        line.withUnsafeBytes { hash.add($0) }
        if let sink { line.withUnsafeBytes(sink) } else { data.append(contentsOf: line) }
        line.removeAll(keepingCapacity: true)
    }

    /// The file made whole; with a sink, its last bytes handed on (and nothing returned).
    @discardableResult
    package consuming func finish() -> Data {
        move()
        return data
    }
}

/// A build-state file written a line at a time: made whole (`encoded()`), or handed to a file
/// being written a piece at a time (`encode(to:)`), so a large one is never held as bytes beside
/// what it is written from. Both from its one `writeLines(into:)`.
package protocol LedgerFile {
    /// The lines before the entries.
    var ledgerHeading: String { get }
    /// About how many bytes the file has, for one made whole.
    var ledgerSize: Int { get }
    func writeLines(into file: inout LedgerWriter)
}

extension LedgerFile {
    package func encoded() -> Data {
        var file = LedgerWriter(heading: ledgerHeading, capacity: ledgerSize)
        writeLines(into: &file)
        return file.finish()
    }

    package func encode(to write: @escaping (UnsafeRawBufferPointer) -> Void) {
        var file = LedgerWriter(heading: ledgerHeading, sink: write)
        writeLines(into: &file)
        file.finish()
    }
}

import CSystem
import Foundation

/// Records written once, then read where they lie: held in memory while they are few, and past
/// `spillAt` bytes in a file of no name beside the model (gone with the store, however Folio
/// stops), so a large library's records are the kernel's cache, not the build's memory
/// (`GallerySnapshot`). Read with `pread`, not mapped: a mapping's resident pages count as the
/// process's, and scattered reads make a whole mapped store resident.
/// One writer appends, then `seal()`; after that any number of readers, on any thread.
package final class PackedStore: @unchecked Sendable {
    /// Bytes not yet in the file (all of them while there is no file): each record its length, then its values.
    private var buffer = PackedWriter()
    /// A record's values, written here and then after their length into `buffer`.
    private var record = PackedWriter()
    /// The file's descriptor, -1 while there is none (or none could be made: then all stays in memory).
    private var file: Int32 = -1
    /// How many bytes the file holds: every record that starts below this is there, the rest in `buffer`.
    private var spilled = 0
    private var sealed = false
    /// Nil once a file could not be made or written: the rest stays in memory, not tried again.
    private var folder: String?
    private let spillAt: Int

    /// The size from which a store spills: a small site's snapshot stays in memory.
    package static let spillSize = 4 << 20

    /// The size from which a store read back only in the order it was written spills (a
    /// spool's): held longer, its records gain nothing, and its buffer, which doubles as it
    /// grows, would be held beside what they are made from.
    package static let spoolSpillSize = 1 << 19

    /// A store that spills into `folder` (nil: one that stays in memory).
    package init(spillingInto folder: String?, at spillAt: Int = PackedStore.spillSize) {
        self.folder = folder
        self.spillAt = spillAt
    }

    /// The records of a file written elsewhere (`KeptSnapshot`): `file`, open for reading, whose
    /// first `size` bytes hold them, each at the offset it was written at. The store closes it.
    package init(reading file: Int32, size: Int) {
        self.file = file
        spilled = size
        sealed = true
        folder = nil
        spillAt = .max
    }

    deinit {
        if file >= 0 { close(file) }
    }

    /// Adds one record, `write` putting in its values; returns where it starts.
    package func append(_ write: (inout PackedWriter) -> Void) -> Int {
        append(write, hashed: false).start
    }

    /// The same, and the `ContentHash` of the record's bytes: the same values, the same number.
    package func appendHashed(_ write: (inout PackedWriter) -> Void) -> (start: Int, hash: UInt64) {
        append(write, hashed: true)
    }

    private func append(_ write: (inout PackedWriter) -> Void, hashed: Bool) -> (start: Int, hash: UInt64) {
        precondition(!sealed, "a sealed store takes no more records")
        let start = spilled + buffer.bytes.count
        record.bytes.removeAll(keepingCapacity: true)
        write(&record)
        let hash = hashed ? record.bytes.withUnsafeBytes { ContentHash.hash($0) } : 0
        buffer.number(Int64(record.bytes.count))
        buffer.bytes.append(contentsOf: record.bytes)
        if buffer.bytes.count >= spillAt, let folder { spill(into: folder) }
        return (start, hash)
    }

    /// Writes the buffer to the file (made at the first spill). A file that cannot be made or
    /// written leaves the records in memory: the store then holds them as a small one does.
    private func spill(into folder: String) {
        if file < 0 {
            file = folio_unnamed_file(folder)
        }
        guard file >= 0, Self.write(buffer.bytes, to: file, at: spilled) else {
            self.folder = nil
            return
        }
        spilled += buffer.bytes.count
        buffer.bytes.removeAll(keepingCapacity: true)
    }

    /// Writes all of `bytes` at `offset` of `file`; false when it will not take them.
    package static func write(_ bytes: [UInt8], to file: Int32, at offset: Int) -> Bool {
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let wrote = pwrite(file, raw.baseAddress! + done, raw.count - done, off_t(offset + done))
                if wrote < 0, errno == EINTR { continue }
                guard wrote > 0 else { return false }
                done += wrote
            }
            return true
        }
    }

    /// Ends the writing: a store that spilled puts the rest in its file too, rather than hold it
    /// to the build's end.
    package func seal() {
        guard !sealed else { return }
        sealed = true
        if spilled > 0, !buffer.bytes.isEmpty, let folder { spill(into: folder) }
        // No room kept for records that will not come: a spilling store's buffer grew to twice
        // `spillAt`, and `Array(buffer.bytes)` would share that buffer, not copy what it holds.
        buffer.bytes = buffer.bytes.withUnsafeBufferPointer { Array($0) }
        record = PackedWriter()
    }

    /// The record that starts at `offset` (`append`'s result), its values' bytes.
    package func withRecord<Result>(at offset: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        precondition(sealed, "a store is read once it is sealed")
        guard offset < spilled else {
            return try buffer.bytes.withUnsafeBytes { bytes in
                try body(Self.values(in: UnsafeRawBufferPointer(rebasing: bytes[(offset - spilled)...])))
            }
        }
        // Most records are a few hundred bytes: one read of a kilobyte takes the whole of one.
        return try withUnsafeTemporaryAllocation(byteCount: 1_024, alignment: 8) { chunk in
            let got = Self.read(file, into: UnsafeMutableRawBufferPointer(rebasing: chunk[..<min(chunk.count, spilled - offset)]), at: offset)
            precondition(got > 0, "a record of a store's own file could not be read back")
            var header = PackedReader(UnsafeRawBufferPointer(rebasing: chunk[..<got]))
            let count = Int(header.number())
            let start = header.position
            if start + count <= got { return try body(UnsafeRawBufferPointer(rebasing: chunk[start..<(start + count)])) }
            return try withUnsafeTemporaryAllocation(byteCount: count, alignment: 8) { whole in
                let read = Self.read(file, into: whole, at: offset + start)
                precondition(read == count, "a record of a store's own file could not be read back")
                return try body(UnsafeRawBufferPointer(whole))
            }
        }
    }

    /// The bytes `part` of the values of the record at `offset`: a piece of a long record, read
    /// without the rest of it.
    package func withRecord<Result>(at offset: Int, part: Range<Int>,
                                    _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        precondition(sealed, "a store is read once it is sealed")
        guard offset < spilled else {
            return try buffer.bytes.withUnsafeBytes { bytes in
                let values = Self.values(in: UnsafeRawBufferPointer(rebasing: bytes[(offset - spilled)...]))
                precondition(part.upperBound <= values.count, "a piece past its record's end")
                return try body(UnsafeRawBufferPointer(rebasing: values[part]))
            }
        }
        // A length is at most ten bytes.
        let start = withUnsafeTemporaryAllocation(byteCount: 10, alignment: 8) { header in
            let got = Self.read(file, into: UnsafeMutableRawBufferPointer(rebasing: header[..<min(header.count, spilled - offset)]), at: offset)
            var reader = PackedReader(UnsafeRawBufferPointer(rebasing: header[..<got]))
            let count = Int(reader.number())
            precondition(part.upperBound <= count, "a piece past its record's end")
            return offset + reader.position
        }
        return try withUnsafeTemporaryAllocation(byteCount: part.count, alignment: 8) { piece in
            let read = Self.read(file, into: piece, at: start + part.lowerBound)
            precondition(read == part.count, "a record of a store's own file could not be read back")
            return try body(UnsafeRawBufferPointer(piece))
        }
    }

    /// A record's values: the bytes after its length, as many as it says.
    private static func values(in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var header = PackedReader(bytes)
        let count = Int(header.number())
        return UnsafeRawBufferPointer(rebasing: bytes[header.position..<(header.position + count)])
    }

    /// Reads into `bytes` from `offset` of `file`, up to its size; how many bytes came.
    package static func read(_ file: Int32, into bytes: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        var done = 0
        while done < bytes.count {
            let got = pread(file, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            done += got
        }
        return done
    }

    /// Whether the records went to a file, and how many bytes it holds in memory, room included (tests).
    package var spills: Bool { spilled > 0 }
    var held: Int { buffer.bytes.capacity + record.bytes.capacity }
}

/// Values written as packed bytes: numbers as variable-length integers, texts with their length.
/// `PackedReader` reads them back in the same order. Both are public and their methods inlinable:
/// code generated in other modules (a record's packing) calls them for each property, and only a
/// public declaration is inlined across modules (a `package` one is called, unspecialized).
public struct PackedWriter {
    public var bytes: [UInt8] = []

    public init() {}

    @inlinable public mutating func number(_ value: Int64) {
        // Zig-zag, so small negative numbers are short too.
        var rest = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    @inlinable public mutating func bits(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    @inlinable public mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            number(Int64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// Nil as -1 where a length would be.
    @inlinable public mutating func text(_ value: String?) {
        if let value { text(value) } else { number(-1) }
    }

    @inlinable public mutating func flag(_ value: Bool) { bytes.append(value ? 1 : 0) }

    /// An array's count: four bytes, so it can be written over as elements come.
    @inlinable public mutating func count(_ value: Int) {
        withUnsafeBytes(of: UInt32(value).littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Writes over the count written at `offset`.
    @inlinable public mutating func count(_ value: Int, at offset: Int) {
        withUnsafeBytes(of: UInt32(value).littleEndian) { count in
            for (index, byte) in count.enumerated() { bytes[offset + index] = byte }
        }
    }
}

/// Reads what `PackedWriter` wrote, in the same order, from the start of the bytes given.
public struct PackedReader {
    @usableFromInline let bytes: UnsafeRawBufferPointer
    @usableFromInline var at = 0

    /// How many bytes have been read.
    public var position: Int { at }

    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    @inlinable public mutating func number() -> Int64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = bytes[at]
            at += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    @inlinable public mutating func bits() -> UInt64 {
        var value: UInt64 = 0
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[at..<(at + 8)])) }
        at += 8
        return UInt64(littleEndian: value)
    }

    @inlinable public mutating func text() -> String {
        optionalText() ?? ""
    }

    @inlinable public mutating func optionalText() -> String? {
        let count = Int(number())
        guard count >= 0 else { return nil }
        defer { at += count }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[at..<(at + count)]), as: UTF8.self)
    }

    /// Passes over `count` bytes.
    @inlinable public mutating func skip(_ count: Int) {
        at += count
    }

    @inlinable public mutating func flag() -> Bool {
        byte() != 0
    }

    @inlinable public mutating func byte() -> UInt8 {
        defer { at += 1 }
        return bytes[at]
    }

    /// What `PackedWriter.count` wrote.
    @inlinable public mutating func count() -> Int {
        var count: UInt32 = 0
        for shift in stride(from: 0, to: 32, by: 8) { count |= UInt32(byte()) << UInt32(shift) }
        return Int(count)
    }
}

/// Its bytes are a value's: a list held as packed numbers (`PositionList`) crosses threads.
extension PackedWriter: Sendable {}
